import { type ConfigIssue, type ConfigPath, type ConfigReader, kindOf } from '../config/reader.js';
import { isValidEntityId } from '../core/entity-id.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { lookupTable } from '../core/own-keys.js';
import { isTemplate as isTemplateText } from '../core/template-text.js';

/**
 * Value parsers shared by triggers, conditions and actions. Each reports its problem with a path and
 * returns undefined, so validation goes on and every problem is listed.
 */

/**
 * The longest delay, `for:` or wait timeout hearth accepts: 24 hours. Longer waits belong in a time
 * trigger; the cap keeps every timer within one setTimeout (Node's limit is about 24.8 days).
 */
export const MAX_DURATION_MS = 24 * 3600 * 1000;

/** For keys Home Assistant reads as fixed values: a template there is refused rather than sent on as text. */
export const TEMPLATE_NOT_ALLOWED = 'a template is not allowed here: this key takes a fixed value';

/** Whether a configuration value is a template string (core's isTemplate, the one test). */
export function isTemplate(value: JsonValue | undefined): boolean {
  return typeof value === 'string' && isTemplateText(value);
}

/** Refuses every template string in a value that Home Assistant reads as fixed (scenes), each at its own path. */
export function refuseTemplates(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[], depth = 0): void {
  if (depth > 32) return;
  if (isTemplate(value)) issues.push({ path, message: TEMPLATE_NOT_ALLOWED });
  else if (Array.isArray(value)) {
    value.forEach((item: JsonValue, i: number) => {
      refuseTemplates(item, [...path, i], issues, depth + 1);
    });
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) refuseTemplates(item, [...path, key], issues, depth + 1);
  }
}

/** Rejects unknown keys. Call last. */
export function finishReader(r: ConfigReader): void {
  r.rejectUnknown();
}

/** True when the key is present, even with a null value (`to: ~` means something in a state trigger). */
export function present(r: ConfigReader, key: string): boolean {
  return Object.hasOwn(r.value, key);
}

const DURATION_TEXT = /^(-)?(\d+):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,6}))?)?$/;
/** Keyed by the keys of a duration mapping, which come from the configuration or a client: no prototype. */
const DURATION_UNITS = lookupTable<number>({
  days: 86_400_000,
  hours: 3_600_000,
  minutes: 60_000,
  seconds: 1000,
  milliseconds: 1,
});
const DURATION_HELP = 'expected seconds (a number), "HH:MM:SS", or a mapping of days/hours/minutes/seconds/milliseconds';

/** A duration in milliseconds: seconds as a number, "HH:MM[:SS[.ffffff]]", or {hours, minutes, seconds, milliseconds}. */
export function parseDuration(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): number | undefined {
  if (value === undefined || value === null) {
    issues.push({ path, message: `is required: ${DURATION_HELP}` });
    return undefined;
  }
  if (isTemplate(value)) {
    issues.push({ path, message: TEMPLATE_NOT_ALLOWED });
    return undefined;
  }
  let ms: number | undefined;
  if (typeof value === 'number') {
    ms = value * 1000;
  } else if (typeof value === 'string') {
    const trimmed = value.trim();
    const m = DURATION_TEXT.exec(trimmed);
    if (m) {
      const [, minus, h, mi, s, frac] = m;
      ms = Number(h) * 3_600_000 + Number(mi) * 60_000 + Number(s ?? 0) * 1000 + Number((frac ?? '').padEnd(6, '0')) / 1000;
      if (minus) ms = -ms;
    } else if (trimmed !== '' && Number.isFinite(Number(trimmed))) {
      ms = Number(trimmed) * 1000;
    }
  } else if (isJsonObject(value)) {
    ms = 0;
    for (const [key, amount] of Object.entries(value)) {
      const unit = DURATION_UNITS[key];
      if (unit === undefined) {
        issues.push({ path: [...path, key], message: `unknown unit; allowed: ${Object.keys(DURATION_UNITS).join(', ')}` });
        return undefined;
      }
      if (typeof amount !== 'number' || !Number.isFinite(amount)) {
        issues.push({ path: [...path, key], message: `expected a number, got ${kindOf(amount)}` });
        return undefined;
      }
      ms += amount * unit;
    }
  }
  if (ms === undefined || !Number.isFinite(ms)) {
    issues.push({ path, message: `${JSON.stringify(value)} is not a duration: ${DURATION_HELP}` });
    return undefined;
  }
  if (ms < 0) {
    issues.push({ path, message: `${JSON.stringify(value)} is negative: durations must be 0 or more` });
    return undefined;
  }
  if (ms > MAX_DURATION_MS) {
    issues.push({ path, message: `${JSON.stringify(value)} is longer than the maximum of 24 hours; use a time trigger for longer waits` });
    return undefined;
  }
  return Math.round(ms);
}

