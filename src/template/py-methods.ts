import { fault } from './errors.js';
import { isPlainObject, splitArgs, TemplateObject, templateCallable } from './objects.js';
import { tupleOf } from './py-collections.js';
import { PyFloat } from './py-float.js';
import { pyStr } from './py-format.js';
import { dictEntries, dictKeys, propertyOf } from './py-keys.js';
import { contains, pyEquals } from './py-ops.js';
import { checkStringSize } from './scope.js';

/**
 * The Python methods templates call on strings, lists and dicts (`x.split(',')`, `d.items()`,
 * `attrs.get('unit')`). Only these are reachable: a JavaScript method of the same value never is.
 * Mutating methods (`append`, `update`) are absent, as in Home Assistant's immutable sandbox.
 */

type Method<T> = (self: T, ...args: unknown[]) => unknown;

function text(v: unknown, what: string): string {
  if (typeof v === 'string') return v;
  throw fault('TypeError', `${what} must be str, not ${typeof v}`);
}

function stripChars(chars: unknown): string | undefined {
  return chars === undefined || chars === null ? undefined : text(chars, 'strip arg');
}

function lstrip(s: string, chars?: string): string {
  if (chars === undefined) return s.replace(/^\s+/, '');
  let i = 0;
  while (i < s.length && chars.includes(s[i] as string)) i++;
  return s.slice(i);
}

function rstrip(s: string, chars?: string): string {
  if (chars === undefined) return s.replace(/\s+$/, '');
  let i = s.length;
  while (i > 0 && chars.includes(s[i - 1] as string)) i--;
  return s.slice(0, i);
}

