import { createHash } from 'node:crypto';
import { slugify } from '../core/entity-id.js';
import { setOwn } from '../core/own-keys.js';
import { fault } from './errors.js';
import { isPlainObject, TemplateObject, templateCallable } from './objects.js';
import { num, PyFloat, pyFloat } from './py-float.js';
import { pyRepr, pyStr } from './py-format.js';
import { propertyOf } from './py-keys.js';
import { contains, percentFormat } from './py-ops.js';
import { checkStringSize, undefinedFault } from './scope.js';

/** Small functions and filters: range, namespace-free helpers, string and hash filters, average, median. */

/** Jinja's sandbox allows ranges of at most this many items (MAX_RANGE). */
export const MAX_RANGE = 100_000;

function range(...args: unknown[]): number[] {
  const nums = args.map((a) => {
    if (typeof a !== 'number' || !Number.isInteger(a)) throw fault('TypeError', `range() arguments must be integers, not ${pyStr(a)}`);
    return a;
  });
  const [start, stop, stepBy] = nums.length === 1 ? [0, nums[0] as number, 1] : [nums[0] ?? 0, nums[1] ?? 0, nums[2] ?? 1];
  if (stepBy === 0) throw fault('ValueError', 'range() arg 3 must not be zero');
  const length = Math.max(0, Math.ceil((stop - start) / stepBy));
  if (length > MAX_RANGE) throw fault('OutputTooLarge', `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`);
  const out: number[] = [];
  for (let i = 0; i < length; i++) out.push(start + i * stepBy);
  return out;
}

class Cycler extends TemplateObject {
  override readonly pyType = 'Cycler';
  private index = 0;
  constructor(private readonly items: unknown[]) {
    super();
  }
  getAttr(name: string): unknown {
    if (name === 'current') return this.items[this.index];
    if (name === 'next') {
      return templateCallable(() => {
        const v = this.items[this.index];
        this.index = (this.index + 1) % Math.max(1, this.items.length);
        return v;
      });
    }
    if (name === 'reset') {
      return templateCallable(() => {
        this.index = 0;
        return '';
      });
    }
    return undefined;
  }
  pyStr(): string {
    return '<Cycler>';
  }
}

/** Jinja's namespace(): the one object a template may change, so loops can carry values out. */
export class Namespace extends TemplateObject {
  override readonly pyType = 'Namespace';
  private readonly values = new Map<string, unknown>();

  constructor(initial: Record<string, unknown>) {
    super();
    for (const [k, v] of Object.entries(initial)) if (k !== '__keywords') this.values.set(k, v);
  }

  getAttr(name: string): unknown {
    return this.values.get(name);
  }

  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  pyStr(): string {
    return `<Namespace ${pyRepr(Object.fromEntries(this.values))}>`;
  }
}

/** `{% set ns.x = value %}`: only a namespace's attributes can be assigned. */
export function setAttr(target: unknown, key: unknown, value: unknown): void {
  if (!(target instanceof Namespace)) throw fault('TemplateRuntimeError', 'Cannot assign attribute on non-namespace object');
  target.set(pyStr(key), value);
}

function hash(algorithm: string) {
  return (value: unknown) => createHash(algorithm).update(pyStr(value)).digest('hex');
}

export const MISC_GLOBALS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  range,
  cycler: (...items) => new Cycler(items),
  namespace: (...args) => {
    const initial: Record<string, unknown> = {};
    for (const arg of args)
      if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) for (const [k, v] of Object.entries(arg)) setOwn(initial, k, v);
    return new Namespace(initial);
  },
  joiner: (sep) => {
    let first = true;
    return templateCallable(() => {
      if (first) {
        first = false;
        return '';
      }
      return sep === undefined ? ', ' : pyStr(sep);
    });
  },
  // Python's dict(mapping_or_pairs, **kwargs): a copy of a dict, or a dict of (key, value) pairs, then the keywords.
  dict: (...args) => {
    const last = args[args.length - 1];
    const keywords = typeof last === 'object' && last !== null && (last as { __keywords?: unknown }).__keywords === true;
    const first = keywords ? (args[0] === last ? undefined : args[0]) : args[0];
    const out: Record<string, unknown> = {};
    if (isPlainObject(first)) {
      for (const [k, v] of Object.entries(first)) if (k !== '__keywords') setOwn(out, k, v);
    } else if (Array.isArray(first)) {
      for (const pair of first) {
        if (!Array.isArray(pair) || pair.length !== 2) throw fault('TypeError', 'dict() takes a mapping or a list of (key, value) pairs');
        setOwn(out, propertyOf(pair[0]) ?? pyStr(pair[0]), pair[1]);
      }
    } else if (first !== undefined) {
      throw fault('TypeError', `'${pyStr(first)}' object is not iterable as (key, value) pairs`);
    }
    if (keywords) for (const [k, v] of Object.entries(last as object)) if (k !== '__keywords') setOwn(out, k, v);
    return out;
  },
};

