import { haBoolean, haString } from '../config/ha-values.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { formatDuration, parseDuration } from '../domains/helper-format.js';

/**
 * A helper's configuration keys, declared once and used for both its YAML section and its WebSocket
 * create/update commands (Home Assistant's CREATE_FIELDS / UPDATE_FIELDS, which its YAML schema mirrors).
 */
export type HelperField =
  | { readonly kind: 'string'; readonly maxLength?: number }
  | { readonly kind: 'icon' }
  | { readonly kind: 'number'; readonly min?: number; readonly max?: number; readonly integer?: boolean; readonly positive?: boolean }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'one_of'; readonly options: readonly string[] }
  | { readonly kind: 'options' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'regex' };

export interface FieldSpec {
  readonly field: HelperField;
  /** Needed to create an item (YAML items may still leave out `name`: see `yamlOptional`). */
  readonly required?: boolean;
  readonly yamlOptional?: boolean;
  readonly default?: JsonValue;
}

export type HelperFields = Readonly<Record<string, FieldSpec>>;

/** One problem with a key of an item (the key is undefined for the item as a whole). */
export interface FieldProblem {
  readonly key: string | undefined;
  readonly message: string;
}

/** A validated item: its id and its keys with defaults filled in. */
export type HelperItem = JsonObject & { readonly id: string };

const ICON_PATTERN = /^[^\s:]+:[^\s:]+$/;

function kindText(v: JsonValue): string {
  if (v === null) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}

/** Checks one value; returns it normalised, or a message. */
function check(field: HelperField, v: JsonValue): { value: JsonValue } | { message: string } {
  switch (field.kind) {
    case 'string':
    case 'icon': {
      // Home Assistant's cv.string: YAML 1.1's `name: off` is "False".
      const s = haString(v);
      if (s === undefined) return { message: `expected a string, got ${kindText(v)}` };
      if (field.kind === 'icon' && !ICON_PATTERN.test(s))
        return { message: `${JSON.stringify(s)} is not an icon: expected prefix:name (e.g. mdi:lamp)` };
      if (field.kind === 'string' && field.maxLength !== undefined && s.length > field.maxLength) {
        return { message: `is longer than ${field.maxLength} characters` };
      }
      return { value: s };
    }
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      const what = field.integer ? 'an integer' : 'a number';
      if (!Number.isFinite(n) || (field.integer && !Number.isInteger(n))) return { message: `expected ${what}, got ${kindText(v)}` };
      if (field.positive && n <= 0) return { message: `${n} is not allowed: expected ${what} above 0` };
      if (field.min !== undefined && n < field.min) return { message: `${n} is not allowed: expected ${what} of at least ${field.min}` };
      if (field.max !== undefined && n > field.max) return { message: `${n} is not allowed: expected ${what} of at most ${field.max}` };
      return { value: n };
    }
    case 'boolean': {
      // Home Assistant's cv.boolean: "on", "yes", 1... too.
      const b = haBoolean(v);
      return b !== undefined ? { value: b } : { message: `expected true or false, got ${kindText(v)}` };
    }
    case 'one_of':
      return typeof v === 'string' && field.options.includes(v)
        ? { value: v }
        : { message: `${JSON.stringify(v)} is not allowed: expected one of ${field.options.join(', ')}` };
    case 'options': {
      const list = Array.isArray(v) ? v : [v];
      if (list.length === 0) return { message: 'expected at least one option' };
      const out: string[] = [];
      for (const o of list) {
        if (typeof o !== 'string' && typeof o !== 'number') return { message: `expected a list of strings, got ${kindText(o)} in it` };
        if (out.includes(String(o))) return { message: `Duplicate options are not allowed: ${JSON.stringify(String(o))}` };
        out.push(String(o));
      }
      return { value: out };
    }
    case 'duration': {
      const s = parseDuration(v);
      if (s === undefined || s < 0)
        return { message: `expected a duration (seconds, "HH:MM:SS" or {hours, minutes, seconds}), got ${kindText(v)}` };
      return { value: formatDuration(s) };
    }
    case 'regex': {
      if (typeof v !== 'string') return { message: `expected a regular expression, got ${kindText(v)}` };
      try {
        new RegExp(v, 'u');
      } catch {
        return { message: `${JSON.stringify(v)} is not a valid regular expression` };
      }
      return { value: v };
    }
  }
}

/**
 * Validates an item's keys against the fields: unknown keys, required ones, each value. `mode` says which
 * rules hold: YAML (name optional), create (defaults filled), update (only the keys given, no defaults).
 */
export function validateFields(
  fields: HelperFields,
  raw: JsonValue,
  mode: 'yaml' | 'create' | 'update',
): { values: JsonObject; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const values: Record<string, JsonValue> = {};
  const given: JsonObject = raw === null ? {} : isJsonObject(raw) ? raw : {};
  if (raw !== null && !isJsonObject(raw))
    problems.push({ key: undefined, message: `expected a mapping (key: value), got ${kindText(raw)}` });
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(fields, key)) problems.push({ key, message: `extra keys not allowed; allowed: ${Object.keys(fields).join(', ')}` });
  }
  for (const [key, spec] of Object.entries(fields)) {
    const v = given[key];
    if (v === undefined || (v === null && mode !== 'update')) {
      if (mode === 'update') continue;
      if (spec.required && !(mode === 'yaml' && spec.yamlOptional)) problems.push({ key, message: 'required key not provided' });
      else if (spec.default !== undefined) values[key] = spec.default;
      continue;
    }
    const r = check(spec.field, v);
    if ('message' in r) problems.push({ key, message: r.message });
    else values[key] = r.value;
  }
  return { values, problems };
}
