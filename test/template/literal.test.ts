import t from 'tap';
import { parseResult } from '../../src/template/index.js';

/** Home Assistant's reading of rendered text (template.py _parse_result and its tests). */
t.test('rendered text becomes a number, list, dict, bool or None where Home Assistant reads one', async (t) => {
  const cases: readonly (readonly [string, unknown])[] = [
    ['42', 42],
    ['-1.5', -1.5],
    ['0.5', 0.5],
    ['True', true],
    ['False', false],
    ['None', null],
    ["[1, 'a', None]", [1, 'a', null]],
    ["{'a': 1, 'b': [True]}", { a: 1, b: [true] }],
    ['(1, 2)', [1, 2]],
    ['1e5', '1e5'],
    ['007', '007'],
    ['1_000', '1_000'],
    ['0x1F', '0x1F'],
    ["'quoted'", "'quoted'"],
    ['on', 'on'],
    ['21.5 °C', '21.5 °C'],
    ['1j', '1j'],
    ['12345678901234567890', '12345678901234567890'],
    ['[1, 2', '[1, 2'],
    ['', ''],
  ];
  for (const [text, expected] of cases) t.same(parseResult(text), expected, JSON.stringify(text));
});
