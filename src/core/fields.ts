import { describeValue, HubError } from './errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from './json.js';
import { ownValue, setOwn } from './own-keys.js';

/**
 * Service field schemas. Each field declares Home Assistant's selector vocabulary, so one definition both
 * validates a call and renders the service catalogue that clients (dashboards, Node-RED) read.
 * Messages follow voluptuous' wording (`... @ data['position']`) and always name the allowed values.
 */
interface FieldBase {
  readonly name?: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly example?: JsonValue;
  readonly default?: JsonValue;
  readonly advanced?: boolean;
}

export interface NumberField extends FieldBase {
  readonly kind: 'number';
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly integer?: boolean;
  /** Clip out-of-range values instead of rejecting them (Home Assistant's vol.Clamp). */
  readonly clamp?: boolean;
  readonly unit?: string;
}
export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
}
export interface TextField extends FieldBase {
  readonly kind: 'text';
  readonly maxLength?: number;
}
export interface SelectField extends FieldBase {
  readonly kind: 'select';
  readonly options: readonly string[];
  /** Match case-insensitively and return the canonical option. */
  readonly caseInsensitive?: boolean;
}
/** A fixed-length list of numbers, such as rgb_color [r, g, b] or hs_color [h, s]. */
export interface TupleField extends FieldBase {
  readonly kind: 'tuple';
  readonly items: readonly { readonly min: number; readonly max: number; readonly integer?: boolean; readonly clamp?: boolean }[];
  readonly selector?: 'color_rgb' | 'object';
}
export interface ObjectField extends FieldBase {
  readonly kind: 'object';
}
/** One or more entity ids (a list, or a string with commas). */
export interface EntitiesField extends FieldBase {
  readonly kind: 'entities';
  readonly domain?: readonly string[];
}
export interface AnyField extends FieldBase {
  readonly kind: 'any';
}

export type FieldSpec = NumberField | BooleanField | TextField | SelectField | TupleField | ObjectField | EntitiesField | AnyField;

export interface ServiceSchema {
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Groups of keys of which at most one may be given (Home Assistant's vol.Exclusive). */
  readonly exclusive?: readonly (readonly string[])[];
  /** Groups of keys that must be given together (vol.Inclusive). */
  readonly inclusive?: readonly (readonly string[])[];
  /** Keys of which at least one is needed (cv.has_at_least_one_key). */
  readonly atLeastOne?: readonly string[];
  /** Accept keys that are not declared (homeassistant.turn_on passes data through). */
  readonly allowExtra?: boolean;
}

export type ValidData = Record<string, JsonValue>;

/** Keys every entity service accepts for its target. */
export const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'] as const;
const TARGET_KEY_SET: ReadonlySet<string> = new Set(TARGET_KEYS);

function invalid(message: string): HubError {
  return new HubError('invalid_service_data', message);
}

function where(key: string): string {
  return `for dictionary value @ data['${key}']`;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `between ${min} and ${max}`;
  if (min !== undefined) return `at least ${min}`;
  return `at most ${max}`;
}

function coerceNumber(value: JsonValue, integer: boolean): number | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) n = Number(value);
  else return undefined;
  if (!Number.isFinite(n)) return undefined;
  if (integer && !Number.isInteger(n)) {
    // vol.Coerce(int) truncates floats given as numbers, but rejects "1.5" as a string.
    if (typeof value === 'string') return undefined;
    n = Math.trunc(n);
  }
  return n;
}

function checkRange(n: number, spec: { min?: number; max?: number; clamp?: boolean }, key: string, raw: JsonValue): number {
  const { min, max } = spec;
  if (spec.clamp) {
    if (min !== undefined && n < min) return min;
    if (max !== undefined && n > max) return max;
    return n;
  }
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
    throw invalid(`value must be ${range(min, max)} ${where(key)}. Got ${describeValue(raw)}`);
  }
  return n;
}

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on', 'enable']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', 'disable']);

