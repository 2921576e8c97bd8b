import { casesOf } from './types.js';

/** The home of HA's test instance (tests/common.py): closest() and distance() measure from here. */
const LAT = 32.87336;
const LON = -117.22743;
type S = [string, string, Record<string, unknown>?][];

/** tests/helpers/template/test_init.py */
export const INIT = casesOf('test_init.py', '073d0ec417c6dd6d1bd380d7c6516bab724765e7', (c) => {
  c.err('test_invalid_template', '{{');
  c.err('test_invalid_template', '{{states(keyword)}}');
  const happy: S = [['test.object', 'happy']];
  c.eq('test_referring_states_by_entity_id', '{{ states.test.object.state }}', 'happy', { states: happy });
  c.eq('test_referring_states_by_entity_id', '{{ states["test.object"].state }}', 'happy', { states: happy });
  c.eq('test_referring_states_by_entity_id', '{{ states("test.object") }}', 'happy', { states: happy });
  c.err('test_invalid_entity_id', '{{ states["big.fat..."] }}');
  c.err('test_invalid_entity_id', '{{ states.test["big.fat..."] }}');
  c.err('test_invalid_entity_id', '{{ states["invalid/domain"] }}');
  c.err('test_raise_exception_on_error', '{{ invalid_syntax');
  const sortedAll = "{% for state in states | sort(attribute='entity_id') %}{{ state.state }}{% endfor %}";
  c.eq('test_iterating_all_states', sortedAll, '');
  c.eq('test_iterating_all_states', sortedAll, '10happy', {
    states: [
      ['test.object', 'happy'],
      ['sensor.temperature', '10'],
    ],
  });
  c.eq(
    'test_iterating_all_states_unavailable',
    "{{  states  | selectattr('state', 'in', ['unavailable', 'unknown', 'none'])  | list  | count}}",
    1,
    {
      states: [
        ['test.object', 'unknown'],
        ['sensor.temperature', '10'],
      ],
    },
  );
  const domainLoop = '{% for state in states.sensor %}{{ state.state }}{% endfor %}';
  c.eq('test_iterating_domain_states', domainLoop, '');
  c.eq('test_iterating_domain_states', domainLoop, 'open10', {
    states: [
      ['test.object', 'happy'],
      ['sensor.back_door', 'open'],
      ['sensor.temperature', '10'],
    ],
  });
  c.eq(
    'test_loop_controls',
    `
    {%- for v in range(10) %}
        {%- if v == 1 -%}
            {%- continue -%}
        {%- elif v == 3 -%}
            {%- break -%}
        {%- endif -%}
        {{ v }}
    {%- endfor -%}
    `,
    '02',
  );
  const t1278: S = [['sensor.temperature', '12.78']];
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1) }}', 12.8, { states: t1278 });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | multiply(10) | round }}', 128, { states: t1278 });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "floor") }}', 12.7, { states: t1278 });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "ceil") }}', 12.8, { states: t1278 });
  c.eq('test_rounding_value', '{{ states.sensor.temperature.state | round(1, "half") }}', 13.0, { states: t1278 });
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

  c.eq(
    'test_apply',
    `
    {%- macro add_foo(arg) -%}
    {{arg}}foo
    {%- endmacro -%}
    {{ ["a", "b", "c"] | map('apply', add_foo) | list }}
    `,
    ['afoo', 'bfoo', 'cfoo'],
  );
  c.eq('test_apply', "{{ ['1', '2', '3', '4', '5'] | map('apply', int) | list }}", [1, 2, 3, 4, 5]);
  c.eq(
    'test_apply_macro_with_arguments',
    `
                {%- macro add_numbers(a, b, c) -%}
                {{ a + b + c }}
                {%- endmacro -%}
                {{ apply(5, add_numbers, 10, 15) }}
                `,
    30,
  );
  c.eq(
    'test_apply_macro_with_arguments',
    `
                {%- macro greet(name, greeting="Hello") -%}
                {{ greeting }}, {{ name }}!
                {%- endmacro -%}
                {{ apply("World", greet, greeting="Hi") }}
                `,
    'Hi, World!',
  );
  c.eq(
    'test_apply_macro_with_arguments',
    `
                {%- macro format_message(prefix, name, suffix="!") -%}
                {{ prefix }} {{ name }}{{ suffix }}
                {%- endmacro -%}
                {{ apply("Welcome", format_message, "John", suffix="...") }}
                `,
    'Welcome John...',
  );
  c.eq(
    'test_as_function',
    `
        {%- macro macro_double(num, returns) -%}
        {%- do returns(num * 2) -%}
        {%- endmacro -%}
        {%- set double = macro_double | as_function -%}
        {{ double(5) }}
        `,
    10,
  );
  c.eq(
    'test_as_function_no_arguments',
    `
        {%- macro macro_get_hello(returns) -%}
        {%- do returns("Hello") -%}
        {%- endmacro -%}
        {%- set get_hello = macro_get_hello | as_function -%}
        {{ get_hello() }}
        `,
    'Hello',
  );
  c.eq('test_ord', '{{ "d" | ord }}', 100);
  c.eq('test_passing_vars_as_keywords', '{{ hello }}', 127, { vars: { hello: 127 } });
  c.eq('test_passing_vars_as_vars', '{{ hello }}', 127, { vars: { hello: 127 } });
  c.eq('test_passing_vars_as_list', '{{ hello }}', ['foo', 'bar'], { vars: { hello: ['foo', 'bar'] } });
  c.eq('test_passing_vars_as_list_element', '{{ hello[1] }}', 'bar', { vars: { hello: ['foo', 'bar'] } });
  c.eq('test_passing_vars_as_dict_element', '{{ hello.foo }}', 'bar', { vars: { hello: { foo: 'bar' } } });
  c.eq('test_passing_vars_as_dict', '{{ hello }}', { foo: 'bar' }, { vars: { hello: { foo: 'bar' } } });

  const available: S = [['test.object', 'available']];
  c.eq('test_if_state_exists', '{% if states.test.object %}exists{% else %}not exists{% endif %}', 'exists', { states: available });
  c.eq('test_is_state', '{% if is_state("test.object", "available") %}yes{% else %}no{% endif %}', 'yes', { states: available });
  c.eq('test_is_state', '{{ is_state("test.noobject", "available") }}', false, { states: available });
  c.eq('test_is_state', '{% if "test.object" is is_state("available") %}yes{% else %}no{% endif %}', 'yes', { states: available });
  c.eq('test_is_state', '{{ [\'test.object\'] | select("is_state", "available") | first | default }}', 'test.object', {
    states: available,
  });
  c.eq('test_is_state', '{{ is_state("test.object", ["on", "off", "available"]) }}', true, { states: available });
  const modeOn: S = [['test.object', 'available', { mode: 'on', exists: null }]];
  c.eq('test_is_state_attr', '{% if is_state_attr("test.object", "mode", "on") %}yes{% else %}no{% endif %}', 'yes', { states: modeOn });
  c.eq('test_is_state_attr', '{{ is_state_attr("test.noobject", "mode", "on") }}', false, { states: modeOn });
  c.eq('test_is_state_attr', '{% if "test.object" is is_state_attr("mode", "on") %}yes{% else %}no{% endif %}', 'yes', {
    states: modeOn,
  });
  c.eq('test_is_state_attr', '{{ [\'test.object\'] | select("is_state_attr", "mode", "on") | first | default }}', 'test.object', {
    states: modeOn,
  });
  c.eq('test_is_state_attr', '{% if is_state_attr("test.object", "exists", None) %}yes{% else %}no{% endif %}', 'yes', {
    states: modeOn,
  });
  c.eq('test_is_state_attr', '{% if is_state_attr("test.object", "noexist", None) %}yes{% else %}no{% endif %}', 'no', {
    states: modeOn,
  });
  const effect: S = [['test.object', 'available', { effect: 'action', mode: 'on' }]];
  c.eq('test_state_attr', '{% if state_attr("test.object", "mode") == "on" %}yes{% else %}no{% endif %}', 'yes', { states: effect });
  c.eq('test_state_attr', '{{ state_attr("test.noobject", "mode") == None }}', true, { states: effect });
  c.eq('test_state_attr', '{% if "test.object" | state_attr("mode") == "on" %}yes{% else %}no{% endif %}', 'yes', { states: effect });
  c.eq('test_state_attr', '{{ [\'test.object\'] | map("state_attr", "effect") | first | default }}', 'action', { states: effect });
  c.eq('test_states_function', '{{ states("test.object") }}', 'available', { states: available });
  c.eq('test_states_function', '{{ states("test.object2") }}', 'unknown', { states: available });
  c.eq('test_states_function', '{% if "test.object" | states == "available" %}yes{% else %}no{% endif %}', 'yes', { states: available });
  c.eq('test_states_function', '{{ [\'test.object\'] | map("states") | first | default }}', 'available', { states: available });

  const values: S = [
    ['test.value1', '1'],
    ['test.unavailable', 'unavailable'],
  ];
  c.eq('test_has_value', '{{ has_value("test.value1") }}', true, { states: values });
  c.eq('test_has_value', '{{ has_value("test.unavailable") }}', false, { states: values });
  c.eq('test_has_value', '{{ has_value("test.unknown") }}', false, { states: values });
  c.eq('test_has_value', '{% if "test.value1" is has_value %}yes{% else %}no{% endif %}', 'yes', { states: values });

  const y2k = { now: '2000-01-01T10:00:00+00:00' };
  c.eq('test_timedelta', '{{timedelta(seconds=120)}}', '0:02:00', y2k);
  c.eq('test_timedelta', '{{timedelta(seconds=86400)}}', '1 day, 0:00:00', y2k);
  c.eq('test_timedelta', '{{timedelta(days=1, hours=4)}}', '1 day, 4:00:00', y2k);
  c.eq('test_timedelta', '{{relative_time(now() - timedelta(seconds=3600))}}', '1 hour', y2k);
  c.eq('test_timedelta', '{{relative_time(now() - timedelta(seconds=86400))}}', '1 day', y2k);
  c.eq('test_timedelta', '{{relative_time(now() - timedelta(seconds=86401))}}', '1 day', y2k);
  c.eq('test_timedelta', '{{relative_time(now() - timedelta(weeks=2, days=1))}}', '15 days', y2k);

  c.eq('test_version', "{{ '2099.9.9' | version}}", '2099.9.9');
  c.eq('test_version', "{{ version('2099.9.9')}}", '2099.9.9');
  c.eq('test_version', "{{ '2099.9.9' | version < '2099.9.10' }}", true);
  c.eq('test_version', "{{ version('2099.9.9') < '2099.9.10' }}", true);
  c.eq('test_version', "{{ '2099.9.9' | version == '2099.9.9' }}", true);
  c.eq('test_version', "{{ version('2099.9.9') == '2099.9.9' }}", true);
  c.err('test_version', "{{ version(None) < '2099.9.10' }}");

  const object: S = [['test.object', 'happy', { latitude: 32.87336, longitude: -117.22943 }]];
  const object2: S = [['test.object_2', 'happy', { latitude: LAT, longitude: LON }]];
  c.eq('test_distance_function_with_1_state', '{{ distance(states.test.object) | round }}', 187, { states: object });
  c.eq('test_distance_function_with_2_states', '{{ distance(states.test.object, states.test.object_2) | round }}', 187, {
    states: [...object, ...object2],
  });
  c.eq('test_distance_function_with_1_coord', '{{ distance("32.87336", "-117.22943") | round }}', 187);
  c.eq('test_distance_function_with_2_coords', `{{ distance("32.87336", "-117.22943", ${LAT}, ${LON}) | round }}`, 187);
  c.eq('test_distance_function_with_1_state_1_coord', '{{ distance("32.87336", "-117.22943", states.test.object_2) | round }}', 187, {
    states: object2,
  });
  c.eq('test_distance_function_with_1_state_1_coord', '{{ distance(states.test.object_2, "32.87336", "-117.22943") | round }}', 187, {
    states: object2,
  });
  c.err('test_distance_function_return_none_if_invalid_state', '{{ distance(states.test.object_2) | round }}', {
    states: [['test.object_2', 'happy', { latitude: 10 }]],
  });
  c.eq('test_distance_function_return_none_if_invalid_coord', '{{ distance("123", "abc") }}', null);
  c.eq('test_distance_function_return_none_if_invalid_coord', '{{ distance("123") }}', null);
  c.eq('test_distance_function_return_none_if_invalid_coord', '{{ distance("123", states.test_object_2) }}', null, { states: object2 });
  c.eq('test_distance_function_with_2_entity_ids', '{{ distance("test.object", "test.object_2") | round }}', 187, {
    states: [...object, ...object2],
  });
  c.eq('test_distance_function_with_1_entity_1_coord', '{{ distance("test.object", "32.87336", "-117.22943") | round }}', 187, {
    states: [['test.object', 'happy', { latitude: LAT, longitude: LON }]],
  });

  const near = (id: string, d: number): [string, string, Record<string, unknown>] => [
    id,
    'happy',
    { latitude: LAT + d, longitude: LON + d },
  ];
  c.eq('test_closest_function_home_vs_domain', '{{ closest(states.test_domain).entity_id }}', 'test_domain.object', {
    states: [near('test_domain.object', 0.1), near('not_test_domain.but_closer', 0)],
  });
  c.eq('test_closest_function_home_vs_domain', '{{ (states.test_domain | closest).entity_id }}', 'test_domain.object', {
    states: [near('test_domain.object', 0.1), near('not_test_domain.but_closer', 0)],
  });
  c.eq('test_closest_function_home_vs_all_states', '{{ closest(states).entity_id }}', 'test_domain_2.and_closer', {
    states: [near('test_domain.object', 0.1), near('test_domain_2.and_closer', 0)],
  });
  c.eq('test_closest_function_home_vs_all_states', '{{ (states | closest).entity_id }}', 'test_domain_2.and_closer', {
    states: [near('test_domain.object', 0.1), near('test_domain_2.and_closer', 0)],
  });
  const group = (id: string, members: string[]): [string, string, Record<string, unknown>] => [id, 'unknown', { entity_id: members }];
  const groupStates: S = [
    near('test_domain.object', 0.1),
    near('not_in_group.but_closer', 0),
    group('group.location_group', ['test_domain.object']),
  ];
  c.eq('test_closest_function_home_vs_group_entity_id', '{{ closest("group.location_group").entity_id }}', 'test_domain.object', {
    states: groupStates,
  });
  c.eq('test_closest_function_home_vs_group_state', '{{ closest(states.group.location_group).entity_id }}', 'test_domain.object', {
    states: groupStates,
  });

  c.eq('test_expand', "{{ expand('test.object') }}", []);
  c.eq('test_expand', '{{ expand(56) }}', []);
  const sortIds = " | sort(attribute='entity_id') | map(attribute='entity_id') | join(', ') }}";
  c.eq('test_expand', `{{ expand('test.object')${sortIds}`, 'test.object', { states: happy });
  c.eq('test_expand', `{{ expand('group.new_group')${sortIds}`, '', { states: happy });
  c.eq('test_expand', `{{ expand(states.group)${sortIds}`, '', { states: happy });
  const newGroup: S = [...happy, group('group.new_group', ['test.object'])];
  c.eq('test_expand', `{{ expand('group.new_group')${sortIds}`, 'test.object', { states: newGroup });
  c.eq('test_expand', `{{ expand(states.group)${sortIds}`, 'test.object', { states: newGroup });
  c.eq('test_expand', `{{ expand('group.new_group', 'test.object')${sortIds}`, 'test.object', { states: newGroup });
  c.eq('test_expand', `{{ ['group.new_group', 'test.object'] | expand${sortIds}`, 'test.object', { states: newGroup });
  c.eq(
    'test_expand',
    "{{ states.group.power_sensors.attributes.entity_id | expand | sort(attribute='entity_id') | map(attribute='state')|map('float')|sum  }}",
    200.2 + 400.4,
    {
      states: [
        ['sensor.power_1', '0'],
        ['sensor.power_2', '200.2'],
        ['sensor.power_3', '400.4'],
        group('group.power_sensors', ['sensor.power_1', 'sensor.power_2', 'sensor.power_3']),
      ],
    },
  );
  c.eq('test_expand', `{{ expand('light.grouped')${sortIds}`, 'light.first, light.second', {
    states: [['light.first', 'on'], ['light.second', 'off'], group('light.grouped', ['light.first', 'light.second'])],
  });

  const closestStates: S = [
    near('test_domain.closest_home', 0.1),
    near('test_domain.closest_zone', 0.2),
    ['zone.far_away', 'zoning', { latitude: LAT + 0.3, longitude: LON + 0.3 }],
  ];
  c.eq(
    'test_closest_function_to_coord',
    `{{ closest("${LAT + 0.3}", ${LON + 0.3}, states.test_domain).entity_id }}`,
    'test_domain.closest_zone',
    { states: closestStates },
  );
  c.eq(
    'test_closest_function_to_coord',
    `{{ (states.test_domain | closest("${LAT + 0.3}", ${LON + 0.3})).entity_id }}`,
    'test_domain.closest_zone',
    { states: closestStates },
  );
  c.eq('test_closest_function_to_entity_id', '{{ closest(zone, states.test_domain).entity_id }}', 'test_domain.closest_zone', {
    states: closestStates,
    vars: { zone: 'zone.far_away' },
  });
  c.eq(
    'test_closest_function_to_entity_id',
    "{{ ([states.test_domain, 'test_domain.closest_zone'] | closest(zone)).entity_id }}",
    'test_domain.closest_zone',
    { states: closestStates, vars: { zone: 'zone.far_away' } },
  );
  c.eq('test_closest_function_to_state', '{{ closest(states.zone.far_away, states.test_domain).entity_id }}', 'test_domain.closest_zone', {
    states: closestStates,
  });
  for (const state of ['states.zone.non_existing', '"zone.non_existing"']) {
    c.eq('test_closest_function_invalid_state', `{{ closest(${state}, states) }}`, null, {
      states: [near('test_domain.closest_home', 0.1)],
    });
  }
  c.eq('test_closest_function_state_with_invalid_location', '{{ closest(states.test_domain.closest_home, states) }}', null, {
    states: [['test_domain.closest_home', 'happy', { latitude: 'invalid latitude', longitude: LON + 0.1 }]],
  });
  c.eq('test_closest_function_invalid_coordinates', '{{ closest("invalid", "coord", states) }}', null, {
    states: [near('test_domain.closest_home', 0.1)],
  });
  c.eq('test_closest_function_invalid_coordinates', '{{ states | closest("invalid", "coord") }}', null, {
    states: [near('test_domain.closest_home', 0.1)],
  });
  c.eq('test_closest_function_no_location_states', '{{ closest(states).entity_id }}', '');

  const lightsAbc: S = [
    ['light.a', 'off'],
    ['light.b', 'on'],
    ['light.c', 'off'],
  ];
  c.eq(
    'test_async_render_to_info_with_branching',
    '\n{% if states.light.a == "on" %}\n  {{ states.light.b.state }}\n{% else %}\n  {{ states.light.c.state }}\n{% endif %}\n',
    'off',
    { states: lightsAbc },
  );
  c.eq(
    'test_async_render_to_info_with_branching',
    '\n            {% if states.light.a.state == "off" %}\n            {% set domain = "light" %}\n            {{ states[domain].b.state }}\n            {% endif %}\n',
    'on',
    { states: lightsAbc },
  );
  c.eq(
    'test_async_render_to_info_with_complex_branching',
    `
{% set domain = "vacuum" %}
{%      if                 states.light.a == "on" %}
  {{ states.light.b.state }}
{% elif  states.light.a == "on" %}
  {{ states.device_tracker }}
{%     elif     states.light.a == "on" %}
  {{ states[domain] | list }}
{%         elif     states('light.b') == "on" %}
  {{ states[otherdomain] | sort(attribute='entity_id') | map(attribute='entity_id') | list }}
{% elif states.light.a == "on" %}
  {{ states["nonexist"] | list }}
{% else %}
  else
{% endif %}
`,
    ['sensor.a'],
    {
      vars: { otherdomain: 'sensor' },
      states: [
        ...lightsAbc,
        ['vacuum.a', 'off'],
        ['device_tracker.a', 'off'],
        ['device_tracker.b', 'off'],
        ['lock.a', 'off'],
        ['sensor.a', 'off'],
        ['binary_sensor.a', 'off'],
      ],
    },
  );
  c.eq('test_nested_async_render_to_info_case', "{{ states[states['input_select.picker'].state].state }}", 'off', {
    states: [
      ['input_select.picker', 'vacuum.a'],
      ['vacuum.a', 'off'],
    ],
  });

  const iterators = [
    ['\n        {% for state in states %}\n        {{ state.entity_id }}\n        {% endfor %}\n        ', 'sensor.test_sensor'],
    ['\n        {% for state in states.sensor %}\n        {{ state.entity_id }}\n        {% endfor %}\n        ', 'sensor.test_sensor'],
    [
      '\n        {% for state in states.sensor %}\n        {{ state.entity_id }}={{ state.state }},\n        {% endfor %}\n        ',
      'sensor.test_sensor=off,',
    ],
    [
      '\n        {% for state in states.sensor %}\n        {{ state.entity_id }}={{ state.attributes.attr }},\n        {% endfor %}\n        ',
      'sensor.test_sensor=value,',
    ],
  ] as const;
  c.eq('test_generate_filter_iterators', iterators[0][0], '');
  c.eq('test_generate_filter_iterators', iterators[1][0], '');
  for (const [tpl, out] of iterators.slice(1))
    c.eq('test_generate_filter_iterators', tpl, out, { states: [['sensor.test_sensor', 'off', { attr: 'value' }]] });
  const select = '\n{{ states.sensor|selectattr("state","equalto","off")\n|join(",", attribute="entity_id") }}\n        ';
  c.eq('test_generate_select', select, '');
  c.eq('test_generate_select', select, 'sensor.test_sensor', {
    states: [
      ['sensor.test_sensor', 'off', { attr: 'value' }],
      ['sensor.test_sensor_on', 'on'],
    ],
  });
  c.eq('test_async_render_to_info_in_conditional', '{{ states("sensor.xyz") == "dog" }}', false);
  const conditional =
    '\n{% if states("sensor.xyz") == "dog" %}\n  {{ states("sensor.cow") }}\n{% else %}\n  {{ states("sensor.pig") }}\n{% endif %}\n        ';
  c.eq('test_async_render_to_info_in_conditional', conditional, true, {
    states: [
      ['sensor.xyz', 'dog'],
      ['sensor.cow', 'True'],
    ],
  });
  c.eq('test_async_render_to_info_in_conditional', conditional, 'oink', {
    states: [
      ['sensor.xyz', 'sheep'],
      ['sensor.cow', 'True'],
      ['sensor.pig', 'oink'],
    ],
  });
  c.eq(
    'test_jinja_namespace',
    "{% set ns = namespace(a_key='') %}{% set ns.a_key = states.sensor.dummy.state %}{{ ns.a_key }}",
    'a value',
    { states: [['sensor.dummy', 'a value']] },
  );
  c.eq(
    'test_jinja_namespace',
    "{% set ns = namespace(a_key='') %}{% set ns.a_key = states.sensor.dummy.state %}{{ ns.a_key }}",
    'another value',
    { states: [['sensor.dummy', 'another value']] },
  );
  const units: S = [
    ['sensor.test', '23', { unit_of_measurement: 'beers' }],
    ['sensor.test2', 'wow'],
  ];
  c.eq('test_state_with_unit', '{{ states.sensor.test.state_with_unit }}', '23 beers', { states: units });
  c.eq('test_state_with_unit', '{{ states.sensor.test2.state_with_unit }}', 'wow', { states: units });
  c.eq('test_state_with_unit', '{% for state in states %}{{ state.state_with_unit }} {% endfor %}', '23 beers wow', { states: units });
  c.eq('test_state_with_unit', '{{ states.sensor.non_existing.state_with_unit }}', '', { states: units });
  // test_state_with_unit_and_rounding_options: sensor.test2 has no registry entry (sensor.test's display precision is a registry option).
  for (const [rounded, withUnit, out1, out2] of [
    ['False', 'False', 23, 23.015],
    ['False', 'True', '23 beers', '23.015 beers'],
    ['True', 'False', 23, 23.015],
    ['True', 'True', '23 beers', '23.015 beers'],
  ] as const) {
    const tpl = `{{ states('sensor.test2', rounded=${rounded}, with_unit=${withUnit}) }}`;
    c.eq('test_state_with_unit_and_rounding_options', tpl, out1, { states: [['sensor.test2', '23', { unit_of_measurement: 'beers' }]] });
    c.eq('test_state_with_unit_and_rounding_options', tpl, out2, {
      states: [['sensor.test2', '23.015', { unit_of_measurement: 'beers' }]],
    });
  }
  const three: S = [
    ['sensor.test', '23'],
    ['sensor.test2', 'wow'],
    ['climate.test2', 'cooling'],
  ];
  c.eq('test_length_of_states', '{{ states | length }}', 3, { states: three });
  c.eq('test_length_of_states', '{{ states.sensor | length }}', 2, { states: three });

  c.eq('test_iif', '{{ (1 == 1) | iif }}', true);
  c.eq('test_iif', '{{ (1 == 2) | iif }}', false);
  c.eq('test_iif', "{{ (1 == 1) | iif('yes') }}", 'yes');
  c.eq('test_iif', "{{ (1 == 2) | iif('yes') }}", false);
  c.eq('test_iif', "{{ (1 == 2) | iif('yes', 'no') }}", 'no');
  c.eq('test_iif', "{{ not_exists | default(None) | iif('yes', 'no') }}", 'no');
  c.eq('test_iif', "{{ not_exists | default(None) | iif('yes', 'no', 'unknown') }}", 'unknown');
  c.eq('test_iif', '{{ iif(1 == 1) }}', true);
  c.eq('test_iif', "{{ iif(1 == 2, 'yes', 'no') }}", 'no');
  c.eq('test_cache_garbage_collection', "{% set dict = {'foo': 'x&y', 'bar': 42} %} {{ dict | urlencode }}", 'foo=x%26y&bar=42');

  c.err('test_protected_blocked', '{{ states.__getattr__("any") }}');
  c.err('test_protected_blocked', '{{ states.sensor.__getattr__("any") }}');
  c.err('test_protected_blocked', '{{ states.sensor.any.__getattr__("any") }}');

  c.add(
    'test_demo_template',
    `
{## Imitate available variables: ##}
{% set my_test_json = {
  "temperature": 25,
  "unit": "°C"
} %}

The temperature is {{ my_test_json.temperature }} {{ my_test_json.unit }}.

{% if is_state("sun.sun", "above_horizon") -%}
  The sun rose {{ relative_time(states.sun.sun.last_changed) }} ago.
{%- else -%}
  The sun will rise at {{ as_timestamp(state_attr("sun.sun", "next_rising")) | timestamp_local }}.
{%- endif %}

For loop example getting 3 entity values:

{% for states in states | slice(3) -%}
  {% set state = states | first %}
  {%- if loop.first %}The {% elif loop.last %} and the {% else %}, the {% endif -%}
  {{ state.name | lower }} is {{state.state_with_unit}}
{%- endfor %}.
`,
    {
      contains: ['The temperature is 25', 'is on', 'sensor0', 'sensor1', 'sun'],
      states: [
        ['sun.sun', 'above', { elevation: 50, next_rising: '2022-05-12T03:00:08.503651+00:00' }],
        ['sensor.sensor0', 'on'],
        ['sensor.sensor1', 'on'],
      ],
    },
  );
  c.eq(
    'test_slice_states',
    '{% for states in states | slice(1) -%}{% set state = states | first %}{{ state.entity_id }}{%- endfor %}',
    'sensor.test',
    { states: [['sensor.test', '23']] },
  );
  const tenLights: S = Array.from({ length: 10 }, (_, i) => [`light.sensor${i}`, 'on'] as [string, string]);
  c.add(
    'test_lights',
    `
          {% set lights_on = states.light|selectattr('state','eq','on')|sort(attribute='entity_id')|map(attribute='name')|list %}
          {% if lights_on|length == 0 %}
            No lights on. Sleep well..
          {% elif lights_on|length == 1 %}
            The {{lights_on[0]}} light is on.
          {% elif lights_on|length == 2 %}
            The {{lights_on[0]}} and {{lights_on[1]}} lights are on.
          {% else %}
            The {{lights_on[:-1]|join(', ')}}, and {{lights_on[-1]}} lights are on.
          {% endif %}
    `,
    { states: tenLights, contains: ['lights are on', ...tenLights.map((_, i) => `sensor${i}`)] },
  );
  c.err('test_template_errors', '{{ now() | rando }}');
  c.err('test_template_errors', '{{ utcnow() | rando }}');
  c.err('test_template_errors', '{{ now() | random }}');
  c.err('test_template_errors', '{{ utcnow() | random }}');

  const test23: S = [['sensor.test', '23']];
  c.eq('test_state_attributes', '{{ states.sensor.test.last_changed }}', '2026-01-15 12:00:00+00:00', { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.object_id }}', 'test', { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.domain }}', 'sensor', { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.state_with_unit }}', 23, { states: test23 });
  c.eq('test_state_attributes', '{{ states.sensor.test.invalid_prop }}', '', { states: test23 });
  c.err('test_state_attributes', '{{ states.sensor.test.invalid_prop.xx }}', { states: test23 });
  const unavailable: S = [...tenLights, ['light.unavailable', 'unavailable'], ['light.unknown', 'unknown'], ['light.none', 'none']];
  c.eq(
    'test_unavailable_states',
    "{{ states | selectattr('state', 'in', ['unavailable','unknown','none']) | sort(attribute='entity_id') | map(attribute='entity_id') | list | join(', ') }}",
    'light.none, light.unavailable, light.unknown',
    { states: unavailable },
  );
  c.eq(
    'test_unavailable_states',
    "{{ states.light | selectattr('state', 'in', ['unavailable','unknown','none']) | sort(attribute='entity_id') | map(attribute='entity_id') | list | join(', ') }}",
    'light.none, light.unavailable, light.unknown',
    { states: unavailable },
  );
  c.text('test_no_result_parsing', '{{ states.sensor.temperature.state }}', '12', { states: [['sensor.temperature', '12']] });
  c.text('test_no_result_parsing', '{{ false }}', 'False');
  c.text('test_no_result_parsing', '{{ [1, 2, 3] }}', '[1, 2, 3]');
  c.eq('test_is_static_still_ast_evals', '[1, 2]', [1, 2]);
  c.eq('test_result_wrappers', '[1, 2]', [1, 2]);
  c.eq('test_result_wrappers', '{1, 2}', [1, 2], { unordered: true });
  c.eq('test_result_wrappers', '(1, 2)', [1, 2]);
  c.eq('test_result_wrappers', '{"hello": True}', { hello: true });
  for (const [tpl, result] of [
    ['{{ "{{}}" }}', '{{}}'],
    ['not-something', 'not-something'],
    ['2a', '2a'],
    ['123E5', '123E5'],
    ['1j', '1j'],
    ['1e+100', '1e+100'],
    ['0xface', '0xface'],
    ['123', 123],
    ['10', 10],
    ['123.0', 123.0],
    ['.5', 0.5],
    ['0.5', 0.5],
    ['-1', -1],
    ['-1.0', -1.0],
    ['+1', 1],
    ['5.', 5.0],
    ['123_123_123', '123_123_123'],
    ['010', '010'],
    ['0011101.00100001010001', '0011101.00100001010001'],
  ] as const)
    c.eq('test_parse_result', tpl, result);
  for (const tpl of ['{{ no_such_variable }}', '{{ no_such_variable and True }}', "{{ no_such_variable | join(', ') }}"])
    c.eq('test_undefined_symbol_warnings', tpl, '');
  for (const [seq, value, expected] of [
    [[0], 0, true],
    [[1], 0, false],
    [[false], 0, true],
    [[true], 0, false],
    [[0], [0], false],
    [['toto', 1], 'toto', true],
    [['toto', 1], 'tata', false],
    [[], 0, false],
    [[], null, false],
  ] as const) {
    c.eq('test_contains', '{{ seq | contains(value) }}', expected, { vars: { seq, value } });
    c.eq('test_contains', '{{ seq is contains(value) }}', expected, { vars: { seq, value } });
  }
  c.err('test_render_to_info_with_exception', '{{ states("test_domain.object") | float }}', {
    error: 'no default was specified',
    states: [['test_domain.object', 'dog']],
  });
  c.err('test_template_output_exceeds_maximum_size', "{{ 'a' * 1024 * 257 }}");
  c.eq('test_response_empty_dict', '{{ merge_response({}) }}', []);
  c.err(
    'test_merge_response_with_entity_id_in_response',
    "{{ merge_response({'test.response': {'some_key': True, 'entity_id': 'test.response'}, 'test.response2': {'some_key': False, 'entity_id': 'test.response2'}}) }}",
    {
      error: "ValueError: Response dictionary already contains key 'entity_id'",
    },
  );
  c.err(
    'test_merge_response_with_entity_id_in_response',
    "{{ merge_response({'test.response': {'happening': [{'start': '2024-02-27T17:00:00-06:00', 'end': '2024-02-27T18:00:00-06:00', 'summary': 'Magic day', 'entity_id': 'test.response'}]}}) }}",
    { error: "ValueError: Response dictionary already contains key 'entity_id'" },
  );
  c.err('test_response_incorrect_value', '{{ merge_response(incorrect) }}', { error: 'TypeError: Response is not a dictionary' });
  c.err('test_merge_response_with_incorrect_response', "{{ merge_response({'calendar.sports': []}) }}", {
    error: 'TypeError: Response is not a dictionary',
  });
  c.err('test_merge_response_with_incorrect_response', "{{ merge_response({'binary_sensor.workday': []}) }}", {
    error: 'TypeError: Response is not a dictionary',
  });
  c.add(
    'test_merge_response_not_mutate_original_object',
    '{% set calendar_response = {"calendar.family": {"events": [{"summary": "An event"}]}} %}{{ merge_response(calendar_response) }}{{ merge_response(calendar_response) }}',
    { truthy: true },
  );
  c.eq(
    'test_merge_response',
    "{{ merge_response({'binary_sensor.workday': {'workday': True}, 'binary_sensor.workday2': {'workday': False}}) }}",
    [
      { entity_id: 'binary_sensor.workday', workday: true },
      { entity_id: 'binary_sensor.workday2', workday: false },
    ],
  );
  for (const [tpl, out] of [
    ['{{ True | typeof }}', 'bool'],
    ['{{ typeof(True) }}', 'bool'],
    ['{{ [1, 2, 3] | typeof }}', 'list'],
    ['{{ typeof([1, 2, 3]) }}', 'list'],
    ['{{ 1 | typeof }}', 'int'],
    ['{{ typeof(1) }}', 'int'],
    ['{{ 1.1 | typeof }}', 'float'],
    ['{{ typeof(1.1) }}', 'float'],
    ['{{ None | typeof }}', 'NoneType'],
    ['{{ typeof(None) }}', 'NoneType'],
    ["{{ 'Home Assistant' | typeof }}", 'str'],
    ["{{ typeof('Home Assistant') }}", 'str'],
  ] as const)
    c.eq('test_typeof', tpl, out);
  c.eq('test_combine', "{{ {'a': 1, 'b': 2} | combine({'b': 3, 'c': 4}) }}", { a: 1, b: 3, c: 4 });
  c.eq('test_combine', "{{ combine({'a': 1, 'b': 2}, {'b': 3, 'c': 4}) }}", { a: 1, b: 3, c: 4 });
  c.eq('test_combine', "{{ combine({'a': 1, 'b': {'x': 1}}, {'b': {'y': 2}, 'c': 4}, recursive=True) }}", {
    a: 1,
    b: { x: 1, y: 2 },
    c: 4,
  });
  c.eq('test_combine', "{{ combine({'a': 1, 'b': {'x': 1}}, {'b': {'y': 2}, 'c': 4}, recursive=False) }}", { a: 1, b: { y: 2 }, c: 4 });
  c.eq('test_combine', "{{ combine({'a': 1, 'b': none}, {'b': {'y': 2}, 'c': 4}, recursive=True) }}", { a: 1, b: { y: 2 }, c: 4 });
  c.err('test_combine', '{{ combine() }}', { error: 'combine expected at least 1 argument, got 0' });
  c.err('test_combine', "{{ {'a': 1} | combine('not a dict') }}", { error: 'combine expected a dict, got str' });
});
