import { casesOf } from './types.js';

/** tests/helpers/template/extensions/test_type_cast.py (bytes variables skipped). */
export const TYPE_CAST = casesOf('extensions/test_type_cast.py', '6b8fa5790cd3c14034c1c80c3afa76ecb2be12b4', (c) => {
  const t12: [string, string][] = [['sensor.temperature', '12']];
  c.eq('test_float_function', '{{ float(states.sensor.temperature.state) }}', 12.0, { states: t12 });
  c.eq('test_float_function', '{{ float(states.sensor.temperature.state) > 11 }}', true, { states: t12 });
  c.err('test_float_function', "{{ float('forgiving') }}");
  c.eq('test_float_function', "{{ float('bad', 1) }}", 1);
  c.eq('test_float_function', "{{ float('bad', default=1) }}", 1);
  c.eq('test_float_filter', '{{ states.sensor.temperature.state | float }}', 12.0, { states: t12 });
  c.eq('test_float_filter', '{{ states.sensor.temperature.state | float > 11 }}', true, { states: t12 });
  c.err('test_float_filter', "{{ 'bad' | float }}");
  c.eq('test_float_filter', "{{ 'bad' | float(1) }}", 1);
  c.eq('test_float_filter', "{{ 'bad' | float(default=1) }}", 1);
  const t122: [string, string][] = [['sensor.temperature', '12.2']];
  const hex: [string, string][] = [['sensor.temperature', '0x10']];
  c.eq('test_int_filter', '{{ states.sensor.temperature.state | int }}', 12, { states: t122 });
  c.eq('test_int_filter', '{{ states.sensor.temperature.state | int > 11 }}', true, { states: t122 });
  c.eq('test_int_filter', '{{ states.sensor.temperature.state | int(base=16) }}', 16, { states: hex });
  c.err('test_int_filter', "{{ 'bad' | int }}");
  c.eq('test_int_filter', "{{ 'bad' | int(1) }}", 1);
  c.eq('test_int_filter', "{{ 'bad' | int(default=1) }}", 1);
  c.eq('test_int_function', '{{ int(states.sensor.temperature.state) }}', 12, { states: t122 });
  c.eq('test_int_function', '{{ int(states.sensor.temperature.state) > 11 }}', true, { states: t122 });
  c.eq('test_int_function', '{{ int(states.sensor.temperature.state, base=16) }}', 16, { states: hex });
  c.err('test_int_function', "{{ int('bad') }}");
  c.eq('test_int_function', "{{ int('bad', 1) }}", 1);
  c.eq('test_int_function', "{{ int('bad', default=1) }}", 1);
  for (const [form, tpl] of [
    ['test_bool_function', (v: string, d = '') => `{{ bool(${v}${d === '' ? '' : `, ${d}`}) }}`],
    ['test_bool_filter', (v: string, d = '') => `{{ ${v} | bool${d === '' ? '' : `(${d})`} }}`],
  ] as const) {
    c.eq(form, tpl('true'), true);
    c.eq(form, tpl('false'), false);
    c.eq(form, tpl("'on'"), true);
    c.eq(form, tpl("'off'"), false);
    c.err(form, tpl("'unknown'"));
    c.err(form, tpl('none'));
    c.eq(form, tpl("'unavailable'", 'none'), null);
    c.eq(form, tpl("'unavailable'", 'default=none'), null);
  }
  for (const [value, expected] of [
    [0, true],
    ['0', true],
    ['0.0', true],
    [true, true],
    [false, true],
    ['True', false],
    ['False', false],
    [null, false],
    ['None', false],
    ['horse', false],
    [Math.PI, true],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['nan', false],
    ['inf', false],
  ] as const) {
    c.eq('test_isnumber', '{{ is_number(value) }}', expected, { vars: { value } });
    c.eq('test_isnumber', '{{ value | is_number }}', expected, { vars: { value } });
    c.eq('test_isnumber', '{{ value is is_number }}', expected, { vars: { value } });
  }
  for (const [value, expected] of [
    ['hello', true],
    [42, false],
    [[1, 2], false],
    [null, false],
  ] as const)
    c.eq('test_string_like', '{{ value is string_like }}', expected, { vars: { value } });
});