function validateField(key: string, spec: FieldSpec, value: JsonValue): JsonValue {
  switch (spec.kind) {
    case 'number': {
      const n = coerceNumber(value, spec.integer === true);
      if (n === undefined) {
        throw invalid(`expected ${spec.integer ? 'int' : 'float'} ${where(key)}. Got ${describeValue(value)}`);
      }
      return checkRange(n, spec, key, value);
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number') return value !== 0;
      if (typeof value === 'string') {
        const w = value.toLowerCase();
        if (TRUE_WORDS.has(w)) return true;
        if (FALSE_WORDS.has(w)) return false;
      }
      throw invalid(`invalid boolean value ${describeValue(value)} ${where(key)}: expected true or false`);
    }
    case 'text': {
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw invalid(`expected str ${where(key)}. Got ${describeValue(value)}`);
      }
      const s = String(value);
      if (spec.maxLength !== undefined && s.length > spec.maxLength) {
        throw invalid(`length of value must be at most ${spec.maxLength} ${where(key)}. Got ${s.length} characters`);
      }
      return s;
    }
    case 'select': {
      if (typeof value === 'string') {
        if (spec.options.includes(value)) return value;
        if (spec.caseInsensitive) {
          const lower = value.toLowerCase();
          const hit = spec.options.find((o) => o.toLowerCase() === lower);
          if (hit !== undefined) return hit;
        }
      }
      throw invalid(`value must be one of ${spec.options.join(', ')} ${where(key)}. Got ${describeValue(value)}`);
    }
    case 'tuple': {
      const n = spec.items.length;
      const bounds = spec.items.map((i) => `${i.min}..${i.max}`).join(', ');
      if (!Array.isArray(value) || value.length !== n) {
        throw invalid(`expected a list of ${n} numbers [${bounds}] ${where(key)}. Got ${describeValue(value)}`);
      }
      return value.map((v: JsonValue, i: number) => {
        const item = spec.items[i] as TupleField['items'][number];
        const num = coerceNumber(v, item.integer === true);
        if (num === undefined || (!item.clamp && (num < item.min || num > item.max))) {
          throw invalid(`expected a list of ${n} numbers [${bounds}] ${where(key)}. Got ${describeValue(value)}`);
        }
        return checkRange(num, item, key, value);
      });
    }
    case 'object': {
      if (!isJsonObject(value)) throw invalid(`expected a dictionary ${where(key)}. Got ${describeValue(value)}`);
      return value;
    }
    case 'entities':
      return parseEntityIds(value, key);
    case 'any':
      return value;
  }
}

/** An entity id list from a string (commas allowed) or a list of strings; lower-cased. */
export function parseEntityIds(value: JsonValue | undefined, key = 'entity_id'): string[] {
  let items: JsonValue[];
  if (typeof value === 'string') {
    // The usual call names one entity: no list to split.
    if (value.indexOf(',') === -1) {
      const id = value.trim().toLowerCase();
      return id === '' ? [] : [id];
    }
    items = value.split(',');
  } else if (Array.isArray(value)) items = value as JsonValue[];
  else throw invalid(`expected an entity id or a list of entity ids ${where(key)}. Got ${describeValue(value)}`);
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') {
      throw invalid(`expected an entity id or a list of entity ids ${where(key)}. Got ${describeValue(value)}`);
    }
    const id = item.trim().toLowerCase();
    if (id !== '') out.push(id);
  }
  return out;
}

/** Per schema, the fields that are required or have a default, in schema order: the only ones a call may lack. */
const defaultedFields = new WeakMap<ServiceSchema['fields'], readonly (readonly [string, FieldSpec])[]>();

function requiredOrDefaulted(fields: ServiceSchema['fields']): readonly (readonly [string, FieldSpec])[] {
  let list = defaultedFields.get(fields);
  if (list === undefined) {
    list = Object.entries(fields).filter(([, spec]) => spec.required === true || spec.default !== undefined);
    defaultedFields.set(fields, list);
  }
  return list;
}

