import t from 'tap';
import { engineFixture } from './helpers.js';

/**
 * nunjucks alone runs `{{ range.constructor("return process")() }}`. Each known way out is tried here and
 * must be refused with an error, never executed: the canary below would be set by any escape that ran code.
 */

const CANARY = '__hearthTemplateEscaped';

function canaryCode(): string {
  return `globalThis.${CANARY} = true; return process.version`;
}

t.test('every known escape is refused with an error, and none runs code', async (t) => {
  const f = engineFixture();
  const code = canaryCode();
  const attempts: readonly string[] = [
    `{{ range.constructor("${code}")() }}`,
    `{{ ''.constructor.constructor("${code}")() }}`,
    `{{ [].constructor.constructor("${code}")() }}`,
    `{{ {}.constructor.constructor("${code}")() }}`,
    `{{ cycler.constructor("${code}")() }}`,
    `{{ cycler(1, 2).constructor.constructor("${code}")() }}`,
    `{{ joiner.constructor("${code}")() }}`,
    `{{ joiner().constructor("${code}")() }}`,
    `{{ states.constructor("${code}")() }}`,
    `{{ states.sensor.constructor.constructor("${code}")() }}`,
    `{{ states.sensor.outside.constructor }}`,
    `{{ now().constructor.constructor("${code}")() }}`,
    `{{ range['constr' ~ 'uctor']("${code}")() }}`,
    `{{ ''['__proto__'] }}`,
    `{{ x.__proto__ }}`,
    `{{ {}.prototype }}`,
    `{{ range.call }}`,
    `{{ range.apply(none, [3]) }}`,
    `{{ range.bind }}`,
    `{{ range.name }}`,
    `{{ float.toString() }}`,
    `{% set constructor = range %}{{ constructor }}`,
    `{% set c = 'constructor' %}{{ range[c]("${code}")() }}`,
    `{% set f = range %}{{ f.constructor("${code}")() }}`,
    `{% for constructor in [1] %}{% endfor %}`,
    `{% macro m() %}{% endmacro %}{{ m.constructor("${code}")() }}`,
    `{{ {'__proto__': {'x': 1}} }}`,
    `{{ dict(__proto__=1) }}`,
    `{{ process.version }}`,
    `{{ process }}`,
    `{{ require('fs') }}`,
    `{{ global.process }}`,
    `{{ globalThis }}`,
    `{{ Function('${code}')() }}`,
    `{{ eval('1') }}`,
    `{{ 'x'.toString() }}`,
    `{{ [].map }}{{ [].map('x') }}`,
    `{{ {}.__lookupGetter__('__proto__') }}`,
    `{{ {}.__defineGetter__('x', range) }}`,
    `{{ {} | attr('constructor') }}`,
    `{{ [{}] | map(attribute='constructor') | list | first | string }}{{ ([{}] | map(attribute='constructor') | first)('${code}') }}`,
    `{{ [{}] | selectattr('constructor') | list }}{{ ([{}] | groupby('constructor') | first)[0]('${code}') }}`,
    `{% include '/etc/passwd' %}`,
    `{% import 'x' as y %}`,
    `{% extends 'x' %}`,
    // nunjucks writes a callee's name into its generated code, escaping only the double quote.
    `{{ '\\"+(globalThis.${CANARY}=true)+"'.x() }}`,
    `{{ '\\"+(globalThis.${CANARY}=true)//'() }}`,
  ];
  for (const attempt of attempts) {
    const out = f.render(attempt);
    t.match(out, /^ERR [A-Za-z]+Error: /, attempt);
  }
  t.equal((globalThis as Record<string, unknown>)[CANARY], undefined, 'no attempt ran code');
});

t.test('the refusals say why', async (t) => {
  const f = engineFixture();
  t.match(f.render('{{ range.constructor("return 1")() }}'), /^ERR SecurityError: access to 'constructor' is not allowed in templates/);
  t.match(f.render('{{ process.version }}'), /^ERR SecurityError: access to 'process' is not allowed/);
  t.match(f.render('{{ range.call }}'), /^ERR SecurityError: functions have no attributes templates may read/);
  t.match(f.render('{% include "x" %}'), /^ERR TemplateSyntaxError: \{% include %\} is not supported/);
});

t.test('a runaway render is stopped at its time limit, with an error', async (t) => {
  const f = engineFixture({ renderMs: 100 });
  const started = performance.now();
  const out = f.render('{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}');
  const took = performance.now() - started;
  t.match(out, /^ERR TimeoutError: rendering took longer than 100 ms and was stopped/);
  t.ok(took < 2000, `stopped in ${Math.round(took)} ms`);
  t.match(f.render('{% macro r(n) %}{{ r(n) }}{% endmacro %}{{ r(1) }}'), /^ERR TemplateRuntimeError: the template recursed too deeply/);
  t.match(f.render('{{ range(1000000) | count }}'), /Range too big/);
  // A regular expression that backtracks for ever is stopped too; the same shape on a harmless text works.
  const regexStarted = performance.now();
  t.match(
    f.render("{{ ('a' * 40 ~ '!') | regex_match('(a+)+$') }}"),
    /^ERR TimeoutError: the regular expression '\(a\+\)\+\$' ran out of the render's 100 ms/,
  );
  t.match(
    f.render("{{ ('1' * 250 ~ '!') | regex_match('\\\\d*\\\\d*\\\\d*\\\\d*\\\\d*\\\\d*x') }}"),
    /^ERR TimeoutError: the regular expression/,
  );
  t.ok(performance.now() - regexStarted < 3000, 'the regular expressions were stopped');
  t.equal(f.render("{{ 'aab' | regex_search('(a+)+b') }} {{ ('x' * 300) | regex_replace('x', 'y') | length }}"), 'True 300');
  // A render's own limit may be lower (render_template's timeout).
  const g = engineFixture();
  t.match(g.render('{% for a in range(100000) %}{% for b in range(1000) %}{% endfor %}{% endfor %}', { limitMs: 50 }), /TimeoutError/);
});