/** tests/helpers/template/extensions/test_string.py */
export const STRING = casesOf('extensions/test_string.py', '19f50562e3565b35ad350660d88700cf0e303c89', (c) => {
  for (const [value, expected] of [
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [5, '5th'],
    [12, '12th'],
    [100, '100th'],
    [101, '101st'],
  ] as const)
    c.eq('test_ordinal', `{{ ${value} | ordinal }}`, expected);
  c.eq('test_slugify', '{{ slugify("Home Assistant") }}', 'home_assistant');
  c.eq('test_slugify', '{{ "Home Assistant" | slugify }}', 'home_assistant');
  c.eq('test_slugify', '{{ slugify("Home Assistant", "-") }}', 'home-assistant');
  c.eq('test_slugify', '{{ "Home Assistant" | slugify("-") }}', 'home-assistant');
  c.eq('test_urlencode', "{% set dict = {'foo': 'x&y', 'bar': 42} %}{{ dict | urlencode }}", 'foo=x%26y&bar=42');
  c.eq(
    'test_urlencode',
    "{% set string = 'the quick brown fox = true' %}{{ string | urlencode }}",
    'the%20quick%20brown%20fox%20%3D%20true',
  );
  c.eq('test_string_functions_with_non_string_input', '{{ 42 | ordinal }}', '42nd');
  c.add('test_string_functions_with_non_string_input', '{{ 123 | slugify }}', { oneOf: ['123', 123] });
  for (const [value, expected] of [
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [111, '111th'],
    [112, '112th'],
    [113, '113th'],
    [21, '21st'],
    [22, '22nd'],
    [23, '23rd'],
    [121, '121st'],
    [122, '122nd'],
    [123, '123rd'],
  ] as const)
    c.eq('test_ordinal_edge_cases', `{{ ${value} | ordinal }}`, expected);
  for (const [text, separator, expected] of [
    ['Hello World', '_', 'hello_world'],
    ['Hello World', '-', 'hello-world'],
    ['Hello World', '.', 'hello.world'],
    ['Hello-World_Test', '~', 'hello~world~test'],
  ] as const) {
    c.eq('test_slugify_various_separators', `{{ slugify("${text}", "${separator}") }}`, expected);
    c.eq('test_slugify_various_separators', `{{ "${text}" | slugify("${separator}") }}`, expected);
  }
  c.add('test_urlencode_various_types', "{% set data = {'key': 'value with spaces', 'num': 123} %}{{ data | urlencode }}", {
    contains: ['key=value+with+spaces', 'num=123'],
  });
  c.eq('test_urlencode_various_types', "{% set data = {'special': 'a+b=c&d'} %}{{ data | urlencode }}", 'special=a%2Bb%3Dc%26d');
});