/** Validates service data against a schema and returns the coerced data (target keys left for the caller). */
export function validateServiceData(schema: ServiceSchema, data: JsonObject, entityService: boolean): ValidData {
  const out: ValidData = {};
  // for-in rather than Object.keys: no array per call (the data is JSON, its own keys are all it has).
  // Keys given besides the target: the groups below need two (exclusive) or one (inclusive) to matter.
  let given = 0;
  for (const key in data) {
    const value = data[key] as JsonValue;
    if (entityService && TARGET_KEY_SET.has(key)) continue;
    given++;
    // A key from the caller: `constructor` or `__proto__` must be an unknown key, not what every object inherits.
    const spec = ownValue(schema.fields, key);
    if (spec === undefined) {
      if (schema.allowExtra) {
        setOwn(out, key, value);
        continue;
      }
      const allowed = Object.keys(schema.fields);
      if (entityService) allowed.push(...TARGET_KEYS);
      throw invalid(`extra keys not allowed @ data['${key}']. Got ${describeValue(value)}. Allowed keys: ${allowed.join(', ') || 'none'}`);
    }
    if (value === null && !spec.required) continue;
    out[key] = validateField(key, spec, value);
  }
  const withDefaults = requiredOrDefaulted(schema.fields);
  for (let i = 0; i < withDefaults.length; i++) {
    const [key, spec] = withDefaults[i] as [string, FieldSpec];
    if (out[key] !== undefined) continue;
    if (spec.required) throw invalid(`required key not provided @ data['${key}']. Got None`);
    if (spec.default !== undefined) out[key] = spec.default;
  }
  if (given >= 2) checkExclusive(schema, data);
  if (given >= 1) checkInclusive(schema, data);
  if (schema.atLeastOne && !schema.atLeastOne.some((k) => data[k] !== undefined)) {
    throw invalid(`must contain at least one of ${schema.atLeastOne.join(', ')}.`);
  }
  return out;
}

function checkExclusive(schema: ServiceSchema, data: JsonObject): void {
  for (const group of schema.exclusive ?? []) {
    // Counted first: a call gives one or none of a group, so the list of given keys is rarely needed.
    let count = 0;
    for (let i = 0; i < group.length; i++) {
      const v = data[group[i] as string];
      if (v !== undefined && v !== null) count++;
    }
    if (count <= 1) continue;
    const given = group.filter((k) => data[k] !== undefined && data[k] !== null);
    throw invalid(`two or more values in the same group of exclusion @ data['${given[1]}']: give only one of ${group.join(', ')}`);
  }
}

function checkInclusive(schema: ServiceSchema, data: JsonObject): void {
  for (const group of schema.inclusive ?? []) {
    const given = group.filter((k) => data[k] !== undefined);
    if (given.length > 0 && given.length < group.length) {
      throw invalid(`some but not all values in the same group of inclusion @ data['${given[0]}']: give all of ${group.join(', ')}`);
    }
  }
}

/** Home Assistant's selector for a field, as the service catalogue shows it. */
export function selectorOf(spec: FieldSpec): JsonObject {
  switch (spec.kind) {
    case 'number': {
      const number: Record<string, JsonValue> = { mode: spec.min !== undefined && spec.max !== undefined ? 'slider' : 'box' };
      if (spec.min !== undefined) number.min = spec.min;
      if (spec.max !== undefined) number.max = spec.max;
      number.step = spec.step ?? (spec.integer ? 1 : 'any');
      if (spec.unit !== undefined) number.unit_of_measurement = spec.unit;
      return { number };
    }
    case 'boolean':
      return { boolean: {} };
    case 'text':
      return { text: {} };
    case 'select':
      return { select: { options: [...spec.options] } };
    case 'tuple':
      return spec.selector === 'color_rgb' ? { color_rgb: {} } : { object: {} };
    case 'object':
    case 'any':
      return { object: {} };
    case 'entities':
      return { entity: spec.domain ? { multiple: true, domain: [...spec.domain] } : { multiple: true } };
  }
}

/** A field's catalogue entry. */
export function describeField(spec: FieldSpec): JsonObject {
  const out: Record<string, JsonValue> = {};
  if (spec.name !== undefined) out.name = spec.name;
  if (spec.description !== undefined) out.description = spec.description;
  out.required = spec.required === true;
  if (spec.advanced) out.advanced = true;
  if (spec.example !== undefined) out.example = spec.example;
  if (spec.default !== undefined) out.default = spec.default;
  out.selector = selectorOf(spec);
  return out;
}
