import { readArgs } from './args.js';
import { fault } from './errors.js';
import { pyStr } from './py-format.js';
import { checkStringSize } from './scope.js';

/**
 * regex_match, regex_search, regex_replace, regex_findall, regex_findall_index with Python's syntax
 * translated (`(?P<name>`, `\1` and `\g<name>` in replacements).
 *
 * JavaScript's regular expressions cannot be interrupted, so a pattern that backtracks exponentially would
 * stall the hub past any render time limit: patterns with a quantified group that itself holds a
 * quantifier (`(a+)+`) are refused, and the text searched is bounded.
 */

const MAX_PATTERN = 1000;
const MAX_SUBJECT = 64 * 1024;
const cache = new Map<string, RegExp>();
const MAX_CACHED = 256;

/** A group with a quantifier inside, itself quantified: the shape of catastrophic backtracking. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

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
  if (NESTED_QUANTIFIER.test(source)) {
    throw fault(
      'ValueError',
      `the pattern '${source}' repeats a group that repeats (such as (a+)+), which can take exponential time; write it without the nesting`,
    );
  }
  let re: RegExp;
  try {
    re = new RegExp(source.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'), flags);
  } catch (err) {
    throw fault('ValueError', `invalid regular expression '${source}': ${(err as Error).message}`);
  }
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
  const m = re.exec(subject(a.values.value));
  return m !== null && m.index === 0;
}

export function regexSearch(...args: unknown[]): boolean {
  const a = readArgs('regex_search', args, ['value', 'find', 'ignorecase']);
  return compile(a.values.find ?? '', a.values.ignorecase, false).test(subject(a.values.value));
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
  return checkStringSize(subject(a.values.value).replace(re, replacement(pyStr(a.values.replace ?? ''))));
}

export function regexFindall(...args: unknown[]): unknown[] {
  const a = readArgs('regex_findall', args, ['value', 'find', 'ignorecase']);
  const re = compile(a.values.find ?? '', a.values.ignorecase, true);
  const out: unknown[] = [];
  for (const m of subject(a.values.value).matchAll(re)) {
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
