import t from 'tap';
import { engineFixture } from './helpers.js';

/** Python's string, list and dict methods, Jinja's tests and filters, and datetime details, as Jinja renders them. */
t.test('string, list and dict methods', async (t) => {
  const f = engineFixture();
  const cases: readonly [string, string][] = [
    [
      "{{ 'Hello'.upper() }} {{ 'hello world'.capitalize() }} {{ 'xxhixx'.strip('x') }} {{ '  a'.lstrip() }}|{{ 'a  '.rstrip() }}|",
      'HELLO Hello world hi a|a|',
    ],
    ["{{ 'a b  c'.split() }} {{ 'a,b,c'.split(',', 1) }} {{ 'a b c'.split(None, 1) }}", "['a', 'b', 'c'] ['a', 'b,c'] ['a', 'b c']"],
    ["{{ 'aaa'.replace('a', 'b', 2) }} {{ 'x.y'.endswith(('.y', '.z')) }} {{ '-'.join(['a', 'b']) }}", 'bba True a-b'],
    ["{{ 'hello'.find('l') }} {{ 'hello'.rfind('l') }} {{ 'hello'.count('l') }} {{ 'hello'.find('z') }}", '2 3 2 -1'],
    [
      "{{ '123'.isdigit() }} {{ 'abc'.isalpha() }} {{ 'a1'.isalnum() }} {{ 'ab'.islower() }} {{ 'AB'.isupper() }} {{ ' '.isspace() }} {{ '5'.isnumeric() }} {{ '7'.isdecimal() }}",
      'True True True True True True True True',
    ],
    [
      "{{ '42'.zfill(5) }} {{ '-4'.zfill(4) }} {{ 'a'.ljust(3, '.') }} {{ 'a'.rjust(3, '.') }} [{{ 'a'.center(5) }}]",
      '00042 -004 a.. ..a [  a  ]',
    ],
    ["{{ 'a\\nb\\n'.splitlines() }}", "['a', 'b']"],
    [
      "{{ '{0}-{1}'.format('a', 'b') }} {{ '{x}!'.format(x=1) }} {{ '{:>5}'.format('ab') }} {{ '{:,}'.format(1234567) }} {{ '{:.0%}'.format(0.25) }} {{ '{{}}'.format() }}",
      'a-b 1!    ab 1,234,567 25% {}',
    ],
    [
      "[{{ '{:^7}'.format('ab') }}|{{ '{:*<4}'.format('ab') }}|{{ '{:+d}'.format(5) }}|{{ '{:x}'.format(255) }}|{{ '{:e}'.format(1234.5) }}",
      '[  ab   |ab**|+5|ff|1.234500e+03',
    ],
    ['{{ [1, 2, 1].count(1) }} {{ [1, 2].index(2) }} {{ d.values() | list }} {{ d.get("a") }} {{ d.get("z") }}', '2 1 [1, 2] 1 None'],
    ["{{ '%s|%r|%5.2f|%-4d|%x|%X|%e|%%|%i' % ['a', 'b', 3.14159, 7, 255, 255, 1234.5, 9] }}", "a|'b'| 3.14|7   |ff|FF|1.234500e+03|%|9"],
    ["{{ '%+d' % 5 }} {{ '%g' % 0.0001 }} {{ '%.2s' % 'abc' }}", '+5 0.0001 ab'],
  ];
  for (const [source, expected] of cases) t.equal(f.render(source, { variables: { d: { a: 1, b: 2 } } }), expected, source);
  t.match(f.render('{{ [1].index(5) }}'), /ValueError: value is not in list/);
  t.match(f.render("{{ 'a'.split('') }}"), /ValueError: empty separator/);
  t.match(f.render("{{ '%d' % 'x' }}"), /TypeError: %d format: a real number is required/);
  t.match(f.render("{{ '%s %s' % 'x' }}"), /TypeError: not enough arguments for format string/);
  t.match(f.render("{{ '{:q}'.format(1) }}"), /ValueError: Invalid format specifier/);
});

