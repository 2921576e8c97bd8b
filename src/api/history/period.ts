import { type Micros, microsFromIso } from '../../core/clock.js';
import { isValidEntityId } from '../../core/entity-id.js';
import { HubError } from '../../core/errors.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A timestamp as Home Assistant's dt_util.parse_datetime takes it: ISO 8601 with `T` or a space, with or
 * without fraction and offset (none is UTC here), or a bare date. A `+` that a query string turned into a
 * space before the offset is read back as `+`. Undefined when it is none of those.
 */
export function parseTime(text: string): Micros | undefined {
  let t = text.trim();
  if (DATE_ONLY.test(t)) t = `${t}T00:00:00`;
  t = t.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T').replace(/ (\d{2}:?\d{2})$/, '+$1');
  t = t.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  return microsFromIso(t);
}

/** `start_time` / `<start>`: a parse failure is Home Assistant's `invalid_start_time`, "Invalid start_time". */
export function startTime(text: string, what = 'start_time'): Micros {
  const t = parseTime(text);
  if (t === undefined)
    throw new HubError('invalid_start_time', `Invalid ${what}: ${JSON.stringify(text.slice(0, 64))} is not an ISO 8601 date and time`);
  return t;
}

export function endTime(text: string): Micros {
  const t = parseTime(text);
  if (t === undefined)
    throw new HubError('invalid_end_time', `Invalid end_time: ${JSON.stringify(text.slice(0, 64))} is not an ISO 8601 date and time`);
  return t;
}

/** An end before the start is refused (Home Assistant would answer an empty result; a clear error is kinder). */
export function checkOrder(startUs: Micros, endUs: Micros): void {
  if (endUs < startUs) throw new HubError('invalid_end_time', 'Invalid end_time: it is before the start time');
}

/** A comma-separated list of entity ids (`filter_entity_id`, `entity`), each valid, lower-cased as Home Assistant does. */
export function entityList(text: string, name: string): string[] {
  const ids = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
  if (ids.length === 0 || !ids.every(isValidEntityId)) throw new HubError('invalid_format', `Invalid ${name}`);
  return ids;
}

/** The `<start>` of a REST path (`/api/history/period/<start>`), or `fallback` when the path has none. */
export function pathStart(raw: string | undefined, fallback: Micros): Micros {
  if (raw === undefined) return fallback;
  const parsed = parseTime(raw);
  if (parsed === undefined)
    throw new HubError('invalid_start_time', `Invalid datetime: ${JSON.stringify(raw.slice(0, 64))} is not an ISO 8601 date and time`);
  return parsed;
}
