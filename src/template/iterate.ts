import { fault } from './errors.js';
import { isSafeString } from './nunjucks.js';
import { isPlainObject, itemsOfFunction, TemplateObject } from './objects.js';
import { pyTypeName } from './py-format.js';
import { dictKeys } from './py-keys.js';
import { currentScope, undefinedFault } from './scope.js';

/** What `for x in value` iterates: Python's items (a string's characters, a dict's keys). */
export function iterationItems(value: unknown): unknown {
  if (value === undefined || value === null) {
    if (value === undefined && currentScope()?.strict === true) throw undefinedFault();
    if (value === null) throw fault('TypeError', "'NoneType' object is not iterable");
    return value;
  }
  if (Array.isArray(value)) return value;
  if (typeof value === 'function') {
    const items = itemsOfFunction(value);
    if (items !== undefined) return items();
    throw fault('TypeError', "'function' object is not iterable");
  }
  if (value instanceof TemplateObject) {
    const items = value.iterate();
    if (items !== undefined) return items;
    throw fault('TypeError', `'${value.pyType}' object is not iterable`);
  }
  if (typeof value === 'string') return [...value];
  if (isSafeString(value)) return [...value.val];
  if (isPlainObject(value)) return dictKeys(value);
  throw fault('TypeError', `'${pyTypeName(value)}' object is not iterable`);
}
