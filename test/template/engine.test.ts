import t from 'tap';
import { LiveVariable, TemplateError } from '../../src/template/index.js';
import { engineFixture } from './helpers.js';

const tap = t;

/**
 * The template functions and filters, each against what Home Assistant renders for it (its template
 * documentation and helpers/template.py), on a core with fixed states and clock.
 */

function table(
  t: { equal: (typeof tap)['equal'] },
  cases: readonly (readonly [string, string])[],
  variables?: Record<string, unknown>,
): void {
  const f = engineFixture();
  for (const [source, expected] of cases) t.equal(f.render(source, { variables }), expected, source);
}

t.test('states, is_state, state_attr, is_state_attr, has_value', async (t) => {
  table(t, [
    ["{{ states('sensor.outside') }}", '21.5'],
    ["{{ states('sensor.nope') }}", 'unknown'],
    ["{{ states('sensor.outside', with_unit=True) }}", '21.5 °C'],
    ['{{ states.sensor.outside.state }}', '21.5'],
    ['{{ states.sensor.outside.attributes.unit_of_measurement }}', '°C'],
    [
      '{{ states.sensor.outside.entity_id }} {{ states.sensor.outside.domain }} {{ states.sensor.outside.object_id }}',
      'sensor.outside sensor outside',
    ],
    ['{{ states.sensor.outside.name }} {{ states.switch.coffee.name }}', 'Outside coffee'],
    ['{{ states.sensor.outside.last_changed }}', '2026-01-15 12:00:00+00:00'],
    ['{{ states.sensor.nope.state }}', ''],
    ['{{ states.sensor.nope }}', 'None'],
    ["{{ states['light.kitchen'].state }}", 'on'],
    ['{% for s in states.light %}{{ s.entity_id }} {% endfor %}', 'light.hallway light.kitchen'],
    ['{{ states.light | list | count }}', '2'],
    ['{{ states | count }}', '6'],
    ["{{ states.light | selectattr('state', 'eq', 'on') | map(attribute='entity_id') | list }}", "['light.kitchen']"],
    ["{{ states | selectattr('state', 'in', ['on']) | map(attribute='name') | join(', ') }}", 'lights, Kitchen'],
    [
      "{{ is_state('light.kitchen', 'on') }} {{ is_state('light.kitchen', ['off', 'on']) }} {{ is_state('light.nope', 'on') }}",
      'True True False',
    ],
    ["{{ state_attr('light.kitchen', 'brightness') }} {{ state_attr('light.kitchen', 'nope') }}", '180 None'],
    ["{{ is_state_attr('light.kitchen', 'brightness', 180) }} {{ is_state_attr('light.kitchen', 'brightness', 1) }}", 'True False'],
    ["{{ has_value('sensor.outside') }} {{ has_value('sensor.humidity') }} {{ has_value('sensor.nope') }}", 'True False False'],
    ["{{ 'light.kitchen' | is_state('on') }} {{ 'light.kitchen' is is_state('on') }}", 'True True'],
    ["{{ 'sensor.outside' | has_value }} {{ 'light.kitchen' | state_attr('brightness') }}", 'True 180'],
    ["{{ expand('group.lights') | map(attribute='entity_id') | list }}", "['light.hallway', 'light.kitchen']"],
    [
      "{{ expand(['switch.coffee', states.light.kitchen, 'switch.coffee']) | map(attribute='entity_id') | join(',') }}",
      'light.kitchen,switch.coffee',
    ],
  ]);
});

t.test('what a render read: entities, domains, everything, the time', async (t) => {
  const f = engineFixture();
  const info = (source: string) => f.engine.tryRender(source).info.listeners();
  t.same(info("{{ states('sensor.outside') }} {{ is_state('light.kitchen', 'on') }}"), {
    all: false,
    domains: [],
    entities: ['light.kitchen', 'sensor.outside'],
    time: false,
  });
  t.same(info('{{ states.light | count }}'), { all: false, domains: ['light'], entities: [], time: false });
  t.same(info('{% for s in states %}{% endfor %}'), { all: true, domains: [], entities: [], time: false });
  t.same(info('{{ now() }}'), { all: false, domains: [], entities: [], time: true });
  t.same(info("{{ expand('group.lights') | count }}").entities, ['group.lights', 'light.hallway', 'light.kitchen']);
});

