import t from 'tap';
import { describeField, parseEntityIds, type ServiceSchema, validateServiceData } from '../../src/core/fields.js';

const schema: ServiceSchema = {
  fields: {
    position: { kind: 'number', integer: true, min: 0, max: 100, required: true },
    brightness: { kind: 'number', integer: true, min: 0, max: 255, clamp: true },
    mode: { kind: 'select', options: ['auto', 'heat'] },
    flag: { kind: 'boolean' },
    rgb: { kind: 'tuple', selector: 'color_rgb', items: [0, 1, 2].map(() => ({ min: 0, max: 255, integer: true })) },
    name: { kind: 'text', maxLength: 5 },
    a: { kind: 'number' },
    b: { kind: 'number' },
  },
  exclusive: [['a', 'b']],
};

t.test('coerces like voluptuous and names the field and the allowed range', async (t) => {
  t.same(validateServiceData(schema, { position: '42', flag: 'on', entity_id: 'x.y' }, true), { position: 42, flag: true });
  t.same(validateServiceData(schema, { position: 1, brightness: 999 }, true).brightness, 255, 'clamped');
  t.throws(() => validateServiceData(schema, { position: 101 }, true), {
    kind: 'invalid_service_data',
    message: "value must be between 0 and 100 for dictionary value @ data['position']. Got 101",
  });
  t.throws(() => validateServiceData(schema, { position: 'abc' }, true), {
    message: "expected int for dictionary value @ data['position']. Got 'abc'",
  });
  t.throws(() => validateServiceData(schema, {}, true), { message: "required key not provided @ data['position']. Got None" });
  t.throws(() => validateServiceData(schema, { position: 1, mode: 'cool' }, true), {
    message: /value must be one of auto, heat .*data\['mode'\]/,
  });
  t.throws(() => validateServiceData(schema, { position: 1, rgb: [1, 2] }, true), {
    message: /list of 3 numbers \[0\.\.255, 0\.\.255, 0\.\.255\]/,
  });
  t.throws(() => validateServiceData(schema, { position: 1, name: 'toolong' }, true), { message: /at most 5/ });
  t.throws(() => validateServiceData(schema, { position: 1, flag: 'maybe' }, true), {
    message: /invalid boolean value 'maybe'.*true or false/,
  });
  t.throws(() => validateServiceData(schema, { position: 1, nope: 1 }, true), {
    message: /extra keys not allowed @ data\['nope'\].*Allowed keys: position, .*entity_id/,
  });
  t.throws(() => validateServiceData(schema, { position: 1, a: 1, b: 2 }, true), { message: /group of exclusion.*only one of a, b/ });
});

t.test('entity id lists come from strings, comma strings or lists, lower-cased', async (t) => {
  t.same(parseEntityIds('Light.A, light.b'), ['light.a', 'light.b']);
  t.same(parseEntityIds(['light.a']), ['light.a']);
  t.throws(() => parseEntityIds(5), { message: /expected an entity id or a list/ });
  t.throws(() => parseEntityIds([1]), { name: 'HubError', kind: 'invalid_service_data' });
});

t.test('fields render Home Assistant selectors for the catalogue', async (t) => {
  t.same(describeField({ kind: 'number', integer: true, min: 0, max: 100, unit: '%', description: 'd' }), {
    description: 'd',
    required: false,
    selector: { number: { mode: 'slider', min: 0, max: 100, step: 1, unit_of_measurement: '%' } },
  });
  t.same(describeField({ kind: 'select', options: ['a'], required: true }).selector, { select: { options: ['a'] } });
  t.same(describeField({ kind: 'boolean' }).selector, { boolean: {} });
});
