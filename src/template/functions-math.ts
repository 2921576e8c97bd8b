import { readArgs } from './args.js';
import { fault } from './errors.js';
import { noDefault, toFloat, toInt } from './functions-values.js';
import { isPlainObject, splitArgs, TemplateObject } from './objects.js';
import { tupleOf } from './py-collections.js';
import { num, pyFloat } from './py-float.js';
import { pyRepr, pyTypeName } from './py-format.js';
import { dictKeys } from './py-keys.js';
import { step, undefinedFault } from './scope.js';

/**
 * Home Assistant's math extension: constants, logarithm and trigonometry with a default, square root,
 * the statistics (average, median, statistical_mode) over a list or over their arguments, bitwise
 * operations, clamp, wrap and remap, and the multiply/add filters. Results are Python floats where
 * HA's are (`{{ sqrt(4) }}` is `2.0`).
 */

type Fn = (...args: unknown[]) => unknown;

/**
 * Python's float() of a template value: strings are parsed, a bool is 0 or 1, anything else fails. An
 * undefined value is an error whatever the default (Jinja's Undefined raises on float()).
 */
function pyFloatOf(value: unknown): number | undefined {
  if (value === undefined) throw undefinedFault();
  if (value === null) return undefined;
  return toFloat(value);
}

/** One argument and an optional default (positional or keyword), as HA's sine(value, default=...). */
function unary(name: string, compute: (x: number) => number): Fn {
  return (...args) => {
    const a = readArgs(name, args, ['value', 'default']);
    const x = pyFloatOf(a.values.value);
    const out = x === undefined ? Number.NaN : compute(x);
    if (x === undefined || Number.isNaN(out)) {
      if (a.has('default')) return a.values.default;
      throw noDefault(name, a.values.value);
    }
    return pyFloat(out);
  };
}

function log(...args: unknown[]): unknown {
  const a = readArgs('log', args, ['value', 'base', 'default']);
  const x = pyFloatOf(a.values.value);
  const base = a.has('base') ? pyFloatOf(a.values.base) : Math.E;
  const out = x === undefined || base === undefined || x <= 0 || base <= 0 || base === 1 ? Number.NaN : Math.log(x) / Math.log(base);
  if (Number.isNaN(out)) {
    if (a.has('default')) return a.values.default;
    throw noDefault('log', a.values.value);
  }
  return pyFloat(out);
}

function atan2(...args: unknown[]): unknown {
  const { positional, kwargs } = splitArgs(args);
  let values = positional;
  let fallback: { value: unknown } | undefined = Object.hasOwn(kwargs, 'default') ? { value: kwargs.default } : undefined;
  if (values.length === 1 && Array.isArray(values[0])) values = values[0] as unknown[];
  else if (values.length === 3) {
    fallback = { value: values[2] };
    values = values.slice(0, 2);
  }
  const y = pyFloatOf(values[0]);
  const x = pyFloatOf(values[1]);
  if (values.length !== 2 || y === undefined || x === undefined) {
    if (fallback !== undefined) return fallback.value;
    throw noDefault('atan2', positional.length === 1 ? positional[0] : positional);
  }
  return pyFloat(Math.atan2(y, x));
}

/** A number as Python's statistics functions take it (ints, floats, bools); strings are not numbers there. */
function statNumber(value: unknown): number | undefined {
  return typeof value === 'string' ? undefined : num(value);
}

function isIterable(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    Array.isArray(value) ||
    isPlainObject(value) ||
    (value instanceof TemplateObject && value.iterate() !== undefined)
  );
}

function itemsOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPlainObject(value)) return dictKeys(value);
  return (value as TemplateObject).iterate() ?? [];
}

/**
 * HA's statistics: `f([1, 2])` or `f(1, 2)`; with a list first, a second argument is the default. Bad or
 * no values give the default, else an error.
 */
function statistic<T>(
  name: string,
  compute: (values: T[]) => unknown,
  read: (v: unknown) => T | undefined = statNumber as (v: unknown) => T | undefined,
): Fn {
  return (...args) => {
    const { positional, kwargs } = splitArgs(args);
    let fallback: { value: unknown } | undefined = Object.hasOwn(kwargs, 'default') ? { value: kwargs.default } : undefined;
    if (positional.length === 0) throw fault('TypeError', `${name} expected at least 1 argument, got 0`);
    let values: unknown[];
    if (isIterable(positional[0])) {
      values = itemsOf(positional[0]);
      if (positional.length > 1 && fallback === undefined) fallback = { value: positional[1] };
    } else if (positional.length === 1) throw fault('TypeError', `'${pyTypeName(positional[0])}' object is not iterable`);
    else values = positional;
    const numbers: T[] = [];
    for (const v of values) {
      step();
      const n = read(v);
      if (n === undefined) {
        numbers.length = 0;
        break;
      }
      numbers.push(n);
    }
    if (numbers.length === 0 || numbers.length !== values.length) {
      if (fallback !== undefined) return fallback.value;
      throw noDefault(name, tupleOf(positional));
    }
    return compute(numbers);
  };
}

const average = statistic<number>('average', (n) => pyFloat(n.reduce((x, y) => x + y, 0) / n.length));
const median = statistic<number>('median', (n) => {
  const s = [...n].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : pyFloat(((s[mid - 1] as number) + (s[mid] as number)) / 2);
});
/** statistics.mode: the most common value, the first seen on a tie. */
const statisticalMode = statistic(
  'statistical_mode',
  (n) => {
    const counts = new Map<unknown, number>();
    let best = n[0];
    for (const v of n) {
      step();
      const c = (counts.get(v) ?? 0) + 1;
      counts.set(v, c);
      if (c > (counts.get(best) ?? 0)) best = v;
    }
    return best;
  },
  (v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : num(v)),
);