t.test('numbers: float, int, bool with defaults, round with methods, iif, min and max', async (t) => {
  table(t, [
    ["{{ states('sensor.outside') | float + 1 }}", '22.5'],
    ["{{ float('1.5') }} {{ '2e3' | float }} {{ 'x' | float(0) }} {{ float('x', default=7) }}", '1.5 2000.0 0 7'],
    ["{{ '42' | int }} {{ '3.9' | int }} {{ 'x' | int(-1) }} {{ int('0x1F', base=16) }}", '42 3 -1 31'],
    ["{{ 'on' | bool }} {{ 'off' | bool }} {{ 1 | bool }} {{ 'maybe' | bool('no') }}", 'True False True no'],
    ['{{ 2.5 | round }} {{ 3.5 | round }} {{ 3.14159 | round(2) }}', '2 4 3.14'],
    ["{{ 3.7 | round(0, 'floor') }} {{ 3.2 | round(0, 'ceil') }} {{ 3.3 | round(1, 'half') }}", '3 4 3.5'],
    ["{{ 'x' | round(1, default='none') }}", 'none'],
    [
      "{{ iif(true, 'yes', 'no') }} {{ iif(0, 'yes', 'no') }} {{ iif(None, 'yes', 'no', 'none') }} {{ (1 > 2) | iif('a', 'b') }}",
      'yes no none b',
    ],
    ['{{ iif(1) }} {{ iif([]) }}', 'True False'],
    ['{{ min(3, 1, 2) }} {{ max([3, 1, 2]) }} {{ [4, 9] | max }} {{ ["b", "A"] | min }}', '1 3 9 A'],
    ['{{ 7 // 2 }} {{ 7 % 3 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 1 / 4 }}', '3 1 2 1024 0.25'],
    ["{{ is_number('1.5') }} {{ is_number('x') }} {{ '3' is is_number }}", 'True False True'],
    ['{{ [1, 2, 3] | sum }} {{ [1, 2] | average }} {{ [3, 1, 2] | median }}', '6 1.5 2'],
  ]);
});

t.test('without a default, bad input is an error that names the value, as in Home Assistant', async (t) => {
  const f = engineFixture();
  t.match(
    f.render("{{ 'abc' | float }}", { name: 'my-template' }),
    /^ERR ValueError: Template error: float got invalid input 'abc' when rendering template 'my-template' but no default was specified/,
  );
  t.match(f.render("{{ int('nope') }}"), /int got invalid input 'nope'/);
  t.match(f.render("{{ bool('maybe') }}"), /bool got invalid input 'maybe'/);
  t.match(f.render("{{ as_timestamp('soon') }}"), /as_timestamp got invalid input 'soon'/);
  t.match(f.render("{{ 'x' | round(1) }}"), /round got invalid input 'x'/);
  t.match(f.render('{{ from_json("{nope") }}'), /from_json got invalid input/);
});

t.test('time: now, utcnow, today_at, as_timestamp, as_datetime, as_local, timedelta, relative_time', async (t) => {
  table(t, [
    ['{{ now() }}', '2026-01-15 13:00:00+01:00'],
    ['{{ utcnow() }}', '2026-01-15 12:00:00+00:00'],
    ['{{ now().hour }} {{ now().year }} {{ now().weekday() }} {{ now().isoformat() }}', '13 2026 3 2026-01-15T13:00:00+01:00'],
    ["{{ now().strftime('%Y-%m-%d %H:%M %A %B') }}", '2026-01-15 13:00 Thursday January'],
    ['{{ as_timestamp(now()) }}', '1768478400.0'],
    ["{{ as_timestamp('2026-01-15T12:00:00+00:00') }} {{ as_timestamp('x', 0) }}", '1768478400.0 0'],
    ["{{ today_at('08:30') }} {{ today_at() }}", '2026-01-15 08:30:00+01:00 2026-01-15 00:00:00+01:00'],
    ["{{ now() > today_at('08:30') }}", 'True'],
    ["{{ as_datetime('2026-01-15T10:00:00+00:00') }} {{ as_datetime(0) }}", '2026-01-15 10:00:00+00:00 1970-01-01 00:00:00+00:00'],
    ["{{ as_datetime('nope') }} {{ as_datetime('nope', 1) }}", 'None 1'],
    ["{{ as_local(as_datetime('2026-07-01T10:00:00+00:00')) }}", '2026-07-01 12:00:00+02:00'],
    ["{{ '2026-01-15T10:00:00Z' | as_datetime | as_local }}", '2026-01-15 11:00:00+01:00'],
    [
      '{{ timedelta(hours=1, minutes=30) }} {{ timedelta(days=2) }} {{ timedelta(minutes=5).total_seconds() }}',
      '1:30:00 2 days, 0:00:00 300.0',
    ],
    ['{{ now() - timedelta(hours=2) }}', '2026-01-15 11:00:00+01:00'],
    ['{{ (now() - states.light.kitchen.last_changed).total_seconds() }}', '0.0'],
    [
      '{{ relative_time(now() - timedelta(hours=3)) }} {{ relative_time(now() - timedelta(seconds=1)) }} {{ relative_time(now() - timedelta(days=40)) }}',
      '3 hours 1 second 1 month',
    ],
    [
      "{{ 1768478400 | timestamp_custom('%H:%M') }} {{ 1768478400 | timestamp_custom('%H:%M', false) }} {{ 0 | timestamp_utc }}",
      '13:00 12:00 1970-01-01T00:00:00+00:00',
    ],
    ['{{ now() == now() }} {{ now() < utcnow() }}', 'True False'],
  ]);
});

