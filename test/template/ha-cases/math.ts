import { casesOf } from './types.js';

/** tests/helpers/template/extensions/test_math.py */
export const MATH = casesOf('extensions/test_math.py', '095e4d4fc4914306033b4316827e79d30f951bc4', (c) => {
  c.eq('test_math_constants', '{{ e }}', Math.E);
  c.eq('test_math_constants', '{{ pi }}', Math.PI);
  c.eq('test_math_constants', '{{ tau }}', Math.PI * 2);

  for (const [value, base, expected] of [
    ['4', '2', 2.0],
    ['1000', '10', 3.0],
    [String(Math.E), '', 1.0],
  ] as const) {
    c.eq('test_logarithm', `{{ ${value} | log(${base}) | round(1) }}`, expected);
    c.eq('test_logarithm', `{{ log(${value}, ${base}) | round(1) }}`, expected);
  }
  c.err('test_logarithm', '{{ invalid | log(_) }}');
  c.err('test_logarithm', '{{ log(invalid, _) }}');
  c.err('test_logarithm', '{{ 10 | log(invalid) }}');
  c.err('test_logarithm', '{{ log(10, invalid) }}');
  c.eq('test_logarithm', "{{ 'no_number' | log(10, 1) }}", 1);
  c.eq('test_logarithm', "{{ 'no_number' | log(10, default=1) }}", 1);
  c.eq('test_logarithm', "{{ log('no_number', 10, 1) }}", 1);
  c.eq('test_logarithm', "{{ log('no_number', 10, default=1) }}", 1);
  c.eq('test_logarithm', '{{ log(0, 10, 1) }}', 1);
  c.eq('test_logarithm', '{{ log(0, 10, default=1) }}', 1);

  const trig: [string, [number, number][]][] = [
    [
      'sin',
      [
        [0, 0.0],
        [Math.PI / 2, 1.0],
        [Math.PI, 0.0],
        [Math.PI * 1.5, -1.0],
        [Math.PI / 10, 0.309],
      ],
    ],
    [
      'cos',
      [
        [0, 1.0],
        [Math.PI / 2, 0.0],
        [Math.PI, -1.0],
        [Math.PI * 1.5, 0.0],
        [Math.PI / 3, 0.5],
      ],
    ],
    [
      'tan',
      [
        [0, 0.0],
        [Math.PI / 4, 1.0],
        [Math.PI, 0.0],
        [Math.PI / 6, 0.577],
      ],
    ],
  ];
  for (const [fn, rows] of trig) {
    const test = { sin: 'test_sine', cos: 'test_cosine', tan: 'test_tangent' }[fn] as string;
    for (const [value, expected] of rows) {
      c.eq(test, `{{ ${value} | ${fn} | round(3) }}`, expected);
      c.eq(test, `{{ ${fn}(${value}) | round(3) }}`, expected);
    }
    c.err(test, `{{ 'duck' | ${fn} }}`);
    c.eq(test, `{{ 'no_number' | ${fn}(1) }}`, 1);
    c.eq(test, `{{ 'no_number' | ${fn}(default=1) }}`, 1);
    c.eq(test, `{{ ${fn}('no_number', 1) }}`, 1);
    c.eq(test, `{{ ${fn}('no_number', default=1) }}`, 1);
  }
  c.err('test_sine', "{{ invalid | sin('duck') }}");

  for (const [value, expected] of [
    ['0', 0.0],
    ['1', 1.0],
    ['4', 2.0],
    ['9', 3.0],
    ['16', 4.0],
    ['0.25', 0.5],
  ] as const) {
    c.eq('test_square_root', `{{ ${value} | sqrt }}`, expected);
    c.eq('test_square_root', `{{ sqrt(${value}) }}`, expected);
  }
  c.err('test_square_root', "{{ 'duck' | sqrt }}");
  c.err('test_square_root', '{{ -1 | sqrt }}');
  c.eq('test_square_root', "{{ 'no_number' | sqrt(1) }}", 1);
  c.eq('test_square_root', "{{ 'no_number' | sqrt(default=1) }}", 1);
  c.eq('test_square_root', "{{ sqrt('no_number', 1) }}", 1);
  c.eq('test_square_root', "{{ sqrt('no_number', default=1) }}", 1);
  c.eq('test_square_root', '{{ sqrt(-1, 1) }}', 1);
  c.eq('test_square_root', '{{ sqrt(-1, default=1) }}', 1);

  c.eq('test_arc_functions', '{{ asin(0.5) | round(3) }}', 0.524);
  c.eq('test_arc_functions', '{{ 0.5 | asin | round(3) }}', 0.524);
  c.eq('test_arc_functions', '{{ acos(0.5) | round(3) }}', 1.047);
  c.eq('test_arc_functions', '{{ 0.5 | acos | round(3) }}', 1.047);
  c.eq('test_arc_functions', '{{ atan(1) | round(3) }}', 0.785);
  c.eq('test_arc_functions', '{{ 1 | atan | round(3) }}', 0.785);
  c.eq('test_arc_functions', '{{ atan2(1, 1) | round(3) }}', 0.785);
  c.eq('test_arc_functions', '{{ atan2([1, 1]) | round(3) }}', 0.785);
  c.err('test_arc_functions', '{{ asin(2) }}');
  c.eq('test_arc_functions', '{{ asin(2, 1) }}', 1);
  c.eq('test_arc_functions', '{{ acos(2, 1) }}', 1);
  c.eq('test_arc_functions', "{{ atan('invalid', 1) }}", 1);
  c.eq('test_arc_functions', "{{ atan2('invalid', 1, 1) }}", 1);

  c.eq('test_average', '{{ average([1, 2, 3]) }}', 2);
  c.eq('test_average', '{{ average(1, 2, 3) }}', 2);
  c.eq('test_average', '{{ average([1, 2, 3], -1) }}', 2);
  c.eq('test_average', '{{ average([], -1) }}', -1);
  c.eq('test_average', '{{ average([], default=-1) }}', -1);
  c.eq('test_average', '{{ average([], 5, default=-1) }}', -1);
  c.eq('test_average', "{{ average(1, 'a', 3, default=-1) }}", -1);
  c.err('test_average', '{{ average() }}');
  c.err('test_average', '{{ average([]) }}');

  c.eq('test_median', '{{ median([1, 2, 3]) }}', 2);
  c.eq('test_median', '{{ median([1, 2, 3, 4]) }}', 2.5);
  c.eq('test_median', '{{ median(1, 2, 3) }}', 2);
  c.eq('test_median', '{{ median([1, 2, 3], -1) }}', 2);
  c.eq('test_median', '{{ median([], -1) }}', -1);
  c.eq('test_median', '{{ median([], default=-1) }}', -1);
  c.err('test_median', '{{ median() }}');
  c.err('test_median', '{{ median([]) }}');

  c.eq('test_statistical_mode', '{{ statistical_mode([1, 1, 2, 3]) }}', 1);
  c.eq('test_statistical_mode', '{{ statistical_mode(1, 1, 2, 3) }}', 1);
  c.eq('test_statistical_mode', '{{ statistical_mode([1, 1, 2], -1) }}', 1);
  c.eq('test_statistical_mode', '{{ statistical_mode([], -1) }}', -1);
  c.eq('test_statistical_mode', '{{ statistical_mode([], default=-1) }}', -1);
  c.err('test_statistical_mode', '{{ statistical_mode() }}');
  c.err('test_statistical_mode', '{{ statistical_mode([]) }}');

  c.eq('test_min_max_functions', '{{ min([1, 2, 3]) }}', 1);
  c.eq('test_min_max_functions', '{{ min(1, 2, 3) }}', 1);
  c.eq('test_min_max_functions', '{{ max([1, 2, 3]) }}', 3);
  c.eq('test_min_max_functions', '{{ max(1, 2, 3) }}', 3);
  c.err('test_min_max_functions', '{{ min() }}');
  c.err('test_min_max_functions', '{{ max() }}');

  c.eq('test_bitwise_and', '{{ bitwise_and(8, 2) }}', 0);
  c.eq('test_bitwise_and', '{{ bitwise_and(10, 2) }}', 2);
  c.eq('test_bitwise_and', '{{ bitwise_and(8, 8) }}', 8);
  c.eq('test_bitwise_or', '{{ bitwise_or(8, 2) }}', 10);
  c.eq('test_bitwise_or', '{{ bitwise_or(8, 8) }}', 8);
  c.eq('test_bitwise_or', '{{ bitwise_or(10, 2) }}', 10);
  c.eq('test_bitwise_xor', '{{ bitwise_xor(8, 2) }}', 10);
  c.eq('test_bitwise_xor', '{{ bitwise_xor(8, 8) }}', 0);
  c.eq('test_bitwise_xor', '{{ bitwise_xor(10, 2) }}', 8);

  const objects: [string, string, Record<string, unknown>][] = [
    [
      'test.object',
      'test',
      {
        objects: [
          { a: 1, b: 2, c: 3 },
          { a: 2, b: 1, c: 2 },
          { a: 3, b: 3, c: 1 },
        ],
      },
    ],
  ];
  for (const attribute of ['a', 'b', 'c']) {
    const extra = { states: objects };
    c.eq('test_min_max_attribute', `{{ (state_attr('test.object', 'objects') | min(attribute='${attribute}'))['${attribute}']}}`, 1, extra);
    c.eq('test_min_max_attribute', `{{ (min(state_attr('test.object', 'objects'), attribute='${attribute}'))['${attribute}']}}`, 1, extra);
    c.eq('test_min_max_attribute', `{{ (state_attr('test.object', 'objects') | max(attribute='${attribute}'))['${attribute}']}}`, 3, extra);
    c.eq('test_min_max_attribute', `{{ (max(state_attr('test.object', 'objects'), attribute='${attribute}'))['${attribute}']}}`, 3, extra);
  }

  c.eq('test_clamp', '{{ clamp(15, 0, 10) }}', 10.0);
  c.eq('test_clamp', '{{ -5 | clamp(0, 10) }}', 0.0);
  for (const [args, out] of [
    ['5, 0, 10', 5],
    ['-5, 0, 10', 0],
    ['0, 0, 10', 0],
    ['10, 0, 10', 10],
    ['5.5, 0.5, 10.5', 5.5],
    ['0.25, 0.5, 10.5', 0.5],
    ['11.0, 0.5, 10.5', 10.5],
    ['-15, -10, -1', -10],
    ['0, -10, -1', -1],
    ['5, 10, 10', 10],
  ] as const)
    c.eq('test_clamp', `{{ clamp(${args}) }}`, out);
  for (const t of ["{{ clamp('invalid', 0, 10) }}", "{{ clamp(5, 'invalid', 10) }}", "{{ clamp(5, 0, 'invalid') }}"])
    c.err('test_clamp', t);

  c.eq('test_wrap', '{{ wrap(15, 0, 10) }}', 5.0);
  c.eq('test_wrap', '{{ -5 | wrap(0, 10) }}', 5.0);
  for (const [args, out] of [
    ['5, 0, 10', 5],
    ['10, 0, 10', 0],
    ['25, 0, 10', 5],
    ['-10, 0, 10', 0],
    ['370, 0, 360', 10],
    ['-10, 0, 360', 350],
    ['720, 0, 360', 0],
    ['361, 0, 360', 1],
    ['10.5, 0, 10', 0.5],
    ['370.5, 0, 360', 10.5],
    ['-15, -10, 0', -5],
    ['5, -10, 0', -5],
    ['25, 10, 20', 15],
    ['5, 10, 20', 15],
    ['5, 10, 10', 10],
  ] as const)
    c.eq('test_wrap', `{{ wrap(${args}) }}`, out);
  for (const t of ["{{ wrap('invalid', 0, 10) }}", "{{ wrap(5, 'invalid', 10) }}", "{{ wrap(5, 0, 'invalid') }}"]) c.err('test_wrap', t);

  c.add('test_remap', '{{ remap(5, 0, 6, 0, 740, steps=10) }}', { truthy: true });
  c.add('test_remap', '{{ 50 | remap(0, 100, 0, 10, steps=8) }}', { truthy: true });
  for (const [args, out] of [
    ['5, 0, 10, 0, 100', 50],
    ['25, 0, 100, 0, 10', 2.5],
    ['0, -10, 10, 0, 100', 50],
    ['5, 0, 10, 100, 0', 50],
    ["15, 0, 10, 0, 100, edges='none'", 150],
    ["15, 0, 10, 0, 80, edges='clamp'", 80],
    ["-5, 0, 10, -1, 1, edges='clamp'", -1],
    ["15, 0, 10, 0, 100, edges='wrap'", 50],
    ["-5, 0, 10, 0, 100, edges='wrap'", 50],
    ['50, 0, 100, 32, 212', 122],
    ["80, 0, 60, 0, 360, edges='wrap'", 120],
    ['50, 0, 100, 0, 255', 127.5],
    ['5.3, 0, 10, 0, 100, steps=10', 50],
    ['2.5, 0, 10, 0, 100, steps=10', 20],
    ['2.6, 0, 10, 0, 100, steps=10', 30],
    ['7.5, 0, 10, 0, 100, steps=4', 75],
    ['6, 0, 10, 0, 100, steps=2', 50],
    ['5, 0, 10, 0, 100, steps=1', 0],
    ['6, 0, 10, 0, 100, steps=1', 100],
    ['4.8, 0, 10, 100, 0, steps=4', 50],
    ['2.7, 0, 10, 0, 100, steps=0', 27],
    ["15, 0, 10, 50, 150, edges='mirror'", 100],
    ["25, 0, 10, 50, 150, edges='mirror'", 100],
    ["12, 0, 10, 100, 0, edges='mirror'", 20],
  ] as const)
    c.eq('test_remap', `{{ remap(${args}) }}`, out);
  for (const t of [
    '{{ remap(5, 10, 10, 0, 100) }}',
    "{{ remap('invalid', 0, 10, 0, 100) }}",
    "{{ remap(5, 'invalid', 10, 0, 100) }}",
    "{{ remap(5, 0, 'invalid', 0, 100) }}",
    "{{ remap(5, 0, 10, 'invalid', 100) }}",
    "{{ remap(5, 0, 10, 0, 'invalid') }}",
  ])
    c.err('test_remap', t);

  const temperature: [string, string][] = [['sensor.temperature', '12.78']];
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1) }}', 12.8, { states: temperature });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | multiply(10) | round }}', 128, { states: temperature });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "floor") }}', 12.7, { states: temperature });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "ceil") }}', 12.8, { states: temperature });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "half") }}', 13.0, { states: temperature });
  c.err('test_rounding_value_on_error', '{{ None | round }}');
  c.err('test_rounding_value_on_error', '{{ "no_number" | round }}');
  c.eq('test_rounding_value_on_error', "{{ 'no_number' | round(default=1) }}", 1);

  c.eq('test_multiply', '{{ 10 | multiply(10) | round }}', 100);
  c.err('test_multiply', '{{ abcd | multiply(10) }}');
  c.eq('test_multiply', "{{ 'no_number' | multiply(10, 1) }}", 1);
  c.eq('test_multiply', "{{ 'no_number' | multiply(10, default=1) }}", 1);
  c.eq('test_add', '{{ 10 | add(32) | round }}', 42);
  c.err('test_add', '{{ abcd | add(10) }}');
  c.eq('test_add', "{{ 'no_number' | add(10, 1) }}", 1);
  c.eq('test_add', "{{ 'no_number' | add(10, default=1) }}", 1);
});