t.test('Jinja tests', async (t) => {
  const f = engineFixture();
  const cases: readonly [string, string][] = [
    ['{{ 1 is odd }} {{ 2 is even }} {{ 9 is divisibleby(3) }} {{ "ab" is lower }} {{ "AB" is upper }}', 'True True True True True'],
    [
      '{{ true is boolean }} {{ false is false }} {{ true is true }} {{ 1 is integer }} {{ 1.5 is float }} {{ "x" is string }}',
      'True True True True True True',
    ],
    [
      '{{ [1] is iterable }} {{ "ab" is sequence }} {{ 1 is iterable }} {{ now() is datetime }} {{ x is undefined }}',
      'True True False True True',
    ],
    [
      '{{ 1 is eq(1) }} {{ 1 is ne(2) }} {{ 1 is lt(2) }} {{ 2 is le(2) }} {{ 3 is gt(2) }} {{ 2 is ge(2) }} {{ 1 is sameas(1) }}',
      'True True True True True True True',
    ],
    [
      "{{ [1, 2] is contains(2) }} {{ 0 is falsy }} {{ 1 is truthy }} {{ 'x' is search('x') }} {{ [1] | select('in', [1, 2]) | list }}",
      'True True True True [1]',
    ],
    [
      "{{ [1, 5, 10] | select('gt', 4) | list }} {{ [1, 5] | select('lessthan', 4) | list }} {{ [1, 5] | select('greaterthan', 4) | list }} {{ ['a', 'b'] | select('equalto', 'a') | list }}",
      "[5, 10] [1] [5] ['a']",
    ],
    [
      "{{ [1, 2] | select('==', 1) | list }} {{ [1, 2] | select('!=', 1) | list }} {{ [1, 2] | select('<', 2) | list }} {{ [1, 2] | select('<=', 1) | list }} {{ [1, 2] | select('>', 1) | list }} {{ [1, 2] | select('>=', 2) | list }}",
      '[1] [2] [1] [1] [2] [2]',
    ],
    [
      "{{ states.light | selectattr('state', 'is_state', 'on') | list | count }} {{ ['light.kitchen'] | select('is_state', 'on') | list }} {{ ['light.kitchen'] | select('is_state_attr', 'brightness', 180) | list }} {{ ['sensor.humidity'] | reject('has_value') | list }}",
      "0 ['light.kitchen'] ['light.kitchen'] ['sensor.humidity']",
    ],
  ];
  for (const [source, expected] of cases) t.equal(f.render(source), expected, source);
  t.match(f.render("{{ [1] | select('nosuch') | list }}"), /No test named 'nosuch' \(in select\)/);
});