t.test('regular expressions and JSON', async (t) => {
  table(t, [
    [
      "{{ 'Hello World' | regex_match('hello', ignorecase=True) }} {{ 'Hello World' | regex_match('World') }} {{ 'Hello World' | regex_search('World') }}",
      'True False True',
    ],
    ["{{ 'abc-123' | regex_replace('(\\\\w+)-(\\\\d+)', '\\\\2:\\\\1') }}", '123:abc'],
    ["{{ 'a1b22c333' | regex_findall('\\\\d+') }} {{ 'a1b22' | regex_findall_index('\\\\d+', 1) }}", "['1', '22', '333'] 22"],
    ["{{ 'sensor.x' is match('sensor\\\\.') }}", 'True'],
    ["{{ {'a': 1, 'b': [True, None]} | to_json }} {{ '{\"x\": [1, 2]}' | from_json }}", '{"a":1,"b":[true,null]} {\'x\': [1, 2]}'],
    ["{{ {'b': 1, 'a': 2} | to_json(sort_keys=True) }} {{ ('{\"k\": \"v\"}' | from_json).k }}", '{"a":2,"b":1} v'],
  ]);
});

t.test('Python semantics: output, operators, methods, loops', async (t) => {
  table(
    t,
    [
      ['{{ True }} {{ False }} {{ None }} {{ true }} {{ none }}', 'True False None True None'],
      ["{{ [1, 'a', None, 1.5] }} {{ {'k': 'v'} }}", "[1, 'a', None, 1.5] {'k': 'v'}"],
      ["{{ [1, 2] + [3] }} {{ 'a' + 'b' }} {{ 'ab' * 2 }} {{ 'x' ~ 1 ~ None }}", '[1, 2, 3] ab abab x1None'],
      ["{{ [1, 2] == [1, 2] }} {{ {'a': 1} == {'a': 1} }} {{ 1 == 1.0 }} {{ '1' == 1 }}", 'True True True False'],
      ['{{ 1 < 2 < 3 }} {{ 3 > 2 > 2 }}', 'True False'],
      ["{{ 'on' in ['on', 'off'] }} {{ 'a' in {'a': 1} }} {{ 'ell' in 'hello' }}", 'True True True'],
      [
        "{{ 'a,b'.split(',') }} {{ ' x '.strip() }} {{ 'Hi'.lower() }} {{ 'hi there'.title() }} {{ 'abc'.startswith('ab') }}",
        "['a', 'b'] x hi Hi There True",
      ],
      ["{{ '{} is {:.1f}'.format('pi', 3.14159) }} {{ '%s=%d' % ['n', 4] }} {{ '%05.1f' % 3.14159 }}", 'pi is 3.1 n=4 003.1'],
      [
        '{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %} {{ d.get("x", "none") }} {{ d.keys() | list }}',
        "a=1;b=2; none ['a', 'b']",
      ],
      ['{{ [3, 1, 2] | sort }} {{ [3, 1, 2] | sort(reverse=true) | first }} {{ [1, 1, 2] | unique | list }}', '[1, 2, 3] 3 [1, 2]'],
      ["{{ 'abc'[-1] }} {{ [1, 2, 3][-1] }} {{ 'abc' | reverse }}", 'c 3 cba'],
      ['{{ items | map(attribute="n") | sum }} {{ items | sort(attribute="n", reverse=true) | map(attribute="n") | list }}', '6 [3, 2, 1]'],
      [
        '{{ items | selectattr("n", ">", 1) | map(attribute="n") | list }} {{ items | rejectattr("n", "odd") | map(attribute="n") | list }}',
        '[2, 3] [2]',
      ],
      ["{{ ['1', '2'] | map('int') | sum }} {{ [0, 1, 2] | select | list }} {{ [1, 2, 3] | reject('even') | list }}", '3 [1, 2] [1, 3]'],
      ['{{ x is defined }} {{ d is mapping }} {{ none is none }} {{ 1 is number }} {{ [] is list }}', 'False True True True True'],
      ['{{ x | default("d") }} {{ none | default("d") }} {{ "" | default("d", true) }}', 'd None d'],
      ["{% set ns = {'n': 0} %}{% for i in range(3) %}{{ loop.index }}{% endfor %} {{ range(2, 8, 2) | list }}", '123 [2, 4, 6]'],
      ['{{ "  padded  " }}', 'padded'],
      ["{{ 'my thing' | slugify }} {{ 'hi' | base64_encode }} {{ 2 | ordinal }} {{ -3 | abs }}", 'my_thing aGk= 2nd 3'],
    ],
    { d: { a: 1, b: 2 }, items: [{ n: 2 }, { n: 1 }, { n: 3 }] },
  );
});

