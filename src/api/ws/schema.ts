import { isValidEntityId } from '../../core/entity-id.js';
import { describeValue, HubError } from '../../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';

/**
 * Command message schemas with Home Assistant's (voluptuous') wording: every command accepts `id` and
 * `type` plus its own keys, and rejects any other key, naming it.
 */

/** Validates one key's value and returns it (possibly normalised); throws HubError('invalid_format'). */
export type Check<T> = (value: JsonValue, key: string) => T;

export interface KeySpec<T> {
  readonly required: boolean;
  readonly check: Check<T>;
}

export type CommandSchema = Readonly<Record<string, KeySpec<unknown>>>;

/** The validated message: required keys present, optional ones possibly undefined. */
export type Validated<S extends CommandSchema> = {
  readonly [K in keyof S]: S[K] extends KeySpec<infer T> ? (S[K]['required'] extends true ? T : T | undefined) : never;
};

export function required<T>(check: Check<T>): KeySpec<T> & { readonly required: true } {
  return { required: true, check };
}

export function optional<T>(check: Check<T>): KeySpec<T> & { readonly required: false } {
  return { required: false, check };
}

/** Nesting deeper than this is refused: nothing real needs it, and deep values break recursive code later. */
export const MAX_JSON_DEPTH = 32;

/**
 * describeValue that never throws: a value nested deep enough overflows the stack in JSON.stringify and in
 * String(), and a client's mistake must still get its error message.
 */
export function describe(value: unknown): string {
  try {
    return describeValue(value);
  } catch {
    return Array.isArray(value) ? 'a deeply nested list' : 'a deeply nested value';
  }
}

/** Whether a JSON value nests deeper than `max` levels, checked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function at(key: string): string {
  return `@ data['${key}']`;
}

function invalid(message: string): HubError {
  return new HubError('invalid_format', message);
}

function expected(what: string, value: JsonValue, key: string): HubError {
  return invalid(`expected ${what} for dictionary value ${at(key)}. Got ${describe(value)}`);
}

export function validateCommand<S extends CommandSchema>(message: JsonObject, schema: S): Validated<S> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(message)) {
    if (key === 'id' || key === 'type') continue;
    const spec = Object.hasOwn(schema, key) ? schema[key] : undefined;
    if (spec === undefined) {
      const allowed = Object.keys(schema);
      const hint = allowed.length === 0 ? ' This command takes only id and type.' : ` Allowed keys: ${allowed.join(', ')}.`;
      throw invalid(`extra keys not allowed ${at(key)}. Got ${describe(message[key])}.${hint}`);
    }
    out[key] = spec.check(message[key] as JsonValue, key);
  }
  for (const [key, spec] of Object.entries(schema)) {
    if (spec.required && !Object.hasOwn(message, key)) throw invalid(`required key not provided ${at(key)}. Got None`);
  }
  return out as Validated<S>;
}

/** Any JSON value (voluptuous' match_all); the command checks it further. */
export const anyJson: Check<JsonValue> = (value) => value;

export const str: Check<string> = (value, key) => {
  if (typeof value !== 'string') throw expected('str', value, key);
  return value;
};

export function strMaxLength(max: number): Check<string> {
  return (value, key) => {
    const s = str(value, key);
    if (s.length > max) throw invalid(`length of value must be at most ${max} for dictionary value ${at(key)}. Got ${describe(s)}`);
    return s;
  };
}

export const bool: Check<boolean> = (value, key) => {
  if (typeof value !== 'boolean') throw expected('bool', value, key);
  return value;
};

export const nonNegativeInt: Check<number> = (value, key) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw expected('int', value, key);
  if (value < 0) throw invalid(`value must be at least 0 for dictionary value ${at(key)}. Got ${value}`);
  return value;
};

export const positiveInt: Check<number> = (value, key) => {
  const n = nonNegativeInt(value, key);
  if (n < 1) throw invalid(`value must be at least 1 for dictionary value ${at(key)}. Got ${n}`);
  return n;
};

export const object: Check<JsonObject> = (value, key) => {
  if (!isJsonObject(value)) throw expected('dict', value, key);
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw invalid(`value nests deeper than ${MAX_JSON_DEPTH} levels ${at(key)}`);
  return value;
};

/** A JSON object whose values are all integers (supported_features' `features`). */
export const intMap: Check<JsonObject> = (value, key) => {
  const obj = object(value, key);
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v !== 'number' || !Number.isInteger(v)) throw expected('int', v, `${key}']['${k}`);
  }
  return obj;
};

/** Entity ids as a list or a comma-separated string (cv.entity_ids), lower-cased and validated. */
export function entityIds(maxCount: number): Check<string[]> {
  return (value, key) => {
    let items: JsonValue[];
    if (typeof value === 'string') items = value.split(',');
    else if (Array.isArray(value)) items = value as JsonValue[];
    else throw expected('a list of entity ids or a comma-separated string', value, key);
    if (items.length > maxCount) throw invalid(`at most ${maxCount} entity ids are allowed ${at(key)}. Got ${items.length}`);
    const out: string[] = [];
    for (const item of items) {
      if (typeof item !== 'string') throw expected('an entity id', item, key);
      const id = item.trim().toLowerCase();
      if (!isValidEntityId(id)) throw invalid(`Entity ID ${item} is an invalid entity ID for dictionary value ${at(key)}`);
      out.push(id);
    }
    return out;
  };
}

/** A string or null (`vol.Any(str, None)`); null usually clears a field. */
export const nullableStr: Check<string | null> = (value, key) => {
  if (value === null) return null;
  if (typeof value !== 'string') throw expected('str or None', value, key);
  return value;
};

/** An integer or null (`vol.Any(int, None)`). */
export const nullableInt: Check<number | null> = (value, key) => {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw expected('int or None', value, key);
  return value;
};

/** A list of strings (`[str]`), at most `maxCount` long. */
export function strList(maxCount: number): Check<string[]> {
  return (value, key) => {
    if (!Array.isArray(value)) throw expected('list', value, key);
    if (value.length > maxCount) throw invalid(`at most ${maxCount} items are allowed ${at(key)}. Got ${value.length}`);
    value.forEach((item, i) => {
      if (typeof item !== 'string') throw invalid(`expected str @ data['${key}'][${i}]. Got ${describe(item)}`);
    });
    return value as string[];
  };
}

/** One of a few strings, or null when `allowNull` (`vol.Any(None, vol.In([...]))`). */
export function oneOf<T extends string>(values: readonly T[]): Check<T>;
export function oneOf<T extends string>(values: readonly T[], allowNull: true): Check<T | null>;
export function oneOf<T extends string>(values: readonly T[], allowNull = false): Check<T | null> {
  const allowed = values.map((v) => `'${v}'`).join(', ') + (allowNull ? ' or None' : '');
  return (value, key) => {
    if (value === null && allowNull) return null;
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
      throw invalid(`expected one of ${allowed} for dictionary value ${at(key)}. Got ${describe(value)}`);
    }
    return value as T;
  };
}

/** One entity id (`cv.entity_id`), lower-cased and validated. */
export const entityId: Check<string> = (value, key) => {
  if (typeof value !== 'string') throw expected('str', value, key);
  const id = value.trim().toLowerCase();
  if (!isValidEntityId(id)) {
    const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
    throw invalid(`Entity ID ${shown} is an invalid entity ID for dictionary value ${at(key)}`);
  }
  return id;
};
