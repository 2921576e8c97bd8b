import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { TemplateEngine, TemplateError } from '../../src/template/index.js';
import { runCli } from '../cli/cli-process.js';

/** Template syntax errors say what Jinja (and so Home Assistant) says, with the line and column; never a nunjucks internal. */

const engine = new TemplateEngine({ core: new Core({ log: silentLogger }) });

function syntaxError(source: string): { detail: string; line?: number; column?: number } {
  try {
    engine.check(source, 'template');
  } catch (err) {
    if (err instanceof TemplateError)
      return { detail: `${err.templateKind}: ${err.detail}`, line: err.position?.line, column: err.position?.column };
    throw err;
  }
  throw new Error(`no error for ${source}`);
}

const CASES: [string, string, number, number][] = [
  ['{{ x }', "unexpected '}'", 1, 6],
  ['{% x %}', "Encountered unknown tag 'x'.", 1, 4],
  ['{{ }}', "Expected an expression, got 'end of print statement'", 1, 4],
  ['{{ 1 + }}', "unexpected 'end of print statement'", 1, 8],
  ['{{ (1 }}', "unexpected '}', expected ')'", 1, 7],
  ['{{ [1, 2 }}', "unexpected '}', expected ']'", 1, 10],
  ["{{ 'a }}", `unexpected char "'" at 3`, 1, 4],
  ['{{ x', "unexpected end of template, expected 'end of print statement'.", 1, 5],
  ['{{ a | }}', "expected token 'name', got 'end of print statement'", 1, 8],
  ['{{ x is }}', "expected token 'name', got 'end of print statement'", 1, 9],
  ['{{ 1 2 }}', "expected token 'end of print statement', got 'integer'", 1, 6],
  ['{{ x.}}', 'expected name or number', 1, 6],
  ['{{ f(a=) }}', "unexpected ')'", 1, 8],
  ['{% if %}{% endif %}', "Expected an expression, got 'end of statement block'", 1, 7],
  [
    '{% if x %}\nyes',
    "Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'.",
    2,
    4,
  ],
  [
    '{% for x in y %}{% endif %}',
    "Encountered unknown tag 'endif'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
    20,
  ],
  [
    '{% if a %}{% for b in c %}{% endif %}{% endfor %}',
    "Encountered unknown tag 'endif'. You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.",
    1,
    30,
  ],
  [
    '{% set x %}',
    "Unexpected end of template. Jinja was looking for the following tags: 'endset'. The innermost block that needs to be closed is 'set'.",
    1,
    12,
  ],
  ['{{ x | nope }}', "No filter named 'nope'.", 1, 8],
  ['{{ x is nope }}', "No test named 'nope'.", 1, 4],
  ['line one\n  {{ foo( }}', "unexpected '}', expected ')'", 2, 11],
];

t.test("syntax errors in Jinja's words, at the line and column of the error", async (t) => {
  for (const [source, message, line, column] of CASES) {
    const got = syntaxError(source);
    t.same(got, { detail: `TemplateSyntaxError: ${message}`, line, column }, JSON.stringify(source));
    t.notMatch(got.detail, /parse[A-Z]|token:|variable-end|block-end|symbol|nunjucks/, 'no nunjucks internals');
  }
});

t.test('valid templates that nunjucks alone refused compile', async (t) => {
  for (const source of [
    '{{ {"a": {"b": 1}} }}',
    '{{ {0: "off", 1: "low"}[1] }}',
    '{{ f(1, 2,) }}'.replace('f', 'max'),
    '{% for x in [1] %}{% break %}{% endfor %}',
  ])
    t.doesNotThrow(() => engine.check(source), source);
});

t.test('check-config names the file, the key, and the error in HA words with its position in the template', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-template-syntax-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(
    file,
    [
      'hub:',
      '  name: Home',
      'automation:',
      '  - triggers:',
      '      - trigger: template',
      '        value_template: "{{ states(\'sensor.x\') | float > 3 }"',
      '    actions:',
      '      - wait_template: "{% if x %}yes"',
      '',
    ].join('\n'),
  );
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 1, r.stdout + r.stderr);
  const out = r.stdout + r.stderr;
  t.match(
    out,
    /configuration\.yaml:6:\d+: automation\[0\]\.triggers\[0\]\.value_template: invalid template: TemplateSyntaxError: unexpected '}' \(line 1, column 35 of the template\)/,
  );
  t.match(
    out,
    /configuration\.yaml:8:\d+: automation\[0\]\.actions\[0\]\.wait_template: invalid template: TemplateSyntaxError: Unexpected end of template\. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'\. The innermost block that needs to be closed is 'if'\. \(line 1, column 14 of the template\)/,
  );
  t.notMatch(out, /parse[A-Z]|token:|variable-end|nunjucks/);
});