t.test('more filters', async (t) => {
  const f = engineFixture();
  const cases: readonly [string, string][] = [
    ['{{ [1, 2, 3, 4, 5] | batch(2) | list }} {{ [1, 2, 3] | batch(2, 0) | list }}', '[[1, 2], [3, 4], [5]] [[1, 2], [3, 0]]'],
    ['{{ [1, 2, 3, 4, 5] | slice(2) | list }} {{ [1, 2, 3] | slice(2, 0) | list }}', '[[1, 2, 3], [4, 5]] [[1, 2], [3, 0]]'],
    [
      '{{ {"b": 1, "a": 2} | dictsort }} {{ {"b": 1, "a": 2} | dictsort(by="value", reverse=true) }}',
      "[('a', 2), ('b', 1)] [('a', 2), ('b', 1)]",
    ],
    ["{{ items | groupby('k') | map('first') | list }} {{ (items | groupby('k') | first)[1] | length }}", "['a', 'b'] 2"],
    ['{{ items | sum(attribute="n") }} {{ [[1], [2]] | sum(start=[]) }} {{ items | join(",", attribute="k") }}', '6 [1, 2] a,a,b'],
    [
      "{{ items | map(attribute='missing', default=0) | list }} {{ items | unique(attribute='k') | map(attribute='n') | list }}",
      '[0, 0, 0] [1, 3]',
    ],
    [
      "{{ ['B', 'a', 'C'] | sort }} {{ ['B', 'a'] | sort(case_sensitive=true) }} {{ ['b', 'A'] | max }} {{ items | min(attribute='n') }}",
      "['a', 'B', 'C'] ['B', 'a'] b {'k': 'a', 'n': 1}",
    ],
    [
      '{{ "abc" | list }} {{ {"a": 1} | list }} {{ "abc" | length }} {{ [1, 2] | last }} [{{ [] | first }}]',
      "['a', 'b', 'c'] ['a'] 3 2 []",
    ],
    [
      "[{{ 'a\\nb' | indent(2, true) }}|{{ 'a b' | replace('a', 'x') }}|{{ 'x' | center(5) }}|{{ 'HELLO' | lower | capitalize }}|{{ 'a&b' | e }}",
      '[  a\n  b|x b|  x  |Hello|a&amp;b',
    ],
    [
      "{{ 'hi' | md5 }} {{ 'aGk=' | base64_decode }} {{ 11 | ordinal }} {{ 23 | ordinal }} {{ 'A b' | slugify('-') }}",
      '49f68a5c8493ec2c0bf489821c21fc3b hi 11th 23rd a-b',
    ],
    [
      "{{ [1, 2] | string }} {{ 'x=%s' | format(1) }} {{ [1, 2] | contains(2) }} {{ 5 | is_defined }} {{ [1, 3] | average }} {{ [] | average(0) }}",
      '[1, 2] x=1 True 5 2.0 0',
    ],
    ['{% set c = cycler("a", "b") %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.current }}{{ c.reset() }}{{ c.next() }}', 'ababa'],
    ['{% set j = joiner("|") %}{% for i in [1, 2, 3] %}{{ j() }}{{ i }}{% endfor %} {{ dict(a=1) }}', "1|2|3 {'a': 1}"],
    [
      '{{ range(3) | list }} {{ range(5, 0, -2) | list }} {{ [1, 2] | reverse }} {{ {"a": 1} | attr("a") }}',
      '[0, 1, 2] [5, 3, 1] [2, 1] 1',
    ],
    [
      "{{ '2026-01-15 10:00' | as_datetime }} {{ '2026-01-15' | as_datetime }} {{ '2026-01-15T10:00:00.5+05:30' | as_datetime }}",
      '2026-01-15 10:00:00 2026-01-15 00:00:00 2026-01-15 10:00:00.500000+05:30',
    ],
    [
      '{{ 1768478400 | timestamp_local }} {{ "x" | timestamp_local(0) }} {{ "x" | timestamp_custom("%H", true, "none") }}',
      '2026-01-15T13:00:00+01:00 0 none',
    ],
  ];
  const items = [
    { k: 'a', n: 1 },
    { k: 'a', n: 2 },
    { k: 'b', n: 3 },
  ];
  for (const [source, expected] of cases) t.equal(f.render(source, { variables: { items } }), expected, source);
  t.match(f.render('{{ [1] | slice(0) }}'), /ValueError: slice takes 1 to/);
  t.match(f.render('{{ 1 | dictsort }}'), /You can only sort by either/);
  t.match(f.render("{{ [1] | map('nosuch') | list }}"), /No filter named 'nosuch' \(in map\)/);
  t.match(f.render('{{ x | is_defined }}'), /UndefinedError: 'x' is undefined/);
  t.match(f.render('{{ "a" | abs }}'), /TypeError: bad operand type for abs\(\)/);
  t.match(f.render('{{ ["x"] | average }}'), /average got invalid input '\(\['x'\],\)'/);
  t.match(f.render('{{ range(1.5) }}'), /TypeError: range\(\) arguments must be integers/);
  t.match(f.render('{{ range(1, 2, 0) }}'), /ValueError: range\(\) arg 3 must not be zero/);
  t.match(f.render('{{ min() }}'), /TypeError: min expected at least 1 argument/);
  t.match(f.render("{{ 'a' | regex_findall_index('b') }}"), /list index out of range/);
  t.match(f.render("{{ 'a' | regex_match('(') }}"), /ValueError: invalid regular expression/);
});