/** tests/helpers/template/extensions/test_regex.py */
export const REGEX = casesOf('extensions/test_regex.py', '1fd38242c0eb3e6cab827142dd4ecb8f760179b3', (c) => {
  c.eq('test_regex_match', "{{ '123-456-7890' | regex_match('(\\\\d{3})-(\\\\d{3})-(\\\\d{4})') }}", true);
  c.eq('test_regex_match', "{{ 'Home Assistant test' | regex_match('home', True) }}", true);
  c.eq('test_regex_match', "{{ 'Another Home Assistant test'|regex_match('Home') }}", false);
  c.eq('test_regex_match', "{{ ['Home Assistant test'] | regex_match('.*Assist') }}", true);
  c.eq('test_match_test', "{{ '123-456-7890' is match('(\\\\d{3})-(\\\\d{3})-(\\\\d{4})') }}", true);
  c.eq('test_regex_search', "{{ '123-456-7890' | regex_search('(\\\\d{3})-(\\\\d{3})-(\\\\d{4})') }}", true);
  c.eq('test_regex_search', "{{ 'Home Assistant test' | regex_search('home', True) }}", true);
  c.eq('test_regex_search', "    {{ 'Another Home Assistant test' | regex_search('Home') }}", true);
  c.eq('test_regex_search', "{{ ['Home Assistant test'] | regex_search('Assist') }}", true);
  c.eq('test_search_test', "{{ '123-456-7890' is search('(\\\\d{3})-(\\\\d{3})-(\\\\d{4})') }}", true);
  c.eq('test_regex_replace', "{{ 'Hello World' | regex_replace('(Hello\\\\s)',) }}", 'World');
  c.eq('test_regex_replace', "{{ ['Home hinderant test'] | regex_replace('hinder', 'Assist') }}", ['Home Assistant test']);
  c.eq('test_regex_findall', "{{ 'Flight from JFK to LHR' | regex_findall('([A-Z]{3})') }}", ['JFK', 'LHR']);
  c.eq('test_regex_findall_index', "{{ 'Flight from JFK to LHR' | regex_findall_index('([A-Z]{3})', 0) }}", 'JFK');
  c.eq('test_regex_findall_index', "{{ 'Flight from JFK to LHR' | regex_findall_index('([A-Z]{3})', 1) }}", 'LHR');
  c.eq('test_regex_ignorecase_parameter', "{{ 'TEST' | regex_match('test', True) }}", true);
  c.eq('test_regex_ignorecase_parameter', "{{ 'TEST STRING' | regex_search('test', True) }}", true);
  c.eq('test_regex_ignorecase_parameter', "{{ 'TEST' | regex_replace('test', 'replaced', True) }}", 'replaced');
  c.eq('test_regex_ignorecase_parameter', "{{ 'TEST test Test' | regex_findall('test', True) }}", ['TEST', 'test', 'Test']);
  c.eq('test_regex_with_non_string_input', "{{ 12345 | regex_match('\\\\d+') }}", true);
  c.eq('test_regex_with_non_string_input', "{{ [1, 2, 3] | regex_search('\\\\d') }}", true);
  c.eq('test_regex_edge_cases', "{{ '' | regex_match('.*') }}", true);
  c.err('test_regex_edge_cases', "{{ 'test' | regex_findall_index('t', 5) }}");
  c.err('test_regex_edge_cases', "{{ 'test' | regex_match('[') }}");
  c.eq('test_regex_groups_and_replacement_patterns', "{{ 'John Doe' | regex_replace('(\\\\w+) (\\\\w+)', '\\\\2, \\\\1') }}", 'Doe, John');
  c.add(
    'test_regex_groups_and_replacement_patterns',
    "{{ 'Email: test@example.com, Phone: 123-456-7890' | regex_findall('(\\\\w+@\\\\w+\\\\.\\\\w+)|(\\\\d{3}-\\\\d{3}-\\\\d{4})') }}",
    { length: 2 },
  );
});

