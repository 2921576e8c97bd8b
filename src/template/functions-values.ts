import { setOwn } from '../core/own-keys.js';
import { readArgs } from './args.js';
import { PyDateTime, PyTimedelta } from './datetime.js';
import { fault } from './errors.js';
import { FORBIDDEN_NAMES } from './forbidden.js';
import { isPlainObject, itemsOfFunction, TemplateObject } from './objects.js';
import { PyFloat, pyFloat } from './py-float.js';
import { pyStr, pyTruthy } from './py-format.js';
import { dictKeys, jsonKeysOf } from './py-keys.js';
import { pyOrder } from './py-ops.js';
import { currentScope, step } from './scope.js';

/**
 * Home Assistant's value functions, each usable as a function and as a filter: float, int, bool with a
 * default (without one, bad input is an error naming the value, as in Home Assistant), round with a method,
 * iif, min/max, to_json/from_json, is_number.
 */

/** Home Assistant's error for bad input to a function that got no default. */
export function noDefault(fn: string, value: unknown): Error {
  const where = currentScope()?.templateName ?? 'template';
  return fault(
    'ValueError',
    `Template error: ${fn} got invalid input '${pyStr(value)}' when rendering template '${where}' but no default was specified`,
  );
}

const FLOAT_TEXT = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;

/** Python's float(): undefined when it would raise. */
export function toFloat(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value instanceof PyFloat) return value.value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (FLOAT_TEXT.test(s)) return Number(s.replaceAll('_', ''));
  const lower = s.toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(lower)) return lower.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (/^[+-]?nan$/.test(lower)) return Number.NaN;
  return undefined;
}

/** Jinja's int filter as Home Assistant uses it: int(text, base), else int(float(text)); undefined when neither works. */
export function toInt(value: unknown, base = 10): number | undefined {
  if (typeof value === 'number' || value instanceof PyFloat) {
    const v = Number(value);
    return Number.isFinite(v) ? Math.trunc(v) : undefined;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value !== 'string') return undefined;
  const s = value.trim().replaceAll('_', '');
  const digits =
    base === 16 ? /^[+-]?(0x)?[0-9a-f]+$/i : base === 8 ? /^[+-]?(0o)?[0-7]+$/i : base === 2 ? /^[+-]?(0b)?[01]+$/i : /^[+-]?\d+$/;
  if (digits.test(s)) {
    const sign = s.startsWith('-') ? -1 : 1;
    const body = s.replace(/^[+-]/, '').replace(/^0[xob]/i, '');
    return sign * Number.parseInt(body, base);
  }
  const f = toFloat(value);
  return f === undefined || !Number.isFinite(f) ? undefined : Math.trunc(f);
}

/** cv.boolean: true/yes/on/enable/1 and their opposites, numbers by zero; undefined for anything else. */
export function toBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || value instanceof PyFloat) return Number(value) !== 0;
  if (typeof value !== 'string') return undefined;
  const s = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on', 'enable'].includes(s)) return true;
  if (['0', 'false', 'no', 'off', 'disable'].includes(s)) return false;
  return undefined;
}

export function float(...args: unknown[]): unknown {
  const a = readArgs('float', args, ['value', 'default']);
  const f = toFloat(a.values.value);
  if (f !== undefined) return pyFloat(f);
  if (a.has('default')) return a.values.default;
  throw noDefault('float', a.values.value);
}

export function int(...args: unknown[]): unknown {
  const a = readArgs('int', args, ['value', 'default', 'base']);
  const base = typeof a.values.base === 'number' ? a.values.base : 10;
  const n = toInt(a.values.value, base);
  if (n !== undefined) return n;
  if (a.has('default')) return a.values.default;
  throw noDefault('int', a.values.value);
}

export function bool(...args: unknown[]): unknown {
  const a = readArgs('bool', args, ['value', 'default']);
  const b = toBool(a.values.value);
  if (b !== undefined) return b;
  if (a.has('default')) return a.values.default;
  throw noDefault('bool', a.values.value);
}

/** Python's round(x, n): to the nearest, ties to even. */
function roundHalfEven(x: number, precision: number): number {
  const m = 10 ** precision;
  const y = x * m;
  const r = Math.round(y);
  const tie = Math.abs(y % 1) === 0.5;
  const even = tie && r % 2 !== 0 ? r - 1 : r;
  return even / m;
}

export function round(...args: unknown[]): unknown {
  const a = readArgs('round', args, ['value', 'precision', 'method', 'default']);
  const precision = a.values.precision === undefined ? 0 : toInt(a.values.precision);
  const method = a.values.method ?? 'common';
  const value = toFloat(a.values.value);
  if (value === undefined || precision === undefined) {
    if (a.has('default')) return a.values.default;
    throw noDefault('round', a.values.value);
  }
  const m = 10 ** precision;
  let out: number;
  if (method === 'ceil') out = Math.ceil(value * m) / m;
  else if (method === 'floor') out = Math.floor(value * m) / m;
  else if (method === 'half') out = roundHalfEven(value * 2, 0) / 2;
  else out = roundHalfEven(value, precision);
  return precision === 0 ? Math.trunc(out) : pyFloat(out);
}