/** Reads an optional duration key. */
export function readDuration(r: ConfigReader, key: string): number | undefined {
  const v = r.raw(key);
  if (v === undefined) return undefined;
  return parseDuration(v, [...r.path, key], r.issues);
}

const TIME_OF_DAY = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** The entities a time trigger's `at:` or a time condition's after/before may name, as Home Assistant's. */
export const TIME_ENTITY = /^(input_datetime|sensor)\.[a-z0-9_]+$/;

/** A time of day, or the input_datetime or timestamp sensor that holds one (read when the condition is checked). */
export function parseTimeBound(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): number | string | undefined {
  if (typeof value === 'string' && TIME_ENTITY.test(value.trim())) return value.trim();
  return parseTimeOfDay(value, path, issues);
}

/** "HH:MM" or "HH:MM:SS" as seconds since local midnight. */
export function parseTimeOfDay(value: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): number | undefined {
  if (isTemplate(value)) {
    issues.push({ path, message: TEMPLATE_NOT_ALLOWED });
    return undefined;
  }
  const m = typeof value === 'string' ? TIME_OF_DAY.exec(value.trim()) : null;
  if (m) {
    const h = Number(m[1]);
    const mi = Number(m[2]);
    const s = Number(m[3] ?? 0);
    if (h < 24 && mi < 60 && s < 60) return h * 3600 + mi * 60 + s;
  }
  const hint = typeof value === 'string' && value.includes('.') ? ' (or an input_datetime or sensor entity id)' : '';
  issues.push({ path, message: `${JSON.stringify(value ?? null)} is not a time of day: expected "HH:MM" or "HH:MM:SS"${hint}` });
  return undefined;
}

/** Entity ids from a string (commas allowed) or a list; lower-cased and validated. */
export function readEntityIds(r: ConfigReader, key: string, opts: { required?: boolean; domain?: string } = {}): string[] {
  const v = r.raw(key);
  if (v === undefined) {
    if (opts.required) r.problem(key, 'is required: expected an entity id or a list of entity ids');
    return [];
  }
  const items: { value: JsonValue; path: ConfigPath }[] =
    typeof v === 'string'
      ? v.split(',').map((s) => ({ value: s, path: [...r.path, key] }))
      : Array.isArray(v)
        ? (v as JsonValue[]).map((item, i) => ({ value: item, path: [...r.path, key, i] }))
        : [];
  if (items.length === 0) {
    r.problem(key, `expected an entity id or a list of entity ids, got ${kindOf(v)}`);
    return [];
  }
  const out: string[] = [];
  for (const { value, path } of items) {
    if (isTemplate(value)) {
      r.issues.push({ path, message: TEMPLATE_NOT_ALLOWED });
      continue;
    }
    const id = typeof value === 'string' ? value.trim().toLowerCase() : '';
    if (!isValidEntityId(id)) {
      r.issues.push({ path, message: `${JSON.stringify(value)} is not an entity id: expected <domain>.<object_id>` });
    } else if (opts.domain !== undefined && !id.startsWith(`${opts.domain}.`)) {
      r.issues.push({ path, message: `${JSON.stringify(value)} is not a ${opts.domain} entity` });
    } else out.push(id);
  }
  return out;
}

/** A string or a list of strings (numbers become strings, as YAML states like `21` should). */
export function readStringOrList(r: ConfigReader, key: string, what = 'a string'): string[] | undefined {
  const v = r.raw(key);
  if (v === undefined) return undefined;
  const list = Array.isArray(v) ? (v as JsonValue[]) : [v];
  const out: string[] = [];
  list.forEach((item, i) => {
    const path = Array.isArray(v) ? [...r.path, key, i] : [...r.path, key];
    if (typeof item === 'string' || typeof item === 'number') out.push(String(item));
    else if (typeof item === 'boolean') {
      r.issues.push({ path, message: `expected ${what}, got boolean ${item}; quote it ("on", "off", "true")` });
    } else r.issues.push({ path, message: `expected ${what}, got ${kindOf(item)}` });
  });
  return out;
}

/** A mapping of static values (service data, event data, variables). */
export function readMapping(r: ConfigReader, key: string): JsonObject | undefined {
  const v = r.raw(key);
  if (v === undefined) return undefined;
  if (!isJsonObject(v)) {
    r.problem(key, `expected a mapping (key: value), got ${kindOf(v)}`);
    return undefined;
  }
  return v;
}

/** A list of items with their paths; a single mapping counts as a list of one. */
export function listItems(value: JsonValue | undefined, path: ConfigPath): { value: JsonValue; path: ConfigPath }[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return (value as JsonValue[]).map((item, i) => ({ value: item, path: [...path, i] }));
  return [{ value, path }];
}

const OBJECT_ID = /^(?!.*__)(?!_)[a-z0-9_]+(?<!_)$/;

/** A valid object id (the part after the dot). */
export function isObjectId(text: string): boolean {
  return OBJECT_ID.test(text) && text.length <= 190;
}
