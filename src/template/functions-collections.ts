import { setOwn } from '../core/own-keys.js';
import { readArgs } from './args.js';
import { fault } from './errors.js';
import { iterationItems } from './iterate.js';
import { isPlainObject, splitArgs, TemplateObject } from './objects.js';
import { hashKey, isList, PySet, PyTuple, setOf, tupleOf } from './py-collections.js';
import { pyTypeName } from './py-format.js';
import { dictEntries } from './py-keys.js';
import { step } from './scope.js';

/**
 * Home Assistant's collection extension: set() and tuple(), flatten, the set operations (as filters and
 * functions), zip, shuffle, combine, merge_response, and the list/set/tuple tests.
 */

type Fn = (...args: unknown[]) => unknown;

/** The items of an iterable argument; a TypeError naming the function when it is not one. */
function itemsOf(value: unknown, fn: string): unknown[] {
  if (
    Array.isArray(value) ||
    typeof value === 'string' ||
    isPlainObject(value) ||
    value instanceof TemplateObject ||
    typeof value === 'function'
  ) {
    try {
      return iterationItems(value) as unknown[];
    } catch {
      // falls through to the error below
    }
  }
  throw fault('TypeError', `${fn} expected a list, got ${pyTypeName(value)}`);
}

function flatten(...args: unknown[]): unknown {
  const a = readArgs('flatten', args, ['value', 'levels']);
  if (!Array.isArray(a.values.value)) throw fault('TypeError', `flatten expected a list, got ${pyTypeName(a.values.value)}`);
  const levels = typeof a.values.levels === 'number' ? a.values.levels : Number.POSITIVE_INFINITY;
  const out: unknown[] = [];
  const walk = (items: readonly unknown[], depth: number): void => {
    for (const item of items) {
      step();
      if (Array.isArray(item) && depth < levels) walk(item, depth + 1);
      else out.push(item);
    }
  };
  walk(a.values.value, 0);
  return out;
}

/** A set operation of `value` with every other argument. */
function setOperation(name: string, combine: (a: PySet, b: PySet) => unknown[]): Fn {
  return (value, ...others) => {
    let acc = setOf(itemsOf(value, name));
    if (others.length === 0) throw fault('TypeError', `${name} expected at least 2 arguments, got 1`);
    for (const other of others) acc = setOf(combine(acc, setOf(itemsOf(other, name))));
    return [...acc];
  };
}

const has = (set: PySet, item: unknown): boolean => {
  const key = hashKey(item);
  return set.some((x) => (key === undefined ? x === item : hashKey(x) === key));
};

function zip(...args: unknown[]): unknown[] {
  const lists = args.map((a) => itemsOf(a, 'zip'));
  const n = lists.length === 0 ? 0 : Math.min(...lists.map((l) => l.length));
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    step();
    out.push(tupleOf(lists.map((l) => l[i])));
  }
  return out;
}

/** A small seeded generator (mulberry32): the same seed shuffles the same way, as random.Random(seed) does (not the same order). */
function seeded(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(...args: unknown[]): unknown[] {
  const { positional, kwargs } = splitArgs(args);
  if (positional.length === 0) throw fault('TypeError', 'shuffle expected at least 1 argument, got 0');
  const items = [...(positional.length === 1 ? itemsOf(positional[0], 'shuffle') : positional)];
  const seed = kwargs.seed;
  const random =
    seed === undefined || seed === null
      ? Math.random
      : seeded(typeof seed === 'number' ? seed : [...String(seed)].reduce((h, c) => Math.imul(h, 31) + (c.codePointAt(0) ?? 0), 7));
  for (let i = items.length - 1; i > 0; i--) {
    step();
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

function merge(target: Record<string, unknown>, source: Record<string, unknown>, recursive: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(source)) {
    step();
    const old = out[k];
    setOwn(out, k, recursive && isPlainObject(old) && isPlainObject(v) ? merge(old, v, true) : v);
  }
  return out;
}

function combine(...args: unknown[]): unknown {
  const { positional, kwargs } = splitArgs(args);
  if (positional.length === 0) throw fault('TypeError', 'combine expected at least 1 argument, got 0');
  let out: Record<string, unknown> = {};
  for (const d of positional) {
    if (!isPlainObject(d)) throw fault('TypeError', `combine expected a dict, got ${pyTypeName(d)}`);
    out = merge(out, d, kwargs.recursive === true);
  }
  return out;
}

/** merge_response: the responses of a service call on several entities as one list, each item naming its entity. */
function mergeResponse(value: unknown): unknown[] {
  if (!isPlainObject(value)) throw fault('TypeError', 'TypeError: Response is not a dictionary');
  const items: unknown[] = [];
  for (const [entityId, response] of Object.entries(value)) {
    if (!isPlainObject(response)) throw fault('TypeError', 'TypeError: Response is not a dictionary');
    const keys = Object.keys(response);
    const only = keys.length === 1 ? response[keys[0] as string] : undefined;
    if (Array.isArray(only)) {
      for (const item of only) {
        step();
        if (!isPlainObject(item)) {
          items.push(item);
          continue;
        }
        if (Object.hasOwn(item, 'entity_id')) throw fault('ValueError', "ValueError: Response dictionary already contains key 'entity_id'");
        items.push({ ...item, entity_id: entityId, value_key: keys[0] });
      }
      continue;
    }
    if (Object.hasOwn(response, 'entity_id')) throw fault('ValueError', "ValueError: Response dictionary already contains key 'entity_id'");
    items.push({ ...response, entity_id: entityId });
  }
  return items;
}

/** Both a function and a filter in Home Assistant. */
export const COLLECTION_FUNCTIONS: Readonly<Record<string, Fn>> = {
  flatten,
  intersect: setOperation('intersect', (a, b) => a.filter((x) => has(b, x))),
  difference: setOperation('difference', (a, b) => a.filter((x) => !has(b, x))),
  union: setOperation('union', (a, b) => [...a, ...b]),
  symmetric_difference: setOperation('symmetric_difference', (a, b) => [...a.filter((x) => !has(b, x)), ...b.filter((x) => !has(a, x))]),
  shuffle,
  combine,
  merge_response: mergeResponse,
};

/** Jinja's `items` filter: a dict's (key, value) pairs; an undefined value gives none. */
export function items(value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!isPlainObject(value)) throw fault('TypeError', `Can only get item pairs from a mapping, got ${pyTypeName(value)}`);
  return dictEntries(value).map(([k, v]) => tupleOf([k, v]));
}

export const COLLECTION_GLOBALS: Readonly<Record<string, Fn>> = {
  zip,
  set: (...args) => (args.length === 0 ? setOf([]) : setOf(itemsOf(args[0], 'set'))),
  tuple: (...args) => (args.length === 0 ? tupleOf([]) : tupleOf(itemsOf(args[0], 'tuple'))),
};

/** Python's sequence unpacking, for `{% set a, b = pair %}`. */
export function unpack(value: unknown, count: number): unknown[] {
  const items = iterationItems(value);
  if (!Array.isArray(items)) throw fault('TypeError', `cannot unpack non-iterable ${pyTypeName(value)} object`);
  if (items.length < count) throw fault('ValueError', `not enough values to unpack (expected ${count}, got ${items.length})`);
  if (items.length > count) throw fault('ValueError', `too many values to unpack (expected ${count})`);
  return items;
}

export const COLLECTION_TESTS: Readonly<Record<string, (value: unknown) => boolean>> = {
  list: (v) => isList(v),
  set: (v) => v instanceof PySet,
  tuple: (v) => v instanceof PyTuple,
};