function bitwise(name: string, op: (a: bigint, b: bigint) => bigint): Fn {
  return (first, second) => {
    const a = toInt(first);
    const b = toInt(second);
    if (a === undefined || b === undefined)
      throw fault('TypeError', `unsupported operand type(s) for ${name}: '${pyTypeName(first)}' and '${pyTypeName(second)}'`);
    return Number(op(BigInt(a), BigInt(b)));
  };
}

/** The three floats of clamp and wrap; HA's ValueError otherwise. */
function threeFloats(values: unknown[]): [number, number, number] {
  const out = values.map(pyFloatOf);
  if (out.some((v) => v === undefined)) {
    const [value, min, max] = values.map((v) => pyRepr(v));
    throw fault('ValueError', `function requires numeric arguments, got value=${value}, min_value=${min}, max_value=${max}`);
  }
  return out as [number, number, number];
}

/** Python's float modulo: the result takes the divisor's sign. */
function pyMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

function pyRound(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function remap(...args: unknown[]): unknown {
  const a = readArgs('remap', args, ['value', 'in_min', 'in_max', 'out_min', 'out_max', 'steps', 'edges']);
  const names = ['value', 'in_min', 'in_max', 'out_min', 'out_max'] as const;
  const nums = names.map((k) => pyFloatOf(a.values[k]));
  if (nums.some((v) => v === undefined))
    throw fault('ValueError', `function requires numeric arguments, got ${names.map((k) => `${k}=${pyRepr(a.values[k])}`).join(', ')}`);
  let [value, inMin, inMax, outMin, outMax] = nums as number[] as [number, number, number, number, number];
  const size = inMax - inMin;
  const edges = a.values.edges ?? 'none';
  if ((edges === 'wrap' || edges === 'mirror') && size === 0)
    throw fault('ValueError', `in_min=${pyRepr(a.values.in_min)} must not equal in_max=${pyRepr(a.values.in_max)}`);
  // Edges apply in the input's own space, as HA's (more exact than on the normalized value).
  if (edges === 'clamp') value = Math.max(inMin, Math.min(inMax, value));
  else if (edges === 'wrap') value = pyMod(value - inMin, size) + inMin;
  else if (edges === 'mirror') {
    const offset = value - inMin;
    const period = Math.floor(offset / size);
    let position = offset - period * size;
    if (period < 0 || period % 2 !== 0) position = size - position;
    value = inMin + position;
  }
  const steps = Math.max(toInt(a.values.steps ?? 0) ?? 0, 0);
  if (steps === 0 && inMin === outMin && inMax === outMax) return pyFloat(value);
  if (size === 0) throw fault('ZeroDivisionError', 'float division by zero');
  let normalized = (value - inMin) / size;
  if (steps > 0) normalized = pyRound(normalized * steps) / steps;
  return pyFloat(outMin + normalized * (outMax - outMin));
}

/** multiply/add: float(value) <op> amount, or the default. */
function arithmetic(name: string, op: (a: number, b: number) => number): Fn {
  return (...args) => {
    const a = readArgs(name, args, ['value', 'amount', 'default']);
    const x = pyFloatOf(a.values.value);
    const amount = num(a.values.amount);
    if (x === undefined || amount === undefined) {
      if (a.has('default')) return a.values.default;
      throw noDefault(name, a.values.value);
    }
    return pyFloat(op(x, amount));
  };
}

/** Both a function and a filter in Home Assistant. */
export const MATH_FUNCTIONS: Readonly<Record<string, Fn>> = {
  log,
  sin: unary('sin', Math.sin),
  cos: unary('cos', Math.cos),
  tan: unary('tan', Math.tan),
  asin: unary('asin', (x) => (x < -1 || x > 1 ? Number.NaN : Math.asin(x))),
  acos: unary('acos', (x) => (x < -1 || x > 1 ? Number.NaN : Math.acos(x))),
  atan: unary('atan', Math.atan),
  atan2,
  sqrt: unary('sqrt', (x) => (x < 0 ? Number.NaN : Math.sqrt(x))),
  average,
  median,
  statistical_mode: statisticalMode,
  bitwise_and: bitwise('&', (x, y) => BigInt.asIntN(64, x & y)),
  bitwise_or: bitwise('|', (x, y) => BigInt.asIntN(64, x | y)),
  bitwise_xor: bitwise('^', (x, y) => BigInt.asIntN(64, x ^ y)),
  clamp: (value, min, max) => {
    const [v, lo, hi] = threeFloats([value, min, max]);
    return pyFloat(Math.max(lo, Math.min(hi, v)));
  },
  wrap: (value, min, max) => {
    const [v, lo, hi] = threeFloats([value, min, max]);
    const size = hi - lo;
    return pyFloat(size === 0 ? lo : lo + pyMod(v - lo, size));
  },
  remap,
};

export const MATH_FILTERS: Readonly<Record<string, Fn>> = {
  multiply: arithmetic('multiply', (x, y) => x * y),
  add: arithmetic('add', (x, y) => x + y),
};

export const MATH_CONSTANTS: Readonly<Record<string, unknown>> = { e: Math.E, pi: Math.PI, tau: Math.PI * 2 };