t.test('datetimes and timedeltas', async (t) => {
  const f = engineFixture();
  const cases: readonly [string, string][] = [
    [
      "{{ now().strftime('%y %d %e %I %p %a %b %j %z %Z %w %u %s %f %%') }}",
      '26 15 15 01 PM Thu Jan 015 +0100 Europe/Amsterdam 4 4 1768478400 000000 %',
    ],
    ["{{ now().strftime('%c|%x|%X|%-d|%-m') }}", 'Thu Jan 15 13:00:00 2026|01/15/26|13:00:00|15|1'],
    [
      '{{ now().date() }} {{ now().time() }} {{ now().isoweekday() }} {{ now().minute }} {{ now().second }} {{ now().microsecond }} {{ now().tzinfo }}',
      '2026-01-15 13:00:00 4 0 0 0 Europe/Amsterdam',
    ],
    [
      '{{ now().replace(hour=8, minute=5) }} {{ now().timestamp() }} {{ now().astimezone() }}',
      '2026-01-15 08:05:00+01:00 1768478400.0 2026-01-15 13:00:00+01:00',
    ],
    [
      '{{ timedelta(days=1, seconds=5).days }} {{ timedelta(days=1, seconds=5).seconds }} {{ timedelta(microseconds=7).microseconds }} {{ timedelta(milliseconds=1.5) }}',
      '1 5 7 0:00:00.001500',
    ],
    [
      '{{ timedelta(hours=-1) }} {{ timedelta(weeks=1) }} {{ timedelta(hours=1) * 2 }} {{ timedelta(hours=1) + timedelta(minutes=1) }} {{ timedelta(hours=1) - timedelta(minutes=1) }}',
      '-1 day, 23:00:00 7 days, 0:00:00 2:00:00 1:01:00 0:59:00',
    ],
    [
      '{{ timedelta(hours=1) > timedelta(minutes=1) }} {{ timedelta(hours=1) == timedelta(minutes=60) }} {{ now() + timedelta(days=1) > now() }}',
      'True True True',
    ],
    [
      '{{ [now()] }} {{ [timedelta(seconds=1)] }}',
      "[datetime.datetime(2026, 1, 15, 13, 0, tzinfo=zoneinfo.ZoneInfo(key='Europe/Amsterdam'))] [datetime.timedelta(microseconds=1000000)]",
    ],
    [
      '{{ relative_time(now() + timedelta(hours=1)) == now() + timedelta(hours=1) }} {{ relative_time("x") }} {{ relative_time(now() - timedelta(days=800)) }}',
      'True x 2 years',
    ],
    ["{{ as_timestamp(as_datetime('2026-01-15 13:00')) }} {{ now() | as_timestamp }}", '1768478400.0 1768478400.0'],
  ];
  for (const [source, expected] of cases) t.equal(f.render(source), expected, source);
  t.match(f.render("{{ as_datetime('2026-01-15 10:00') < now() }}"), /TypeError: can't compare offset-naive and offset-aware datetimes/);
  t.match(f.render("{{ as_datetime('2026-01-15 10:00') - now() }}"), /TypeError: can't subtract offset-naive and offset-aware datetimes/);
  t.match(f.render("{{ today_at('25:00') }}"), /ValueError: could not convert str to datetime: '25:00'/);
  t.match(f.render('{{ timedelta(hours="1") }}'), /TypeError: unsupported type for timedelta hours component/);
  t.match(f.render('{{ as_local("x") }}'), /TypeError: as_local expects a datetime/);
  t.match(f.render('{{ now().replace(hour="x") }}'), /TypeError: hour must be an integer/);
  t.match(f.render('{{ now() + 1 }}'), /TypeError: unsupported operand type\(s\) for \+: 'datetime.datetime' and 'int'/);
  t.match(f.render("{{ 'a' + 1 }}"), /TypeError: can only concatenate str \(not "int"\) to str/);
  t.match(f.render('{{ x + 1 }}'), /UndefinedError: 'x' is undefined/);
  t.match(f.render('{{ 1 in 5 }}'), /TypeError: argument of type 'int' is not iterable/);
  t.match(f.render("{{ 1 in 'abc' }}"), /TypeError: 'in <string>' requires string as left operand/);
  t.match(f.render('{% for x in 5 %}{% endfor %}'), /TypeError: 'int' object is not iterable/);
  t.match(f.render('{{ 5 // 0 }}'), /ZeroDivisionError/);
  t.match(f.render('{{ 5 % 0 }}'), /ZeroDivisionError/);
  t.match(f.render('{{ "a" - 1 }}'), /TypeError: unsupported operand type\(s\) for -: 'str' and 'int'/);
  t.match(f.render('{{ 1() }}'), /TypeError: 'int' object is not callable/);
  t.match(f.render('{{ states.light.kitchen() }}'), /TypeError: 'TemplateState' object is not callable/);
  t.match(f.render('{{ states["no domain!"] }}'), /Invalid domain name 'no domain!'/);
  t.equal(f.render('{% for c in "ab" %}{{ c }}.{% endfor %}{% for k in {"x": 1} %}{{ k }}{% endfor %}'), 'a.b.x');
  t.equal(f.render("{{ [1, 2] < [1, 3] }} {{ 'a' < 'b' }} {{ [1] * 2 }} {{ 2 * 'ab' }}"), 'True True [1, 1] abab');
});

t.test('namespace() carries values out of a loop, as in Jinja', async (t) => {
  const f = engineFixture();
  t.equal(
    f.render(
      "{% set ns = namespace(found=false, n=0) %}{% for s in states.light %}{% if s.state == 'on' %}{% set ns.found = true %}{% endif %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.found }} {{ ns.n }}",
    ),
    'True 2',
  );
  t.equal(f.render("{% set ns = namespace({'a': 1}) %}{{ ns.a }} {{ ns }}"), "1 <Namespace {'a': 1}>");
  t.match(f.render('{% set d = {} %}{% set d.a = 1 %}'), /TemplateRuntimeError: Cannot assign attribute on non-namespace object/);
  t.match(f.render('{% set ns = namespace() %}{% set ns.constructor = 1 %}'), /SecurityError/);
  t.match(f.render('{% set ns = namespace() %}{% set ns["a" ~ "b"] = 1 %}{{ ns.ab }}'), /^1$/);
  t.match(f.render('{% set ns = namespace() %}{% set ns["__pro" ~ "to__"] = 1 %}'), /SecurityError: access to '__proto__'/);
});

t.test('conditions use Python truthiness: empty lists and dicts are false; and/or give an operand', async (t) => {
  const f = engineFixture();
  t.equal(f.render('{% if [] %}yes{% else %}no{% endif %} {% if {} %}yes{% elif [0] %}elif{% endif %}'), 'no elif');
  t.equal(f.render("{% if states.light | selectattr('state', 'eq', 'on') | list %}some on{% endif %}"), 'some on');
  t.equal(f.render("{% if states.switch | selectattr('state', 'eq', 'on') | list %}some on{% else %}none on{% endif %}"), 'none on');
  t.equal(
    f.render("{{ [] or 'x' }} {{ 'a' and 'b' }} {{ 0 and 1 / 0 }} {{ not [] }} {{ 'y' if {} else 'n' }} [{{ 1 if 0 }}]"),
    'x b 0 True n []',
  );
  t.equal(f.render('{{ x is defined and x.y }}'), 'False', 'and evaluates its right side only when needed');
  t.match(
    f.render('{% if x %}{% endif %}', { strict: true }),
    /UndefinedError: 'x' is undefined/,
    'strict: testing an undefined value raises',
  );
});

t.test("operators of one precedence level associate to the left, as Python's", async (t) => {
  const f = engineFixture();
  t.equal(f.render("{{ state_attr('light.kitchen', 'brightness') | int(0) * 100 // 255 }}"), '70');
  t.equal(
    f.render('{{ 7 * 5 % 3 }} {{ 8 / 4 // 3 }} {{ 2 * (3 // 2) }} {{ 10 - 2 + 3 }} {{ 2 + 3 * 4 }} {{ 1 - 2 - 3 }} {{ 100 / 10 / 5 }}'),
    '2 0.0 2 11 14 -4 2.0',
  );
});

t.test('slices, as Python slices strings and lists', async (t) => {
  const f = engineFixture();
  t.equal(
    f.render(
      "{{ 'hello'[1:3] }} {{ 'hello'[:-1] }} {{ 'hello'[::-1] }} {{ [1, 2, 3, 4][::2] }} {{ [1, 2, 3][1:] }} {{ 'hello'[-3:] }} {{ [1, 2, 3][3:0:-1] }} [{{ 'abc'[5:] }}]",
    ),
    'el hell olleh [1, 3] [2, 3] llo [3, 2] []',
  );
  t.equal(f.render("{{ states('sensor.outside')[:2] }} {{ [1, 2, 3][1] }} {{ {'a': 1}['a'] }}"), '21 2 1');
  t.match(f.render('{{ [1][::0] }}'), /ValueError: slice step cannot be zero/);
  t.match(f.render("{{ [1]['a':] }}"), /TypeError: slice start must be an integer or None/);
  t.match(f.render('{{ 5[1:] }}'), /TypeError: '5' cannot be sliced/);
  t.match(f.render('{{ x[1:] }}'), /UndefinedError: 'x' is undefined/);
  t.match(f.render('{{ [1][1, 2] }}'), /TemplateSyntaxError/);
});

t.test("a test's single argument may go without parentheses, as in Jinja", async (t) => {
  const f = engineFixture();
  t.equal(
    f.render(
      "{{ 9 is divisibleby 3 }} {{ 'on' is eq 'on' }} {{ 1 is not eq 2 }} {{ x is defined and 1 }} {{ 'a' is in ['a'] }} {{ 'x' is string or 1 }} {{ 'light.kitchen' is is_state 'on' }}",
    ),
    'True True True False True True True',
  );
  t.match(f.render('{{ 1 is nosuch 2 }}'), /TemplateSyntaxError: No test named 'nosuch'\./);
});

t.test('floats print as Python prints them, ints as ints', async (t) => {
  const f = engineFixture();
  t.equal(
    f.render(
      "{{ '2' | float }} {{ 10 / 5 }} {{ 10 / 4 }} {{ 2.0 }} {{ -2.0 }} {{ '21' | float * 2 }} {{ 3 * 2 }} {{ -('2' | float) }} {{ 2 ** -1 }} {{ 7 // 2 }} {{ 7.5 // 2 }}",
    ),
    '2.0 2.0 2.5 2.0 -2.0 42.0 6 -2.0 0.5 3 3.0',
  );
  t.equal(
    f.render(
      "{{ [1, '2' | float] }} {{ 0.00001 }} {{ '1e16' | float }} {{ ('0' | float) or 'zero' }} {{ '4' | float | int }} {{ ('2' | float) | abs }}",
    ),
    '[1, 2.0] 1e-05 1e+16 zero 4 2.0',
  );
  t.equal(
    f.render(
      "{{ '4' | float is float }} {{ 4 is float }} {{ 4 is integer }} {{ ('4' | float) == 4 }} {{ ('3' | float) > 2 }} {{ 6.0 is divisibleby 3 }}",
    ),
    'True False True True True True',
  );
  t.equal(
    f.render(
      "{{ '{:.1f}'.format('2' | float) }} {{ '{}'.format(2.0) }} {{ '%.2f' % ('2' | float) }} {{ ('2' | float) | to_json }} {{ ('2' | float) | round(1) }} {{ 2.5 | round }}",
    ),
    '2.0 2.0 2.00 2 2.0 2',
  );
  t.equal(
    f.render('{{ timedelta(minutes=2.0) }} {{ timedelta(hours=1) * 2.0 }} {{ 2.0.real }} {{ [3, 1] | median }} {{ [1, 2] | median }}'),
    '0:02:00 2:00:00 2.0 2.0 1.5',
  );
  t.match(f.render('{{ -"a" }}'), /TypeError: bad operand type for unary -: 'str'/);
  t.match(f.render('{{ "a" ** 2 }}'), /TypeError: unsupported operand type\(s\) for \*\* or pow\(\)/);
});
