import { PyDateTime } from './datetime.js';
import { PyBytes } from './functions-bytes.js';
import { regexMatch, regexSearch } from './functions-text.js';
import { isNumber } from './functions-values.js';
import { isSafeString } from './nunjucks.js';
import { isPlainObject, TemplateObject } from './objects.js';
import { isFloat, num, PyFloat } from './py-float.js';
import { pyTruthy } from './py-format.js';
import { contains, pyEquals, pyOrder } from './py-ops.js';

/** Jinja's tests (`x is defined`, `selectattr('state', 'eq', 'on')`) with Python's semantics, and Home Assistant's. */
export const TESTS: Readonly<Record<string, (value: unknown, ...args: unknown[]) => boolean>> = {
  defined: (v) => v !== undefined,
  undefined: (v) => v === undefined,
  none: (v) => v === null,
  // `x is none` reaches nunjucks as the literal none, whose name is null.
  null: (v) => v === null,
  boolean: (v) => typeof v === 'boolean',
  false: (v) => v === false,
  true: (v) => v === true,
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => isFloat(v),
  number: (v) => typeof v === 'number' || v instanceof PyFloat,
  string: (v) => typeof v === 'string',
  mapping: (v) => isPlainObject(v),
  iterable: (v) =>
    typeof v === 'string' || Array.isArray(v) || isPlainObject(v) || (v instanceof TemplateObject && v.iterate() !== undefined),
  sequence: (v) => typeof v === 'string' || Array.isArray(v) || isPlainObject(v),
  list: (v) => Array.isArray(v),
  datetime: (v) => v instanceof PyDateTime,
  sameas: (v, other) => v === other,
  eq: (v, other) => pyEquals(v, other),
  equalto: (v, other) => pyEquals(v, other),
  '==': (v, other) => pyEquals(v, other),
  ne: (v, other) => !pyEquals(v, other),
  '!=': (v, other) => !pyEquals(v, other),
  lt: (v, other) => pyOrder(v, other, '<') < 0,
  '<': (v, other) => pyOrder(v, other, '<') < 0,
  lessthan: (v, other) => pyOrder(v, other, '<') < 0,
  le: (v, other) => pyOrder(v, other, '<=') <= 0,
  '<=': (v, other) => pyOrder(v, other, '<=') <= 0,
  gt: (v, other) => pyOrder(v, other, '>') > 0,
  '>': (v, other) => pyOrder(v, other, '>') > 0,
  greaterthan: (v, other) => pyOrder(v, other, '>') > 0,
  ge: (v, other) => pyOrder(v, other, '>=') >= 0,
  '>=': (v, other) => pyOrder(v, other, '>=') >= 0,
  in: (v, container) => contains(v, container),
  contains: (v, item) => contains(item, v),
  odd: (v) => Math.abs((num(v) ?? 0) % 2) === 1,
  even: (v) => num(v) !== undefined && (num(v) as number) % 2 === 0,
  divisibleby: (v, n) => {
    const a = num(v);
    const b = num(n);
    return a !== undefined && b !== undefined && b !== 0 && a % b === 0;
  },
  lower: (v) => typeof v === 'string' && v === v.toLowerCase(),
  upper: (v) => typeof v === 'string' && v === v.toUpperCase(),
  truthy: (v) => pyTruthy(v),
  falsy: (v) => !pyTruthy(v),
  match: (v, pattern, ignorecase) => regexMatch(v, pattern, ignorecase),
  search: (v, pattern, ignorecase) => regexSearch(v, pattern, ignorecase),
  is_number: (v) => isNumber(v),
  string_like: (v) => typeof v === 'string' || isSafeString(v) || v instanceof PyBytes,
};
