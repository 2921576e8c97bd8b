import t from 'tap';
import { type JsonValue, jsonEqual, sameJson } from '../../src/core/json.js';

t.test('sameJson is true exactly when both serialize to the same text', async (t) => {
  const cases: [JsonValue, JsonValue][] = [
    [{}, {}],
    [{ a: 1 }, { a: 1 }],
    [
      { a: 1, b: 2 },
      { b: 2, a: 1 },
    ],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [{ a: { x: [1, 2], y: null } }, { a: { x: [1, 2], y: null } }],
    [{ a: { x: [1, 2], y: null } }, { a: { y: null, x: [1, 2] } }],
    [
      { a: { x: 1 }, b: { y: 2 } },
      { a: { x: 1 }, b: { y: 2 } },
    ],
    [
      { a: { x: 1 }, b: { y: 2 } },
      { a: { x: 1 }, b: { z: 2 } },
    ],
    [
      { a: { p: 1, q: 2 }, b: { r: { s: 3 } }, c: 4 },
      { a: { p: 1, q: 2 }, b: { r: { s: 3 } }, c: 4 },
    ],
    [
      [1, { a: 1, b: 2 }],
      [1, { a: 1, b: 2 }],
    ],
    [
      [1, { a: 1, b: 2 }],
      [1, { b: 2, a: 1 }],
    ],
    [
      { '2': 'x', a: 1 },
      { a: 1, '2': 'x' },
    ],
    ['on', 'on'],
    [1, '1'],
    [null, {}],
    [[], {}],
  ];
  for (const [a, b] of cases) {
    const label = `${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
    t.equal(sameJson(a, b), JSON.stringify(a) === JSON.stringify(b), label);
    t.equal(sameJson(b, a), JSON.stringify(a) === JSON.stringify(b), `${label}, swapped`);
    if (sameJson(a, b)) t.ok(jsonEqual(a, b), `${label}: same text is equal`);
  }
});