function split(s: string, sep: unknown, maxsplit: unknown): string[] {
  const max = typeof maxsplit === 'number' && maxsplit >= 0 ? maxsplit : Number.POSITIVE_INFINITY;
  if (sep === undefined || sep === null) {
    const parts = s
      .trim()
      .split(/\s+/)
      .filter((p) => p !== '');
    if (parts.length <= max + 1) return parts;
    // Re-split keeping the tail intact.
    const out: string[] = [];
    let rest = s.trimStart();
    while (out.length < max) {
      const m = /\s+/.exec(rest);
      if (m === null) break;
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    out.push(rest);
    return out;
  }
  const separator = text(sep, 'separator');
  if (separator === '') throw fault('ValueError', 'empty separator');
  const all = s.split(separator);
  if (all.length <= max + 1) return all;
  return [...all.slice(0, max), all.slice(max).join(separator)];
}

function title(s: string): string {
  return s.toLowerCase().replace(/(^|[^\p{L}])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase());
}

function prefixes(v: unknown): string[] {
  return Array.isArray(v) ? v.map((x) => text(x, 'prefix')) : [text(v, 'prefix')];
}

/** str.format: `{}`, `{0}`, `{name}` and format specs such as `{:.1f}` and `{:>5}`. */
function strFormat(s: string, args: unknown[]): string {
  const { positional, kwargs } = splitArgs(args);
  let auto = 0;
  return s.replace(/\{\{|\}\}|\{([^{}:!]*)(?:![rs])?(?::([^{}]*))?\}/g, (m, field: string | undefined, spec: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const key = field ?? '';
    const value = key === '' ? positional[auto++] : /^\d+$/.test(key) ? positional[Number(key)] : kwargs[key];
    return formatSpec(value, spec ?? '');
  });
}

export function formatSpec(raw: unknown, spec: string): string {
  const value = raw instanceof PyFloat ? raw.value : raw;
  const m = /^(?:(.)?([<>^=]))?([-+ ])?(0)?(\d+)?(,)?(?:\.(\d+))?([sdfeg%xX])?$/.exec(spec);
  if (m === null) throw fault('ValueError', `Invalid format specifier '${spec}'`);
  const [, fill = ' ', align, sign, zero, width, comma, precision, type] = m;
  let out: string;
  const p = precision === undefined ? undefined : Number(precision);
  if (typeof value === 'number' && type !== 's') {
    if (type === 'd') out = String(Math.trunc(value));
    else if (type === 'x' || type === 'X') out = Math.trunc(value).toString(16);
    else if (type === '%') out = `${(value * 100).toFixed(p ?? 6)}%`;
    else if (type === 'e') out = value.toExponential(p ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
    else if (type === 'f' || p !== undefined) out = value.toFixed(p ?? 6);
    else out = pyStr(raw);
    if (type === 'X') out = out.toUpperCase();
    if (comma !== undefined) {
      const [int, frac] = out.split('.');
      out = (int ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (frac === undefined ? '' : `.${frac}`);
    }
    if (sign === '+' && value >= 0) out = `+${out}`;
  } else {
    out = pyStr(value);
    if (p !== undefined) out = out.slice(0, p);
  }
  const w = width === undefined ? 0 : Number(width);
  checkStringSize(w);
  if (out.length >= w) return out;
  const pad = w - out.length;
  const a = align ?? (zero !== undefined ? '=' : typeof value === 'number' ? '>' : '<');
  const f = zero !== undefined && align === undefined ? '0' : fill;
  if (a === '<') return out + f.repeat(pad);
  if (a === '^') return f.repeat(Math.floor(pad / 2)) + out + f.repeat(Math.ceil(pad / 2));
  if (a === '=' && /^[+-]/.test(out)) return out[0] + f.repeat(pad) + out.slice(1);
  return f.repeat(pad) + out;
}

const STR: Record<string, Method<string>> = {
  lower: (s) => s.toLowerCase(),
  upper: (s) => s.toUpperCase(),
  title: (s) => title(s),
  capitalize: (s) => (s.length === 0 ? s : (s[0] as string).toUpperCase() + s.slice(1).toLowerCase()),
  strip: (s, chars) => lstrip(rstrip(s, stripChars(chars)), stripChars(chars)),
  lstrip: (s, chars) => lstrip(s, stripChars(chars)),
  rstrip: (s, chars) => rstrip(s, stripChars(chars)),
  split: (s, sep, maxsplit) => split(s, sep, maxsplit),
  splitlines: (s) => s.split(/\r\n|\r|\n/).filter((line, i, all) => i < all.length - 1 || line !== ''),
  replace: (s, old, replacement, count) => {
    const o = text(old, 'replace() argument 1');
    const r = text(replacement, 'replace() argument 2');
    let n = typeof count === 'number' && count >= 0 ? count : Number.POSITIVE_INFINITY;
    if (o === '') throw fault('ValueError', 'replacing an empty string is not supported');
    const parts = s.split(o);
    let out = parts[0] as string;
    for (let i = 1; i < parts.length; i++) {
      out += (n-- > 0 ? r : o) + (parts[i] as string);
      checkStringSize(out);
    }
    return out;
  },
  startswith: (s, prefix) => prefixes(prefix).some((p) => s.startsWith(p)),
  endswith: (s, suffix) => prefixes(suffix).some((p) => s.endsWith(p)),
  join: (s, items) => {
    if (!Array.isArray(items)) throw fault('TypeError', 'can only join a list');
    return checkStringSize(items.map((x) => text(x, 'sequence item')).join(s));
  },
  find: (s, sub) => s.indexOf(text(sub, 'find() argument')),
  rfind: (s, sub) => s.lastIndexOf(text(sub, 'rfind() argument')),
  count: (s, sub) => {
    const t = text(sub, 'count() argument');
    return t === '' ? s.length + 1 : s.split(t).length - 1;
  },
  isdigit: (s) => /^\p{Nd}+$/u.test(s),
  isnumeric: (s) => /^\p{N}+$/u.test(s),
  isdecimal: (s) => /^\p{Nd}+$/u.test(s),
  isalpha: (s) => /^\p{L}+$/u.test(s),
  isalnum: (s) => /^[\p{L}\p{N}]+$/u.test(s),
  islower: (s) => /\p{Ll}/u.test(s) && s === s.toLowerCase(),
  isupper: (s) => /\p{Lu}/u.test(s) && s === s.toUpperCase(),
  isspace: (s) => /^\s+$/.test(s),
  zfill: (s, width) => {
    const w = checkStringSize(typeof width === 'number' ? width : 0);
    const sign = /^[+-]/.test(s) ? (s[0] as string) : '';
    return sign + s.slice(sign.length).padStart(w - sign.length, '0');
  },
  ljust: (s, width, fill) => s.padEnd(checkStringSize(Number(width) || 0), typeof fill === 'string' ? fill : ' '),
  rjust: (s, width, fill) => s.padStart(checkStringSize(Number(width) || 0), typeof fill === 'string' ? fill : ' '),
  center: (s, width) => {
    const w = checkStringSize(Number(width) || 0);
    const pad = Math.max(0, w - s.length);
    return ' '.repeat(Math.floor(pad / 2)) + s + ' '.repeat(Math.ceil(pad / 2));
  },
  format: (s, ...args) => checkStringSize(strFormat(s, args)),
};

const LIST: Record<string, Method<unknown[]>> = {
  count: (list, x) => list.filter((item) => pyEquals(item, x)).length,
  index: (list, x) => {
    const i = list.findIndex((item) => pyEquals(item, x));
    if (i === -1) throw fault('ValueError', 'value is not in list');
    return i;
  },
};

const DICT: Record<string, Method<Record<string, unknown>>> = {
  items: (d) => dictEntries(d).map((pair) => tupleOf(pair)),
  keys: (d) => dictKeys(d),
  values: (d) => Object.values(d),
  get: (d, key, fallback) => {
    const property = propertyOf(key);
    return property !== undefined && Object.hasOwn(d, property) ? d[property] : (fallback ?? null);
  },
  __contains__: (d, key) => contains(key, d),
};

function bind<T>(table: Record<string, Method<T>>, self: T, name: string): ((...args: unknown[]) => unknown) | undefined {
  if (!Object.hasOwn(table, name)) return undefined;
  const method = table[name] as Method<T>;
  return templateCallable((...args: unknown[]) => method(self, ...args));
}

/** `value.name` when it is one of the Python methods above, bound to the value; undefined otherwise. */
export function pyMethod(value: unknown, name: string): ((...args: unknown[]) => unknown) | undefined {
  if (typeof value === 'string') return bind(STR, value, name);
  if (Array.isArray(value)) return bind(LIST, value, name);
  if (isPlainObject(value) && !(value instanceof TemplateObject)) return bind(DICT, value, name);
  return undefined;
}