export function iif(...args: unknown[]): unknown {
  const a = readArgs('iif', args, ['value', 'if_true', 'if_false', 'if_none']);
  const value = a.values.value;
  if (value === null && a.has('if_none')) return a.values.if_none;
  if (pyTruthy(value)) return a.has('if_true') ? a.values.if_true : true;
  return a.has('if_false') ? a.values.if_false : false;
}

function aggregate(name: 'min' | 'max', items: unknown[], attribute: unknown, caseSensitive: boolean): unknown {
  if (items.length === 0) return undefined;
  const key = (v: unknown): unknown => {
    const picked = typeof attribute === 'string' ? attributePath(v, attribute) : v;
    return !caseSensitive && typeof picked === 'string' ? picked.toLowerCase() : picked;
  };
  let best = items[0];
  for (const item of items.slice(1)) {
    const order = pyOrder(key(item), key(best), name === 'min' ? '<' : '>');
    if ((name === 'min' && order < 0) || (name === 'max' && order > 0)) best = item;
  }
  return best;
}

/** The min/max filter (`[1, 2] | min`) and function (`min(1, 2)`, `min([1, 2])`). */
export function minMax(name: 'min' | 'max', asFunction: boolean): (...args: unknown[]) => unknown {
  return (...args: unknown[]) => {
    const kwargsLast = args[args.length - 1];
    const hasKw = isPlainObject(kwargsLast) && kwargsLast.__keywords === true;
    const positional = hasKw ? args.slice(0, -1) : args;
    const kw = hasKw ? (kwargsLast as Record<string, unknown>) : {};
    let items: unknown;
    if (asFunction && positional.length !== 1) items = positional;
    else items = positional[0];
    if (asFunction && positional.length === 0) throw fault('TypeError', `${name} expected at least 1 argument, got 0`);
    const list = sequenceOf(items, name);
    return aggregate(name, list, kw.attribute, kw.case_sensitive === true);
  };
}

/** The items of a value a filter treats as a sequence (lists, strings, dicts' keys, hearth's iterables). */
export function sequenceOf(value: unknown, what: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isPlainObject(value)) return dictKeys(value);
  if (value instanceof TemplateObject) {
    const items = value.iterate();
    if (items !== undefined) return items;
  }
  if (typeof value === 'function') {
    // `states` passed to a filter.
    const items = itemsOfFunction(value);
    if (items !== undefined) return items();
    throw fault('TypeError', `${what}: 'function' object is not iterable`);
  }
  if (value === undefined) return [];
  throw fault('TypeError', `${what}: '${typeof value}' object is not iterable`);
}

/** `a.b.c` on a value, as Jinja's attribute= arguments read it; undefined when a part is missing. */
export function attributePath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (FORBIDDEN_NAMES.has(part)) throw fault('SecurityError', `access to '${part}' is not allowed in templates`);
    if (current === undefined || current === null) return undefined;
    if (current instanceof TemplateObject) current = current.getAttr(part);
    else if (isPlainObject(current)) current = Object.hasOwn(current, part) ? current[part] : undefined;
    else if (Array.isArray(current) && /^-?\d+$/.test(part)) current = current.at(Number(part));
    else return undefined;
  }
  return current;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  step();
  // HA's to_json leaves datetimes to a default that refuses them, as it refuses every other object.
  if (value instanceof PyDateTime || value instanceof PyTimedelta || value instanceof TemplateObject) {
    throw fault('TypeError', `Object of type ${value.pyType} is not JSON serializable`);
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (typeof value === 'function') throw fault('TypeError', 'Object of type function is not JSON serializable');
  // json.dumps writes a dict's number and None keys as "0" and "null".
  if (isPlainObject(value)) return jsonKeysOf(value);
  return value;
}

export function toJson(...args: unknown[]): string {
  const a = readArgs('to_json', args, ['value', 'ensure_ascii', 'pretty_print', 'sort_keys']);
  let value = a.values.value;
  if (a.values.sort_keys === true) value = sortKeys(value);
  const pretty = a.values.pretty_print === true;
  let text = JSON.stringify(value, jsonReplacer, pretty ? 2 : undefined) ?? 'null';
  if (a.values.ensure_ascii === true) {
    text = text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    // With ensure_ascii HA uses Python's json.dumps, whose separators are `, ` and `: `.
    if (!pretty) text = spaced(text);
  }
  return text;
}

/** Compact JSON with Python's default separators: a space after each `,` and `:` outside strings. */
function spaced(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i] as string;
    out += c;
    if (inString) {
      if (c === '\\') out += json[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === ':') out += ' ';
  }
  return out;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  const plain = jsonKeysOf(value);
  for (const k of Object.keys(plain).sort()) setOwn(out, k, sortKeys(plain[k]));
  return out;
}

export function fromJson(...args: unknown[]): unknown {
  const a = readArgs('from_json', args, ['value', 'default']);
  try {
    return JSON.parse(pyStr(a.values.value)) as unknown;
  } catch {
    if (a.has('default')) return a.values.default;
    throw noDefault('from_json', a.values.value);
  }
}

/** is_number: float() works and is finite, as Home Assistant's (a bool is a number in Python). */
export function isNumber(value: unknown): boolean {
  const f = toFloat(value);
  return f !== undefined && Number.isFinite(f);
}
