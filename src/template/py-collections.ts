/**
 * Python's tuple and set, which HA's templates make (`(1, 2)`, `set(x)`, `zip(a, b)`): arrays underneath,
 * so every list operation works on them, printed and typed as Python prints them.
 */
export class PyTuple extends Array<unknown> {}

export class PySet extends Array<unknown> {}

export function tupleOf(items: readonly unknown[]): PyTuple {
  const t = new PyTuple();
  for (const item of items) t.push(item);
  return t;
}

/** A set of the items, each once (Python's equality of hashable values), in the order first seen. */
export function setOf(items: readonly unknown[]): PySet {
  {
    const s = new PySet();
    const seen = new Set<string>();
    for (const item of items) {
      const key = hashKey(item);
      if (key !== undefined && seen.has(key)) continue;
      if (key === undefined && s.some((other) => other === item)) continue;
      if (key !== undefined) seen.add(key);
      s.push(item);
    }
    return s;
  }
}

/** Python's hash equality for the values sets hold: 1, 1.0 and True are one key; undefined for unhashable values. */
export function hashKey(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return `n:${value ? 1 : 0}`;
  if (typeof value === 'number') return `n:${value}`;
  if (typeof value === 'string') return `s:${value}`;
  if (typeof value === 'object' && typeof (value as { valueOf(): unknown }).valueOf() === 'number') return `n:${Number(value)}`;
  if (value instanceof PyTuple) {
    const parts = value.map(hashKey);
    return parts.includes(undefined) ? undefined : `t:(${parts.join(',')})`;
  }
  return undefined;
}

/** A plain list that is not a tuple or a set (`x is list`). */
export function isList(value: unknown): value is unknown[] {
  return Array.isArray(value) && !(value instanceof PyTuple) && !(value instanceof PySet);
}
