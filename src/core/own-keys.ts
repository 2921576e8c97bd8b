/**
 * Objects keyed by strings from outside (a service call's data, a discovery payload, a YAML mapping, a device's
 * message). A plain object answers for keys it does not hold: `obj.constructor` is a function, `obj.__proto__`
 * its prototype, and `obj['__proto__'] = value` (and Object.assign) sets the prototype instead of a key. So a key
 * from outside is looked up with `ownValue`, stored with `setOwn` (or an object spread, which defines own keys),
 * and a table such keys index is made with `lookupTable` (no prototype at all); or the map is a `Map`.
 */

/** `obj[key]` when the object holds `key` itself; undefined for a name it inherits (`constructor`, `toString`). */
export function ownValue<T>(obj: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Stores `value` under `key` as the object's own key, `__proto__` included (as JSON.parse does). */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}

/** A frozen table with no prototype: a lookup of any string answers only what the table holds. */
export function lookupTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