t.test('output and strings are bounded', async (t) => {
  const f = engineFixture({ outputChars: 1000, stringChars: 5000 });
  t.match(
    f.render('{% for i in range(200) %}{{ "0123456789" }}{% endfor %}'),
    /^ERR OutputTooLarge: the output is over the limit of 1000 characters/,
  );
  t.match(
    f.render('{% for i in range(2000) %}0123456789{% endfor %}'),
    /^ERR OutputTooLarge: the output is over the limit of 1000 characters/,
  );
  t.match(f.render("{{ ('x' * 6000) | length }}"), /^ERR OutputTooLarge: a string of 6000 characters is over the limit of 5000/);
  t.match(f.render("{% set s = 'xx' %}{% for i in range(20) %}{% set s = s ~ s %}{% endfor %}"), /^ERR OutputTooLarge/);
  t.match(f.render("{{ 'x' | center(100000) }}"), /^ERR OutputTooLarge/);
  t.equal(f.render("{{ ('x' * 900) | length }}"), '900', 'below the limits all is well');
});

t.test('variables named like a prototype are not variables', async (t) => {
  const f = engineFixture();
  const variables = JSON.parse('{"__proto__": {"injected": "yes"}, "ok": 1}') as Record<string, unknown>;
  t.equal(f.render('{{ ok }} [{{ injected }}]', { variables }), '1 []');
});

t.test('big values built from shared parts are bounded too', async (t) => {
  const f = engineFixture({ renderMs: 100 });
  const big = '{% set x = [1] * 100000 %}{% set y = [x] * 100000 %}';
  t.equal(f.render(`${big}{{ y | length }}`), '100000', 'sharing costs nothing until it is walked');
  const started = performance.now();
  t.match(f.render(`${big}{{ y }}`), /^ERR TimeoutError/);
  t.match(f.render(`${big}{{ y | to_json }}`), /^ERR TimeoutError/);
  t.match(f.render(`${big}{{ expand(y) }}`), /^ERR TimeoutError/);
  t.match(f.render('{% set x = [1] %}{% for i in range(60) %}{% set x = [x, x] %}{% endfor %}{{ x }}'), /^ERR TimeoutError/);
  t.ok(performance.now() - started < 3000, 'each stopped at its limit');
  t.match(
    f.render('{% set x = [1, 2] %}{% for i in range(100) %}{% set x = x + x %}{% endfor %}'),
    /^ERR OutputTooLarge: a list of \d+ items is over the limit/,
  );
});

t.test("HA's newer helpers lead nowhere either: tuples, sets, bytes, versions, apply, as_function, *args, dict keys", async (t) => {
  const f = engineFixture();
  const code = canaryCode();
  const attempts: readonly string[] = [
    `{{ (1, 2).constructor.constructor("${code}")() }}`,
    `{{ set([1]).__proto__ }}`,
    `{{ tuple([1]).constructor }}`,
    `{{ (zip([1], [2]) | first).constructor }}`,
    `{{ ('0a' | from_hex).constructor }}`,
    `{{ version('1.0').constructor }}`,
    `{{ apply(1, range.constructor) }}`,
    `{{ apply("${code}", range['constructor']) }}`,
    `{{ apply(1, 'not callable') }}`,
    `{% macro m(r) %}{% do r(1) %}{% endmacro %}{{ (m | as_function).constructor }}`,
    `{{ ('x' | as_function)() }}`,
    `{{ {('__pro' ~ 'to__'): {'polluted': 1}} }}`,
    `{{ {('constr' ~ 'uctor'): 1} }}`,
    `{% set a, constructor = [1, 2] %}`,
    `{% set a, b = [range, 1] %}{{ a.constructor("${code}")() }}`,
    `{{ range(*['constructor']) }}{{ range.constructor(*["${code}"])() }}`,
    `{{ zip.constructor }}`,
    `{{ pack.constructor }}`,
    `{{ e.constructor }}`,
    `{% do range.constructor("${code}")() %}`,
  ];
  for (const attempt of attempts) t.match(f.render(attempt), /^ERR [A-Za-z]+Error: /, attempt);
  t.equal((globalThis as Record<string, unknown>)[CANARY], undefined, 'no attempt ran code');
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
});

t.test('the new loops and builders are bounded by the time and size limits', async (t) => {
  const f = engineFixture({ renderMs: 100, stringChars: 5000 });
  t.match(f.render('{% for a in range(100000) %}{% for b in range(100000) %}{% continue %}{% endfor %}{% endfor %}'), /^ERR TimeoutError/);
  const g = engineFixture({ renderMs: 100 });
  t.match(g.render('{% set x = [1] * 100000 %}{% set y = [x] * 1000 %}{{ flatten(y) | length }}'), /^ERR (TimeoutError|OutputTooLarge)/);
  t.match(f.render('{% set x = range(100000) | list %}{{ zip(x, x, x) | length }}{{ zip(x, x) | list | length }}'), /TimeoutError|^\d+/);
  t.match(
    g.render("{% set x = ['a10'] * 100000 %}{{ natural_sort(x) | length }}{{ natural_sort(x) | length }}"),
    /^ERR (TimeoutError|OutputTooLarge)/,
  );
  t.match(f.render("{{ 'ab' * 3000 }}"), /^ERR OutputTooLarge/);
  t.match(f.render("{{ 1 | pack('>100000I') }}"), /^None$/, 'a format beyond 64 items of a kind is refused (None, as a bad format)');
  t.match(f.render('{{ range(100001) | count }}'), /Range too big/);
});