/** tests/helpers/template/extensions/test_serialization.py (bytes variables and str subclasses skipped). */
export const SERIALIZATION = casesOf('extensions/test_serialization.py', '15e5babadcdc0c672dd3d5082047a21e952e3a8f', (c) => {
  c.eq('test_to_json', "{{ {'Foo': 'Bar'} | to_json }}", { Foo: 'Bar' });
  c.text('test_to_json', "{{ {'Foo': 'Bar'} | to_json(pretty_print=True) }}", '{\n  "Foo": "Bar"\n}');
  c.text('test_to_json', "{{ {'Z': 26, 'A': 1, 'M': 13} | to_json(sort_keys=True) }}", '{"A":1,"M":13,"Z":26}');
  c.err('test_to_json', "{{ {'Foo': now()} | to_json }}");
  c.eq('test_to_json_ensure_ascii', "{{ 'Bar ҝ éèà' | to_json(ensure_ascii=True) }}", '"Bar \\u049d \\u00e9\\u00e8\\u00e0"');
  c.eq('test_to_json_ensure_ascii', "{{ 'Bar ҝ éèà' | to_json(ensure_ascii=False) }}", '"Bar ҝ éèà"');
  c.text('test_to_json_ensure_ascii', "{{ {'Foo': 'Bar'} | to_json(pretty_print=True, ensure_ascii=True) }}", '{\n  "Foo": "Bar"\n}');
  c.text(
    'test_to_json_ensure_ascii',
    "{{ {'Z': 26, 'A': 1, 'M': 13} | to_json(sort_keys=True, ensure_ascii=True) }}",
    '{"A": 1, "M": 13, "Z": 26}',
  );
  c.eq('test_from_json', '{{ (\'{"Foo": "Bar"}\' | from_json).Foo }}', 'Bar');
  c.err('test_from_json', "{{ 'garbage string' | from_json }}", { error: 'no default was specified' });
  c.eq('test_from_json', "{{ 'garbage string' | from_json('Bar') }}", 'Bar');
  c.text('test_from_hex', "{{ '0F010003' | from_hex }}", "b'\\x0f\\x01\\x00\\x03'");
  c.text('test_pack', "{{ value | pack('>I') }}", "b'\\xde\\xad\\xbe\\xef'", { vars: { value: 0xdeadbeef } });
  c.text('test_pack', "{{ pack(value, '>I') }}", "b'\\xde\\xad\\xbe\\xef'", { vars: { value: 0xdeadbeef } });
  c.eq('test_pack', "{{ pack(value, '>I') }}", null, { vars: { value: null } });
  c.eq('test_pack', "{{ pack(value, 'invalid filter') }}", null, { vars: { value: 0xdeadbeef } });
  // test_unpack's input is a bytes variable; the same values come from from_hex here.
  c.eq('test_unpack', "{{ 'deadbeef' | from_hex | unpack('>I') }}", 0xdeadbeef);
  c.eq('test_unpack', "{{ unpack('deadbeef' | from_hex, '>I') }}", 0xdeadbeef);
  c.eq('test_unpack', "{{ unpack('deadbeef' | from_hex, '>H', offset=2) }}", 0xbeef);
  c.eq('test_unpack', "{{ unpack('' | from_hex, '>I') }}", null);
  c.eq('test_unpack', "{{ unpack('' | from_hex, 'invalid filter') }}", null);
});

/** tests/helpers/template/extensions/test_base64.py */
export const BASE64 = casesOf('extensions/test_base64.py', '569aeb6ddfc860f9761ed9f769d5eda429e41e07', (c) => {
  c.eq('test_base64_encode', '{{ "homeassistant" | base64_encode }}', 'aG9tZWFzc2lzdGFudA==');
  c.eq('test_base64_encode', "{{ int('0F010003', base=16) | pack('>I') | base64_encode }}", 'DwEAAw==');
  c.eq('test_base64_encode', "{{ 'AA01000200150020' | from_hex | base64_encode }}", 'qgEAAgAVACA=');
  c.eq('test_base64_decode', '{{ "aG9tZWFzc2lzdGFudA==" | base64_decode }}', 'homeassistant');
  c.text('test_base64_decode', '{{ "aG9tZWFzc2lzdGFudA==" | base64_decode(None) }}', "b'homeassistant'");
  c.eq('test_base64_decode', '{{ "aG9tZWFzc2lzdGFudA==" | base64_decode("ascii") }}', 'homeassistant');
});

