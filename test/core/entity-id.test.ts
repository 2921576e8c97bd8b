import fc from 'fast-check';
import t from 'tap';
import { entityIdProblem, isValidDomain, isValidEntityId, slugify, splitEntityId } from '../../src/core/entity-id.js';

t.test('accepts and rejects the ids Home Assistant does', async (t) => {
  for (const id of ['light.kitchen', '1light.x', 'sensor.temp_2', 'a.b', 'binary_sensor.front_door']) t.ok(isValidEntityId(id), id);
  for (const id of [
    'light',
    'light.',
    '.x',
    'Light.kitchen',
    'light.Kitchen',
    'light._x',
    'light.x_',
    '_light.x',
    'light.a__b',
    'li__ght.x',
    'light.x.y',
    'light.x-y',
    'light.kö',
    '',
  ]) {
    t.notOk(isValidEntityId(id), id);
    t.type(entityIdProblem(id), 'string');
  }
  t.notOk(isValidEntityId(`light.${'a'.repeat(250)}`), 'longer than 255');
  t.notOk(isValidEntityId(`${'d'.repeat(65)}.x`), 'domain longer than 64');
  t.match(entityIdProblem(`${'d'.repeat(65)}.x`), /domain is longer than 64/);
  t.ok(isValidDomain('light'));
  t.notOk(isValidDomain('_light'));
  t.same(splitEntityId('light.kitchen'), ['light', 'kitchen']);
});

// Lower-case alphanumeric words joined by single underscores: the shape of a valid id part.
const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const part = fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join('_'));

t.test('property: every well-formed <domain>.<object_id> is valid and splits back', async (t) => {
  fc.assert(
    fc.property(part, part, (d, o) => {
      const id = `${d}.${o}`;
      const [dd, oo] = splitEntityId(id);
      return isValidEntityId(id) && dd === d && oo === o;
    }),
  );
  t.pass();
});

t.test('property: ids with an upper-case letter, a double underscore or no dot are never valid', async (t) => {
  fc.assert(fc.property(part, part, (d, o) => !isValidEntityId(`${d}.${o}A`) && !isValidEntityId(`${d}A.${o}`)));
  fc.assert(fc.property(part, part, (d, o) => !isValidEntityId(`${d}__x.${o}`) && !isValidEntityId(`${d}.x__${o}`)));
  fc.assert(fc.property(part, (d) => !isValidEntityId(d)));
  t.pass();
});

t.test('property: slugify always yields a valid object id', async (t) => {
  fc.assert(fc.property(fc.string({ maxLength: 80 }), (text) => isValidEntityId(`light.${slugify(text)}`)));
  t.equal(slugify('Living Room Lamp'), 'living_room_lamp');
  t.equal(slugify('Café  Düsseldorf!'), 'cafe_dusseldorf');
  t.equal(slugify('***'), 'unknown');
});
