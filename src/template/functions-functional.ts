import { readArgs } from './args.js';
import { fault } from './errors.js';
import { isCallableFromTemplate, isPlainObject, splitArgs, TemplateObject, templateCallable } from './objects.js';
import { pyStr, pyTypeName } from './py-format.js';
import { dictEntries } from './py-keys.js';
import { step } from './scope.js';

/** typeof, ord, version, apply, as_function and natural_sort: HA's functional and debugging helpers. */

type Fn = (...args: unknown[]) => unknown;

function callable(fn: unknown, what: string): Fn {
  if (!isCallableFromTemplate(fn)) throw fault('TypeError', `'${pyTypeName(fn)}' object is not callable (${what})`);
  return fn as Fn;
}

/** apply(value, fn, *args, **kwargs): fn(value, *args, **kwargs); `map('apply', fn)` calls it per item. */
function apply(value: unknown, fn: unknown, ...rest: unknown[]): unknown {
  return callable(fn, 'apply').apply(undefined, [value, ...rest]);
}

/** as_function(macro): a function whose result is what the macro passed to its last argument, `returns`. */
function asFunction(macro: unknown): Fn {
  const fn = callable(macro, 'as_function');
  return templateCallable((...args: unknown[]) => {
    let result: unknown = null;
    const returns = templateCallable((value: unknown) => {
      result = value;
      return '';
    });
    const { positional, kwargs } = splitArgs(args);
    const call = [...positional, returns];
    if (Object.keys(kwargs).length > 0) call.push({ ...kwargs, __keywords: true });
    fn.apply(undefined, call);
    return result;
  });
}

/** AwesomeVersion as HA's `version` gives it: prints as the text, compares with versions and strings. */
export class Version extends TemplateObject {
  override readonly pyType = 'AwesomeVersion';
  private readonly parts: readonly (number | string)[];
  constructor(readonly text: string) {
    super();
    this.parts = text
      .replace(/^v/i, '')
      .split(/[.\-+]/)
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  }
  getAttr(name: string): unknown {
    if (name === 'major' || name === 'minor' || name === 'patch') return this.parts[['major', 'minor', 'patch'].indexOf(name)] ?? null;
    return undefined;
  }
  pyStr(): string {
    return this.text;
  }
  override pyRepr(): string {
    return `<AwesomeVersion ${this.text}>`;
  }
  override pyEquals(other: unknown): boolean {
    return this.pyCompare(other) === 0;
  }
  override pyCompare(other: unknown): number | undefined {
    const that = other instanceof Version ? other : typeof other === 'string' ? new Version(other) : undefined;
    if (that === undefined) return undefined;
    const n = Math.max(this.parts.length, that.parts.length);
    for (let i = 0; i < n; i++) {
      const a = this.parts[i] ?? 0;
      const b = that.parts[i] ?? 0;
      if (a === b) continue;
      if (typeof a === 'number' && typeof b === 'number') return a - b;
      // A pre-release tag (`b1`) sorts before the release.
      if (typeof a === 'number') return 1;
      if (typeof b === 'number') return -1;
      return a < b ? -1 : 1;
    }
    return 0;
  }
}

function version(value: unknown): Version {
  if (typeof value !== 'string' && typeof value !== 'number') throw fault('ValueError', `'${pyStr(value)}' is not a valid version`);
  return new Version(String(value));
}

/** natsort's key with ns.REAL: signed floats (exponents too) compare as numbers, the text between as text. */
function naturalKey(value: unknown, lowercaseFirst: boolean): (number | string)[] {
  let text = pyStr(value);
  if (lowercaseFirst) text = [...text].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  const key: (number | string)[] = [];
  const re = /[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    step();
    const at = m.index ?? 0;
    key.push(text.slice(last, at), Number(m[0]));
    last = at + m[0].length;
  }
  key.push(text.slice(last));
  return key;
}

function compareKeys(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as number | string;
    const y = b[i] as number | string;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : 1;
    return typeof x === 'number' ? -1 : 1;
  }
  return a.length - b.length;
}

function naturalSort(...args: unknown[]): unknown[] {
  const a = readArgs('natural_sort', args, ['value', 'reverse', 'key', 'alg']);
  const items = a.values.value;
  if (!Array.isArray(items)) throw fault('TypeError', `natural_sort expected a list, got ${pyTypeName(items)}`);
  const lowercaseFirst = typeof a.values.alg === 'string' && /LOWERCASEFIRST/.test(a.values.alg);
  const pick = (item: unknown): unknown => {
    const k = a.values.key;
    if (k === undefined || k === null) return item;
    if (Array.isArray(item) && typeof k === 'number') return item.at(k);
    if (isPlainObject(item) && typeof k === 'string' && Object.hasOwn(item, k)) return item[k];
    return undefined;
  };
  const keyed = items.map((item) => ({ item, key: naturalKey(pick(item), lowercaseFirst) }));
  keyed.sort((x, y) => {
    step();
    return compareKeys(x.key, y.key);
  });
  if (a.values.reverse === true) keyed.reverse();
  return keyed.map((k) => k.item);
}

/** Both a function and a filter in Home Assistant. */
export const FUNCTIONAL_FUNCTIONS: Readonly<Record<string, Fn>> = {
  typeof: (value) => pyTypeName(value),
  version,
  apply: (value, fn, ...rest) => apply(value, fn, ...rest),
  natural_sort: naturalSort,
};

/** Python's urllib.parse.quote: letters, digits and `_.-~` stay, and the safe characters given. */
function quote(text: string, safe: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9_.\-~]/.test(c) || safe.includes(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Jinja's urlencode: a string quoted (`/` kept), a dict or pairs as a query string (spaces as `+`). */
function urlencode(value: unknown): string {
  const forQuery = (v: unknown) => quote(pyStr(v), '').replaceAll('%20', '+');
  let pairs: [unknown, unknown][] | undefined;
  if (isPlainObject(value)) pairs = dictEntries(value);
  else if (Array.isArray(value) && value.every((p) => Array.isArray(p) && p.length === 2)) pairs = value as [unknown, unknown][];
  if (pairs === undefined) return quote(pyStr(value), '/');
  return pairs.map(([k, v]) => `${forQuery(k)}=${forQuery(v)}`).join('&');
}

/** Jinja's random: an item of a sequence; anything else is an error (`now() | random`). */
function random(value: unknown): unknown {
  let items: readonly unknown[];
  if (typeof value === 'string') items = [...value];
  else if (Array.isArray(value)) items = value;
  else if (value instanceof TemplateObject && value.iterate() !== undefined && value.pyType !== 'datetime.datetime')
    items = value.iterate() ?? [];
  else throw fault('TypeError', `object of type '${pyTypeName(value)}' has no len()`);
  return items.length === 0 ? undefined : items[Math.floor(Math.random() * items.length)];
}

export const FUNCTIONAL_FILTERS: Readonly<Record<string, Fn>> = {
  urlencode,
  random,
  ord: (value) => {
    const s = pyStr(value);
    if ([...s].length !== 1) throw fault('TypeError', `ord() expected a character, but string of length ${[...s].length} found`);
    return s.codePointAt(0);
  },
  as_function: asFunction,
  __discard: () => '',
};