function sliceBound(v: unknown, what: string): number | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw fault('TypeError', `slice ${what} must be an integer or None`);
  return v;
}

/** Python's `seq[start:stop:step]` on a string or list (what `x[1:3]` compiles to). */
export function slice(value: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  if (value === undefined) throw undefinedFault();
  const text = typeof value === 'string' ? value : undefined;
  if (text === undefined && !Array.isArray(value)) throw fault('TypeError', `'${pyStr(value)}' cannot be sliced`);
  const seq: readonly unknown[] = text !== undefined ? [...text] : (value as unknown[]);
  const n = seq.length;
  const by = sliceBound(step, 'step') ?? 1;
  if (by === 0) throw fault('ValueError', 'slice step cannot be zero');
  const norm = (v: number | undefined, fallback: number, lo: number, hi: number) =>
    v === undefined ? fallback : Math.min(hi, Math.max(lo, v < 0 ? v + n : v));
  const out: unknown[] = [];
  if (by > 0) {
    const hi = norm(sliceBound(stop, 'stop'), n, 0, n);
    for (let i = norm(sliceBound(start, 'start'), 0, 0, n); i < hi; i += by) out.push(seq[i]);
  } else {
    const lo = norm(sliceBound(stop, 'stop'), -1, -1, n - 1);
    for (let i = norm(sliceBound(start, 'start'), n - 1, -1, n - 1); i > lo; i += by) out.push(seq[i]);
  }
  return text !== undefined ? out.join('') : out;
}

export const MISC_FILTERS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  __slice: (value, start, stop, step) => slice(value, start, stop, step),
  string: (v) => pyStr(v),
  format: (v, ...args) => percentFormat(pyStr(v), args),
  contains: (v, item) => contains(item, v),
  is_defined: (v) => {
    if (v === undefined) throw undefinedFault();
    return v;
  },
  abs: (v) => {
    const n = num(v);
    if (n === undefined || typeof v === 'boolean') throw fault('TypeError', `bad operand type for abs(): '${pyStr(v)}'`);
    return v instanceof PyFloat ? pyFloat(Math.abs(n)) : Math.abs(n);
  },
  center: (v, width) => {
    const s = pyStr(v);
    const w = checkStringSize(typeof width === 'number' ? width : 80);
    const pad = Math.max(0, w - s.length);
    return ' '.repeat(Math.floor(pad / 2)) + s + ' '.repeat(Math.ceil(pad / 2));
  },
  indent: (v, width, first) => {
    const w = checkStringSize(typeof width === 'number' ? width : 4);
    const pad = ' '.repeat(w);
    const lines = pyStr(v).split('\n');
    return checkStringSize(lines.map((l, i) => ((i === 0 && first !== true) || l === '' ? l : pad + l)).join('\n'));
  },
  replace: (v, old, replacement, count) => {
    const s = pyStr(v);
    const o = pyStr(old);
    const r = pyStr(replacement);
    if (o === '') return s;
    let n = typeof count === 'number' && count >= 0 ? count : Number.POSITIVE_INFINITY;
    const parts = s.split(o);
    let out = parts[0] as string;
    for (let i = 1; i < parts.length; i++) out = checkStringSize(out + (n-- > 0 ? r : o) + (parts[i] as string));
    return out;
  },
  title: (v) =>
    pyStr(v)
      .toLowerCase()
      .replace(/(^|[^\p{L}])(\p{L})/gu, (_m, pre: string, ch: string) => pre + ch.toUpperCase()),
  slugify: (v, separator) => {
    const s = slugify(pyStr(v));
    return typeof separator === 'string' ? s.replaceAll('_', separator) : s;
  },
  md5: hash('md5'),
  sha1: hash('sha1'),
  sha256: hash('sha256'),
  sha512: hash('sha512'),
  ordinal: (v) => {
    const n = Math.trunc(Number(v));
    const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
    return `${n}${suffix}`;
  },
};
