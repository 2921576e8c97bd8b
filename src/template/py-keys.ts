import { setOwn } from '../core/own-keys.js';

/**
 * Python dict keys keep their type: `{0: 'off'}` and `{'0': 'off'}` are different dicts, `{0: 'off'}[0]` finds
 * 'off' and `{0: 'off'}['0']` nothing (zigbee2mqtt's fan templates index by the speed number). A template's dicts
 * are plain objects, so a key that is not a string is stored under its type-tagged name: a private-use character,
 * then the number or `None`. Every place that lists a dict's keys reads them back through `keyOf`.
 */
const TAG = '\uE000';

/** The property name a dict key is stored under; undefined for a key that is no string, number, bool or None. */
export function propertyOf(key: unknown): string | undefined {
  if (typeof key === 'string') return key;
  // Python: True == 1 and hash(True) == hash(1), so they are one key.
  if (typeof key === 'boolean') return `${TAG}${key ? 1 : 0}`;
  if (typeof key === 'number') return `${TAG}${key}`;
  if (key === null) return `${TAG}None`;
  // A float the template made (1.0) is an object whose value is the number.
  if (typeof key === 'object' && typeof (key as { valueOf(): unknown }).valueOf() === 'number') return `${TAG}${Number(key)}`;
  return undefined;
}

/** The dict key a property name stands for: a number or None for a tagged name, else the name itself. */
export function keyOf(property: string): unknown {
  if (property.charCodeAt(0) !== 0xe000) return property;
  const rest = property.slice(1);
  if (rest === 'None') return null;
  const n = Number(rest);
  return rest !== '' && !Number.isNaN(n) ? n : property;
}

/** The dict's keys as Python sees them, in insertion order (nunjucks' keyword marker left out). */
export function dictKeys(d: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const k of Object.keys(d)) if (k !== '__keywords') out.push(keyOf(k));
  return out;
}

/** The dict's (key, value) pairs as Python sees them. */
export function dictEntries(d: Record<string, unknown>): [unknown, unknown][] {
  const out: [unknown, unknown][] = [];
  for (const [k, v] of Object.entries(d)) if (k !== '__keywords') out.push([keyOf(k), v]);
  return out;
}

/** JSON's object key of a dict key, as json.dumps writes it: 0 as "0", None as "null", True as "true". */
export function jsonKeysOf(value: Record<string, unknown>): Record<string, unknown> {
  let tagged = false;
  for (const k of Object.keys(value)) if (k.charCodeAt(0) === 0xe000) tagged = true;
  if (!tagged) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const key = keyOf(k);
    setOwn(out, key === null ? 'null' : String(key), v);
  }
  return out;
}
