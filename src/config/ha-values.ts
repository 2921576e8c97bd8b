import type { JsonValue } from '../core/json.js';

/** Home Assistant's cv.boolean: true/on/yes/enable/1 and false/off/no/disable/0, any case; numbers by their truth. */
export function haBoolean(value: JsonValue | undefined): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value !== 'string') return undefined;
  const v = value.toLowerCase().trim();
  if (v === '1' || v === 'true' || v === 'yes' || v === 'on' || v === 'enable') return true;
  if (v === '0' || v === 'false' || v === 'no' || v === 'off' || v === 'disable') return false;
  return undefined;
}

/** Home Assistant's cv.string of a scalar: Python's str(), so YAML 1.1's `off` (False) reads as "False". */
export function haString(value: JsonValue): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  return undefined;
}
