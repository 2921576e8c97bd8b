import type { Clock } from '../core/clock.js';
import { slugify } from '../core/entity-id.js';
import { describeValue, HubError } from '../core/errors.js';

/** Bounds on what clients can create, so a runaway script cannot grow the registries without limit. */
export const MAX_ITEMS = 1000;
export const MAX_NAME_LENGTH = 255;
export const MAX_LIST_LENGTH = 100;

/** An `area_id`, `floor_id` or `label_id`: what slugify makes of a name. */
export const ID_PATTERN = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
/** `prefix:name`, as Home Assistant's cv.icon wants it (mdi:sofa). */
export const ICON_PATTERN = /^[^\s:]+:[^\s:]+$/;
const MAX_ICON_LENGTH = 100;

/** Registry timestamps are float epoch seconds, as Home Assistant's `created_at` / `modified_at` on the wire. */
export function epochNow(clock: Clock): number {
  return clock.now() / 1_000_000;
}

/** How Home Assistant compares names for uniqueness: case-folded, without white space. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}

/** `slugify(name)`, then `_2`, `_3`, ... until unused, as Home Assistant generates registry ids. */
export function uniqueId(name: string, taken: (id: string) => boolean): string {
  const base = slugify(name);
  if (!taken(base)) return base;
  for (let n = 2; ; n++) if (!taken(`${base}_${n}`)) return `${base}_${n}`;
}

export function invalid(field: string, message: string): HubError {
  return new HubError('invalid_format', `${message} for dictionary value @ data['${field}']`);
}

/** A trimmed, non-empty name of bounded length. */
export function checkName(value: string, field = 'name'): string {
  if (typeof value !== 'string') throw invalid(field, `expected str. Got ${describeValue(value)}`);
  const name = value.trim();
  if (name === '') throw invalid(field, 'expected a non-empty name');
  if (name.length > MAX_NAME_LENGTH) throw invalid(field, `length of value must be at most ${MAX_NAME_LENGTH}`);
  return name;
}

/** A string or null (cleared); an empty string also clears, as the frontend sends it. */
export function checkOptionalText(value: string | null, field: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw invalid(field, `expected str or None. Got ${describeValue(value)}`);
  if (value.trim() === '') return null;
  if (value.length > 2048) throw invalid(field, 'length of value must be at most 2048');
  return value;
}

export function checkIcon(value: string | null, field = 'icon'): string | null {
  const icon = checkOptionalText(value, field);
  if (icon === null) return null;
  if (icon.length > MAX_ICON_LENGTH || !ICON_PATTERN.test(icon)) {
    throw invalid(field, `Icons should be specified in the form "prefix:name" (e.g. mdi:sofa). Got ${describeValue(icon)}`);
  }
  return icon;
}

/** A list of distinct non-empty strings (labels, aliases), bounded in length. */
export function checkStringList(value: readonly string[], field: string): string[] {
  if (!Array.isArray(value)) throw invalid(field, `expected a list of strings. Got ${describeValue(value)}`);
  if (value.length > MAX_LIST_LENGTH) throw invalid(field, `at most ${MAX_LIST_LENGTH} items are allowed`);
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || item.trim() === '')
      throw invalid(field, `expected a list of non-empty strings. Got ${describeValue(item)}`);
    if (item.length > MAX_NAME_LENGTH) throw invalid(field, `each item must be at most ${MAX_NAME_LENGTH} characters`);
    if (!out.includes(item)) out.push(item);
  }
  return out;
}

/** Where a configuration-file item's fields came from, for "change it there" messages. */
export function yamlLocked(what: string, section: string): HubError {
  return new HubError('not_allowed', `${what} is set in the configuration file (${section}:); change it there`);
}