t.test("variables: trigger, this and an automation's variables", async (t) => {
  const f = engineFixture();
  const variables = {
    trigger: { platform: 'state', entity_id: 'light.kitchen', to_state: { state: 'on' } },
    this: { entity_id: 'automation.porch', state: 'on', attributes: { friendly_name: 'Porch' } },
    threshold: 20,
  };
  t.equal(
    f.render(
      "{{ trigger.entity_id }} {{ trigger.to_state.state }} {{ this.attributes.friendly_name }} {{ states('sensor.outside') | float > threshold }}",
      { variables },
    ),
    'light.kitchen on Porch True',
  );
});

t.test('a LiveVariable is read when each render starts', async (t) => {
  const f = engineFixture();
  let n = 1;
  const variables = { this: new LiveVariable(() => ({ state: String(n) })) };
  t.equal(f.render('{{ this.state }}', { variables }), '1');
  n = 2;
  t.equal(f.render('{{ this.state }}', { variables }), '2', 'the same variables, the value at the second render');
});

t.test('errors name the kind, the template and the line and column', async (t) => {
  const f = engineFixture();
  const r = f.engine.tryRender('line one\n{{ 1 +* }}', { name: 'automations.yaml:3 value_template' });
  t.notOk(r.ok);
  if (!r.ok) {
    t.type(r.error, TemplateError);
    t.equal(r.error.kind, 'template_error');
    t.equal(r.error.templateKind, 'TemplateSyntaxError');
    t.same(r.error.position, { line: 2, column: 7 });
    t.match(r.error.message, /^TemplateSyntaxError: .* \(template "automations\.yaml:3 value_template", line 2, column 7\)$/);
  }
  t.match(f.render('{{ foo.bar }}'), /^ERR UndefinedError: 'foo' is undefined \(template "template", line 1, column 4\)$/);
  t.match(f.render('first line\n  {{ 1 + x.y }}'), /^ERR UndefinedError: 'x' is undefined \(template "template", line 2, column 10\)$/);
  t.match(f.render("{{ 'a' < 1 }}"), /, line 1, column 8\)$/);
  t.match(f.render("{{ {'a': 1}.b.c }}"), /^ERR UndefinedError: 'dict object' has no attribute 'b'/);
  t.match(f.render("{{ 'a' < 1 }}"), /TypeError: '<' not supported between instances of 'str' and 'int'/);
  t.match(f.render('{{ 1 / 0 }}'), /ZeroDivisionError: division by zero/);
  t.match(f.render('{{ 1 | nosuch }}'), /TemplateSyntaxError: No filter named 'nosuch'\./);
  t.match(f.render('{{ 1 is nosuch }}'), /TemplateSyntaxError: No test named 'nosuch'\./);
  t.match(f.render("{% include 'other' %}"), /TemplateSyntaxError: \{% include %\} is not supported/);
  t.match(f.render('{% if %}'), /^ERR TemplateSyntaxError: .*line 1/);
  t.match(f.render('{{ states.light.kitchen.nope.deeper }}'), /UndefinedError: 'TemplateState' object has no attribute 'nope'/);
});

t.test('strict: undefined values are errors where they are used', async (t) => {
  const f = engineFixture();
  t.equal(f.render('[{{ x }}]'), '[]');
  t.match(f.render('[{{ x }}]', { strict: true }), /^ERR UndefinedError: 'x' is undefined/);
  t.equal(f.render('{{ x is defined }}', { strict: true }), 'False');
});

t.test('a template without delimiters is its own text, untouched; compiled templates are cached', async (t) => {
  const f = engineFixture({ cachedTemplates: 2 });
  t.equal(f.render('  plain text  '), '  plain text  ');
  f.render('{{ 1 }}');
  f.render('{{ 2 }}');
  f.render('{{ 3 }}');
  t.equal(f.engine.cachedCount, 2, 'bounded');
});