/** tests/helpers/template/test_states.py */
export const STATES = casesOf('test_states.py', '114469aee56f46eb47d5825a16446661b90b2541', (c) => {
  c.err('test_invalid_entity_id', '{{ states["big.fat..."] }}');
  c.err('test_invalid_entity_id', '{{ states.test["big.fat..."] }}');
  c.err('test_invalid_entity_id', '{{ states["invalid/domain"] }}');
  const three: [string, string][] = [
    ['sensor.test', '23'],
    ['sensor.test2', 'wow'],
    ['climate.test2', 'cooling'],
  ];
  c.eq('test_length_of_states', '{{ states | length }}', 3, { states: three });
  c.eq('test_length_of_states', '{{ states.sensor | length }}', 2, { states: three });
  c.eq(
    'test_slice_states',
    '{% for states in states | slice(1) -%}{% set state = states | first %}{{ state.entity_id }}{%- endfor %}',
    'sensor.test',
    {
      states: [['sensor.test', '23']],
    },
  );
  const test23: [string, string][] = [['sensor.test', '23']];
  c.eq('test_state_attributes', '{{ states.sensor.test.object_id }}', 'test', { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.domain }}', 'sensor', { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.state_with_unit }}', 23, { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.invalid_prop }}', '', { states: test23 });
  c.err('test_state_attributes', '{{ states.sensor.test.invalid_prop.xx }}', { states: test23 });
});

/** tests/helpers/template/extensions/test_functional.py: the cases not also in test_init.py. */
export const FUNCTIONAL = casesOf('extensions/test_functional.py', '14df9f1e482447fb8394f49486e84a06b050f47a', (c) => {
  c.eq('test_ord', '{{ "d" | ord }}', 100);
  c.eq('test_apply', "{{ ['1', '2', '3', '4', '5'] | map('apply', int) | list }}", [1, 2, 3, 4, 5]);
  c.eq('test_iif', "{{ iif(1 == 2, 'yes', 'no') }}", 'no');
  c.eq('test_typeof', "{{ typeof('Home Assistant') }}", 'str');
});

/** tests/helpers/template/extensions/test_crypto.py */
export const CRYPTO = casesOf('extensions/test_crypto.py', '1fd38242c0eb3e6cab827142dd4ecb8f760179b3', (c) => {
  for (const [fn, digest] of [
    ['md5', '3d15e5c102c3413d0337393c3287e006'],
    ['sha1', 'c8fd3bb19b94312664faa619af7729bdbf6e9f8a'],
    ['sha256', '2a366abb0cd47f51f3725bf0fb7ebcb4fefa6e20f4971e25fe2bb8da8145ce2b'],
    [
      'sha512',
      '9e3c2cdd1fbab0037378d37e1baf8a3a4bf92c54b56ad1d459deee30ccbb2acbebd7a3614552ea08992ad27dedeb7b4c5473525ba90cb73dbe8b9ec5f69295bb',
    ],
  ] as const) {
    c.eq(`test_${fn}`, `{{ ${fn}('Home Assistant') }}`, digest);
    c.eq(`test_${fn}`, `{{ 'Home Assistant' | ${fn} }}`, digest);
  }
});

/** tests/helpers/template/extensions/test_version.py */
export const VERSION = casesOf('extensions/test_version.py', '14df9f1e482447fb8394f49486e84a06b050f47a', (c) => {
  c.eq('test_version', "{{ '2099.9.9' | version}}", '2099.9.9');
  c.eq('test_version', "{{ version('2099.9.9')}}", '2099.9.9');
  c.eq('test_version', "{{ '2099.9.9' | version < '2099.9.10' }}", true);
  c.eq('test_version', "{{ version('2099.9.9') < '2099.9.10' }}", true);
  c.eq('test_version', "{{ '2099.9.9' | version == '2099.9.9' }}", true);
  c.eq('test_version', "{{ version('2099.9.9') == '2099.9.9' }}", true);
  c.err('test_version', "{{ version(None) < '2099.9.10' }}");
});
