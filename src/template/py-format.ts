import { isSafeString } from './nunjucks.js';
import { isPlainObject, TemplateObject } from './objects.js';
import { PySet, PyTuple } from './py-collections.js';
import { PyFloat } from './py-float.js';
import { dictEntries } from './py-keys.js';
import { step } from './scope.js';

/**
 * Values printed as Python prints them, which is what Home Assistant's templates output: `True`, `None`,
 * `['a', 1]`, `{'k': 'v'}`, `1e-07`.
 */

/** Python's repr of a float or int (JavaScript has one number type; integers print without `.0`). */
export function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Number.POSITIVE_INFINITY) return 'inf';
  if (n === Number.NEGATIVE_INFINITY) return '-inf';
  // Python writes small floats with an exponent from below 1e-4 on (JavaScript from 1e-7), two digits at least.
  const text = n !== 0 && Math.abs(n) < 1e-4 ? n.toExponential() : String(n);
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Python's repr of a string: single quotes unless the text holds one and no double quote. */
export function pyStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's str(): what `{{ value }}` outputs. Undefined prints nothing, as Jinja's Undefined does. */
export function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  if (isSafeString(value)) return value.val;
  if (value instanceof TemplateObject) return value.pyStr();
  return pyRepr(value);
}

/** Python's repr(): how a value prints inside a list or dict. */
export function pyRepr(value: unknown): string {
  // Counted: a list may hold the same big list many times over, and printing it must stop at the time limit.
  step();
  switch (typeof value) {
    case 'string':
      return pyStringRepr(value);
    case 'number':
      return pyNumber(value);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'undefined':
      return 'None';
    case 'function':
      return '<function>';
    case 'bigint':
      return value.toString();
    default:
      break;
  }
  if (value === null) return 'None';
  if (value instanceof PyTuple) return value.length === 1 ? `(${pyRepr(value[0])},)` : `(${[...value].map(pyRepr).join(', ')})`;
  if (value instanceof PySet) return value.length === 0 ? 'set()' : `{${[...value].map(pyRepr).join(', ')}}`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (value instanceof TemplateObject) return value.pyRepr();
  if (isSafeString(value)) return pyStringRepr(value.val);
  if (isPlainObject(value)) {
    const parts: string[] = [];
    for (const [k, v] of dictEntries(value)) parts.push(`${pyRepr(k)}: ${pyRepr(v)}`);
    return `{${parts.join(', ')}}`;
  }
  return '<object>';
}

/** Python's type name of a value, for error messages (`'<' not supported between instances of 'str' and 'int'`). */
export function pyTypeName(value: unknown): string {
  if (value === undefined) return 'Undefined';
  if (value === null) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string' || isSafeString(value)) return 'str';
  if (value instanceof PyTuple) return 'tuple';
  if (value instanceof PySet) return 'set';
  if (Array.isArray(value)) return 'list';
  if (value instanceof TemplateObject) return value.pyType;
  if (typeof value === 'function') return 'function';
  return 'dict';
}

/** Python truthiness: empty strings, lists and dicts are false, as are 0, None and undefined. */
export function pyTruthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof PyFloat) return value.value !== 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  if (value instanceof TemplateObject) {
    const items = value.iterate();
    return items === undefined ? true : items.length > 0;
  }
  return Boolean(value);
}
