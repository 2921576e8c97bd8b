import { createContext, Script } from 'node:vm';
import { readArgs } from './args.js';
import { fault } from './errors.js';
import { pyStr } from './py-format.js';
import { checkStringSize, currentScope } from './scope.js';

/**
 * regex_match, regex_search, regex_replace, regex_findall, regex_findall_index with Python's syntax
 * translated (`(?P<name>`, `\1` and `\g<name>` in replacements).
 *
 * A regular expression runs outside the template runtime's step counting and can backtrack for ever
 * (`(a+)+$`, `(a|a)*b`, `\d*\d*\d*x`), so one whose pattern repeats a group holding a quantifier or an
 * alternation or has more than one unbounded quantifier, or whose text is long, runs in a vm context with the render's remaining time as its timeout (V8 interrupts
 * a regular expression there); short texts with plain patterns, nearly every template's case, run directly.
 */

const MAX_PATTERN = 1000;
const MAX_SUBJECT = 64 * 1024;
/** Texts up to this long run directly when the pattern is plain. */
const DIRECT_SUBJECT = 256;
const cache = new Map<string, RegExp>();
const MAX_CACHED = 256;

/** A quantified group holding a quantifier or an alternation: the shapes of catastrophic backtracking. */
const RISKY = /\((?:[^()\\]|\\.)*(?:[+*|]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*?]|\{\d+,\d*\})/;

const risky = new WeakMap<RegExp, boolean>();
interface SandboxGlobals {
  re: RegExp | undefined;
  s: string | undefined;
  r: string | undefined;
}
/** Made on the first bounded run: a vm context is a whole second set of globals (about 0.3 MB of heap) that most hubs never need. */
let sandbox: SandboxGlobals | undefined;
const SCRIPTS = {
  exec: new Script('re.exec(s)'),
  test: new Script('re.test(s)'),
  replace: new Script('s.replace(re, r)'),
  matchAll: new Script('Array.from(s.matchAll(re))'),
} as const;

/** Runs a regular expression operation directly, or bounded by the render's remaining time. */
function run<K extends keyof typeof SCRIPTS>(op: K, re: RegExp, subject: string, direct: () => unknown, replacement?: string): unknown {
  re.lastIndex = 0;
  if (subject.length <= DIRECT_SUBJECT && risky.get(re) !== true) return direct();
  const scope = currentScope();
  const remaining = Math.max(1, Math.floor((scope?.deadline ?? performance.now() + 1000) - performance.now()));
  sandbox ??= createContext({ re: undefined, s: undefined, r: undefined }) as SandboxGlobals;
  const context = sandbox;
  context.re = re;
  context.s = subject;
  context.r = replacement;
  try {
    return SCRIPTS[op].runInContext(context, { timeout: remaining });
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw fault(
        'TimeoutError',
        `the regular expression '${re.source}' ran out of the render's ${scope?.limitMs ?? 1000} ms and was stopped`,
        scope?.limitMs,
      );
    }
    throw err;
  } finally {
    context.re = undefined;
    context.s = undefined;
    context.r = undefined;
  }
}

function compile(pattern: unknown, ignorecase: unknown, global: boolean): RegExp {
  const source = pyStr(pattern);
  const flags = `${ignorecase === true ? 'i' : ''}${global ? 'g' : ''}u`;
  const key = `${flags}/${source}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    hit.lastIndex = 0;
    return hit;
  }
  if (source.length > MAX_PATTERN) throw fault('ValueError', `regular expressions are limited to ${MAX_PATTERN} characters`);
  let re: RegExp;
  try {
    re = new RegExp(source.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'), flags);
  } catch (err) {
    throw fault('ValueError', `invalid regular expression '${source}': ${(err as Error).message}`);
  }
  // Two unbounded quantifiers can already backtrack polynomially (`\d*\d*\d*x`).
  const unbounded = source.replace(/\\./g, '').match(/[*+]|\{\d+,\}/g)?.length ?? 0;
  risky.set(re, RISKY.test(source) || unbounded > 1);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(key, re);
  return re;
}

function subject(value: unknown): string {
  const s = pyStr(value);
  if (s.length > MAX_SUBJECT) throw fault('ValueError', `regular expressions search at most ${MAX_SUBJECT} characters`);
  return s;
}

export function regexMatch(...args: unknown[]): boolean {
  const a = readArgs('regex_match', args, ['value', 'find', 'ignorecase']);
  const re = compile(a.values.find ?? '', a.values.ignorecase, false);
  const text = subject(a.values.value);
  const m = run('exec', re, text, () => re.exec(text)) as RegExpExecArray | null;
  return m !== null && m.index === 0;
}

export function regexSearch(...args: unknown[]): boolean {
  const a = readArgs('regex_search', args, ['value', 'find', 'ignorecase']);
  const re = compile(a.values.find ?? '', a.values.ignorecase, false);
  const text = subject(a.values.value);
  return run('test', re, text, () => re.test(text)) as boolean;
}

/** Python's replacement syntax (`\1`, `\g<1>`, `\g<name>`) as JavaScript's (`$1`, `$<name>`); `$` is literal. */
function replacement(text: string): string {
  return text
    .replace(/\$/g, '$$$$')
    .replace(/\\g<(\d+)>|\\(\d{1,2})|\\g<(\w+)>/g, (_m, g1?: string, g2?: string, name?: string) =>
      name !== undefined ? `$<${name}>` : `$${g1 ?? g2}`,
    )
    .replace(/\\\\/g, '\\');
}

export function regexReplace(...args: unknown[]): string {
  const a = readArgs('regex_replace', args, ['value', 'find', 'replace', 'ignorecase']);
  const re = compile(a.values.find ?? '', a.values.ignorecase, true);
  const text = subject(a.values.value);
  const r = replacement(pyStr(a.values.replace ?? ''));
  return checkStringSize(run('replace', re, text, () => text.replace(re, r), r) as string);
}

export function regexFindall(...args: unknown[]): unknown[] {
  const a = readArgs('regex_findall', args, ['value', 'find', 'ignorecase']);
  const re = compile(a.values.find ?? '', a.values.ignorecase, true);
  const text = subject(a.values.value);
  const matches = run('matchAll', re, text, () => Array.from(text.matchAll(re))) as RegExpMatchArray[];
  const out: unknown[] = [];
  for (const m of matches) {
    if (m.length <= 1) out.push(m[0]);
    else if (m.length === 2) out.push(m[1] ?? '');
    else out.push(m.slice(1).map((g) => g ?? ''));
  }
  return out;
}

export function regexFindallIndex(...args: unknown[]): unknown {
  const a = readArgs('regex_findall_index', args, ['value', 'find', 'index', 'ignorecase']);
  const all = regexFindall(a.values.value, a.values.find, a.values.ignorecase);
  const index = typeof a.values.index === 'number' ? a.values.index : 0;
  const i = index < 0 ? all.length + index : index;
  if (i < 0 || i >= all.length) throw fault('TemplateRuntimeError', 'list index out of range');
  return all[i];
}
