import t from 'tap';
import { copy, merge } from '../../src/core/merge.js';

t.test('merge: the same keys, order and values as a spread, the second winning; the inputs untouched', async (t) => {
  const fixed = { friendly_name: 'Lamp', supported_color_modes: ['hs'] };
  const reported = { color_mode: 'hs', friendly_name: 'Desk lamp' };
  const out = merge(fixed, reported);
  t.same(Object.entries(out), Object.entries({ ...fixed, ...reported }));
  t.same(Object.keys(out), ['friendly_name', 'supported_color_modes', 'color_mode']);
  t.equal(out.friendly_name, 'Desk lamp');
  t.not(out, fixed, 'a new object');
  t.same(fixed, { friendly_name: 'Lamp', supported_color_modes: ['hs'] });
  t.same(copy(fixed), fixed);
  t.not(copy(fixed), fixed);
});

t.test('an own __proto__ key (as JSON.parse makes it) stays data and never becomes the prototype', async (t) => {
  const attributes = JSON.parse('{"__proto__": {"polluted": true}, "brightness": 3}') as Record<string, unknown>;
  for (const out of [merge({ friendly_name: 'x' }, attributes), merge(attributes, { friendly_name: 'x' }), copy(attributes)]) {
    t.equal(Object.getPrototypeOf(out), Object.prototype);
    t.equal((out as { polluted?: unknown }).polluted, undefined);
    t.same(Object.getOwnPropertyDescriptor(out, '__proto__')?.value, { polluted: true });
    t.equal(JSON.parse(JSON.stringify(out)).brightness, 3);
    t.match(JSON.stringify(out), /"__proto__":\{"polluted":true\}/, 'serialized as written');
  }
});
