import { casesOf } from './types.js';

/** tests/helpers/template/extensions/test_collection.py (set and tuple variables are Python objects: skipped). */
export const COLLECTION = casesOf('extensions/test_collection.py', '09d4ecb32641653d3eba97779e481ef0def53c8a', (c) => {
  const values: [unknown, boolean, boolean, boolean][] = [
    // value, is list, is set, is tuple
    [[1, 2, 3], true, false, false],
    [{ a: 1 }, false, false, false],
    ['abc', false, false, false],
    ['', false, false, false],
    [5, false, false, false],
    [null, false, false, false],
    [{ foo: 'bar', baz: 'qux' }, false, false, false],
  ];
  for (const [value, list, set, tuple] of values) {
    c.eq('test_is_list', '{{ value is list }}', list, { vars: { value } });
    c.eq('test_is_set', '{{ value is set }}', set, { vars: { value } });
    c.eq('test_is_tuple', '{{ value is tuple }}', tuple, { vars: { value } });
  }
  for (const [value, expected] of [
    [
      [1, 2, 3],
      [1, 2, 3],
    ],
    [{ a: 1 }, ['a']],
    ['abc', ['a', 'b', 'c']],
    ['', []],
    [{ foo: 'bar', baz: 'qux' }, ['foo', 'baz']],
  ] as const) {
    c.eq('test_set', '{{ set(value) }}', expected, { vars: { value }, unordered: true });
    c.eq('test_tuple', '{{ tuple(value) }}', expected, { vars: { value } });
  }
  for (const [cola, colb, expected] of [
    [
      [1, 2],
      [3, 4],
      [
        [1, 3],
        [2, 4],
      ],
    ],
    [
      [1, 2],
      [3, 4, 5],
      [
        [1, 3],
        [2, 4],
      ],
    ],
    [
      [1, 2, 3, 4],
      [3, 4],
      [
        [1, 3],
        [2, 4],
      ],
    ],
  ] as const) {
    c.eq('test_zip', '{{ zip(cola, colb) | list }}', expected, { vars: { cola, colb } });
    c.eq('test_zip', '[{% for a, b in zip(cola, colb) %}({{a}}, {{b}}), {% endfor %}]', expected, { vars: { cola, colb } });
  }
  for (const [col, expected] of [
    [
      [
        [1, 3],
        [2, 4],
      ],
      [
        [1, 2],
        [3, 4],
      ],
    ],
    [
      ['ax', 'by', 'cz'],
      [
        ['a', 'b', 'c'],
        ['x', 'y', 'z'],
      ],
    ],
  ] as const) {
    c.eq('test_unzip', '{{ zip(*col) | list }}', expected, { vars: { col } });
    c.eq('test_unzip', '{% set a, b = zip(*col) %}[{{a}}, {{b}}]', expected, { vars: { col } });
  }
  c.eq('test_shuffle', '{{ shuffle([1, 2, 3, 4, 5]) }}', [1, 2, 3, 4, 5], { unordered: true });
  c.eq('test_shuffle', '{{ shuffle([1, 2, 3, 4, 5], seed=42) }}', [1, 2, 3, 4, 5], { unordered: true });
  c.eq('test_shuffle', '{{ shuffle([1, 2, 3, 4, 5], seed=123) }}', [1, 2, 3, 4, 5], { unordered: true });

  c.eq('test_flatten', '{{ flatten([[1, 2], [3, 4]]) }}', [1, 2, 3, 4]);
  c.eq('test_flatten', '{{ flatten([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]) }}', [1, 2, 3, 4, 5, 6, 7, 8]);
  c.eq('test_flatten', '{{ flatten([[[1, 2], [3, 4]], [[5, 6], [7, 8]]], levels=1) }}', [
    [1, 2],
    [3, 4],
    [5, 6],
    [7, 8],
  ]);
  c.eq('test_flatten', "{{ flatten([[1, 'a'], [2, 'b']]) }}", [1, 'a', 2, 'b']);
  c.eq('test_flatten', '{{ flatten([]) }}', []);
  c.eq('test_flatten', '{{ flatten([1, 2, 3]) }}', [1, 2, 3]);

  c.eq('test_intersect', '{{ [1, 2, 3, 4] | intersect([3, 4, 5, 6]) | sort }}', [3, 4]);
  c.eq('test_intersect', '{{ [1, 2] | intersect([3, 4]) }}', []);
  c.eq('test_intersect', "{{ ['a', 'b', 'c'] | intersect(['b', 'c', 'd']) | sort }}", ['b', 'c']);
  c.eq('test_intersect', '{{ [] | intersect([1, 2, 3]) }}', []);
  c.eq('test_difference', '{{ [1, 2, 3, 4] | difference([3, 4, 5, 6]) | sort }}', [1, 2]);
  c.eq('test_difference', '{{ [1, 2] | difference([1, 2, 3, 4]) }}', []);
  c.eq('test_difference', "{{ ['a', 'b', 'c'] | difference(['b', 'c', 'd']) | sort }}", ['a']);
  c.eq('test_difference', '{{ [] | difference([1, 2, 3]) }}', []);
  c.eq('test_union', '{{ [1, 2, 3] | union([3, 4, 5]) | sort }}', [1, 2, 3, 4, 5]);
  c.eq('test_union', "{{ ['a', 'b'] | union(['b', 'c']) | sort }}", ['a', 'b', 'c']);
  c.eq('test_union', '{{ [] | union([1, 2, 3]) | sort }}', [1, 2, 3]);
  c.eq('test_union', '{{ [1, 1, 2, 2] | union([2, 2, 3, 3]) | sort }}', [1, 2, 3]);
  c.eq('test_symmetric_difference', '{{ [1, 2, 3, 4] | symmetric_difference([3, 4, 5, 6]) | sort }}', [1, 2, 5, 6]);
  c.eq('test_symmetric_difference', '{{ [1, 2, 3] | symmetric_difference([1, 2, 3]) }}', []);
  c.eq('test_symmetric_difference', "{{ ['a', 'b', 'c'] | symmetric_difference(['b', 'c', 'd']) | sort }}", ['a', 'd']);
  c.eq('test_symmetric_difference', '{{ [] | symmetric_difference([1, 2, 3]) | sort }}', [1, 2, 3]);

  c.add('test_collection_functions_as_tests', '{{ [1,2,3] is list }}', { truthy: true });
  c.add('test_collection_functions_as_tests', '{{ set([1,2,3]) is set }}', { truthy: true });
  c.add('test_collection_functions_as_tests', '{{ (1,2,3) is tuple }}', { truthy: true });

  c.err('test_collection_error_handling', '{{ flatten(123) }}', { error: 'flatten expected a list' });
  c.err('test_collection_error_handling', '{{ [1, 2] | intersect(123) }}', { error: 'intersect expected a list' });
  c.err('test_collection_error_handling', '{{ [1, 2] | difference(123) }}', { error: 'difference expected a list' });
  c.err('test_collection_error_handling', '{{ shuffle() }}', { error: 'shuffle expected at least 1 argument' });

  const natural: [string, unknown][] = [
    [
      "{{ ['Elm11', 'Elm12', 'Elm2', 'elm0', 'elm1', 'elm10', 'elm13', 'elm9'] | natural_sort }}",
      ['Elm2', 'Elm11', 'Elm12', 'elm0', 'elm1', 'elm9', 'elm10', 'elm13'],
    ],
    [
      "{{ ['2 ft 7 in', '1 ft 5 in', '10 ft 2 in', '2 ft 11 in', '7 ft 6 in'] | natural_sort }}",
      ['1 ft 5 in', '2 ft 7 in', '2 ft 11 in', '7 ft 6 in', '10 ft 2 in'],
    ],
    ["{{ ['5','1','31','23','9','22','11'] | natural_sort }}", ['1', '5', '9', '11', '22', '23', '31']],
    ["{{ ['5','1','31','23','9','22','11'] | natural_sort(reverse=True) }}", ['31', '23', '22', '11', '9', '5', '1']],
    [
      "{{  [{'average': '15,b2','background_color': '#A2C62B'},{'average': '11,a1','background_color': '#4EC2EE'},{'average': '14,a1','background_color': '#00C2EE'}]  | natural_sort(key='average') }}",
      [
        { average: '11,a1', background_color: '#4EC2EE' },
        { average: '14,a1', background_color: '#00C2EE' },
        { average: '15,b2', background_color: '#A2C62B' },
      ],
    ],
    [
      "{{ [['a', 'num4'], ['b', 'num8'], ['c', 'num2']] | natural_sort(key=1) }}",
      [
        ['c', 'num2'],
        ['a', 'num4'],
        ['b', 'num8'],
      ],
    ],
    ["{{ ['apple', 'Apple', 'banana', 'Banana', 'corn', 'Corn'] | natural_sort }}", ['Apple', 'Banana', 'Corn', 'apple', 'banana', 'corn']],
    [
      "{{ ['apple', 'Apple', 'banana', 'Banana', 'corn', 'Corn'] | natural_sort(alg='ns.LOWERCASEFIRST') }}",
      ['apple', 'banana', 'corn', 'Apple', 'Banana', 'Corn'],
    ],
    ["{{ ['1.5', '0.1', '-2.0', '9.8', '6.0'] | natural_sort()}}", ['-2.0', '0.1', '1.5', '6.0', '9.8']],
    ["{{ ['1,5', '0,1', '-2,0', '9,8', '6,0'] | natural_sort()}}", ['-2,0', '0,1', '1,5', '6,0', '9,8']],
    ["{{ ['1.5', '0.1', '-2.0', '9.8', '6.0'] | natural_sort(reverse=True) }}", ['9.8', '6.0', '1.5', '0.1', '-2.0']],
    ["{{ ['a50', 'a5.034e1', 'a51.', 'a+50.300', 'a+50.4'] | natural_sort()}}", ['a50', 'a+50.300', 'a5.034e1', 'a+50.4', 'a51.']],
  ];
  for (const [tpl, expected] of natural) c.eq('test_natural_sort', tpl, expected);
});
