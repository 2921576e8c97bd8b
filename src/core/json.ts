/** JSON values as attributes and service data carry them. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | JsonObject;
export interface JsonObject {
  readonly [key: string]: JsonValue;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Structural equality of two JSON values (attributes compare this way, as Home Assistant's dict == does). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  let count = 0;
  for (const key in ao) {
    if (!Object.hasOwn(bo, key) || !jsonEqual(ao[key], bo[key])) return false;
    count++;
  }
  for (const key in bo) if (Object.hasOwn(bo, key)) count--;
  return count === 0;
}

/** Whether two JSON values serialize to the same text: jsonEqual, with keys also in the same order. */
export function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return sameJsonFrom(a, b, 0);
}

/**
 * The keys of the objects being compared, nested ones after their parents' (from `top` on): comparing allocates
 * nothing once this has grown to the deepest data's key count. Stale entries only hold key strings.
 */
const keyStack: string[] = [];

function sameJsonFrom(a: JsonValue | undefined, b: JsonValue | undefined, top: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJsonFrom(a[i], b[i], top)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as JsonObject;
  const bo = b as JsonObject;
  let n = 0;
  for (const key in ao) keyStack[top + n++] = key;
  let i = 0;
  for (const key in bo) {
    if (i >= n || key !== keyStack[top + i]) return false;
    i++;
  }
  if (i !== n) return false;
  for (i = 0; i < n; i++) {
    const key = keyStack[top + i] as string;
    if (!sameJsonFrom(ao[key], bo[key], top + n)) return false;
  }
  return true;
}

/** JSON.parse that never throws; `ok` is false for text that is not JSON. */
export function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
