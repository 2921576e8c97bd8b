import type { ConfigReader } from '../config/reader.js';
import type { Clock, Micros } from '../core/clock.js';
import type { JsonValue } from '../core/json.js';
import { isJsonObject } from '../core/json.js';
import { parseDuration } from './config-values.js';
import type { TimeZone } from './local-time.js';
import type { Condition, SunTrigger } from './model.js';
import { type HubLocation, nextSunEvent, sunEventOn } from './sun.js';

/** The sun trigger and condition, as Home Assistant's components/sun (trigger) and helpers/condition.py (sun). */

const SUN_EVENTS = ['sunrise', 'sunset'] as const;
type SunCondition = Extract<Condition, { kind: 'sun' }>;

/** What the sun rules read (a part of ConditionEnv, named here so the two modules do not import each other). */
interface SunEnv {
  readonly core: { readonly clock: Clock };
  readonly timeZone: TimeZone;
  readonly location?: HubLocation;
}

/** A signed duration ("-00:30:00", -1800, { minutes: -30 }): offsets may move an event earlier. */
function readOffset(r: ConfigReader, key: string): number {
  const raw = r.raw(key);
  if (raw === undefined) return 0;
  let negative = false;
  let value: JsonValue = raw;
  if (typeof raw === 'number' && raw < 0) {
    negative = true;
    value = -raw;
  } else if (typeof raw === 'string' && raw.trim().startsWith('-')) {
    negative = true;
    value = raw.trim().slice(1);
  } else if (isJsonObject(raw) && Object.values(raw).some((v) => typeof v === 'number' && v < 0)) {
    negative = true;
    value = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, typeof v === 'number' ? -v : v]));
  }
  const ms = parseDuration(value, [...r.path, key], r.issues) ?? 0;
  return negative ? -ms : ms;
}

export function parseSunTrigger(r: ConfigReader, base: Pick<SunTrigger, 'id' | 'index' | 'enabled'>): SunTrigger | undefined {
  const event = r.oneOf('event', SUN_EVENTS);
  const offsetMs = readOffset(r, 'offset');
  if (event === undefined) {
    if (!r.has('event')) r.problem('event', `is required: expected one of ${SUN_EVENTS.join(', ')}`);
    return undefined;
  }
  return { ...base, kind: 'sun', event, offsetMs };
}

export function parseSunCondition(r: ConfigReader): SunCondition | undefined {
  const before = r.oneOf('before', SUN_EVENTS);
  const after = r.oneOf('after', SUN_EVENTS);
  const beforeOffsetMs = readOffset(r, 'before_offset');
  const afterOffsetMs = readOffset(r, 'after_offset');
  if (!r.has('before') && !r.has('after')) {
    r.problem(undefined, 'must contain at least one of before, after');
    return undefined;
  }
  return { kind: 'sun', before, after, beforeOffsetMs, afterOffsetMs };
}

/** The next time the trigger fires after `afterUs`; undefined near a pole when the event does not come. */
export function nextSunTrigger(t: SunTrigger, env: SunEnv, afterUs: Micros): Micros | undefined {
  if (env.location === undefined) return undefined;
  const event = nextSunEvent(t.event, afterUs - t.offsetMs * 1000, env.location);
  return event === undefined ? undefined : event + t.offsetMs * 1000;
}

/**
 * condition.py's sun(): today's (local date) sunrise and sunset, shifted by the offsets, compared with now.
 * An event that does not happen today (polar day or night) fails the condition that names it.
 */
export function checkSun(env: SunEnv, c: SunCondition): boolean {
  if (env.location === undefined) return false;
  const now = env.core.clock.now();
  // Local noon today: suncalc gives the events of the solar day of the instant it is asked about.
  const noon = now + (12 * 3600 - env.timeZone.local(now).secondsOfDay) * 1_000_000;
  const today = (event: 'sunrise' | 'sunset') => sunEventOn(event, noon, env.location as NonNullable<typeof env.location>);
  if (c.before !== undefined) {
    const at = today(c.before);
    if (at === undefined || now > at + c.beforeOffsetMs * 1000) return false;
  }
  if (c.after !== undefined) {
    const at = today(c.after);
    if (at === undefined || now < at + c.afterOffsetMs * 1000) return false;
  }
  return true;
}
