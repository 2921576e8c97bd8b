import type { Micros } from '../core/clock.js';
import { type CalendarFields, calendarFields } from '../util/calendar.js';
import { zoneOffsets } from '../util/time-zone.js';
import { UTC_OFFSETS, type ZoneOffsets } from '../util/tzif.js';

/** Wall-clock time in the hub's time zone, as time triggers and conditions see it. */
export interface LocalTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** 0 = Monday ... 6 = Sunday (Python's weekday()). */
  readonly weekday: number;
  /** Seconds since local midnight, with the fraction. */
  readonly secondsOfDay: number;
}

/**
 * An IANA time zone, resolved by zoneOffsets (the system database, else Intl). Offsets are looked up for each
 * instant, so daylight-saving changes are followed.
 */
export class TimeZone {
  private constructor(
    readonly name: string,
    private readonly offsets: ZoneOffsets,
  ) {}

  /** The zone, or undefined when neither the system database nor Intl knows the name (zoneOffsets). */
  static of(name: string): TimeZone | undefined {
    if (name === 'UTC') return TimeZone.UTC;
    const offsets = zoneOffsets(name);
    return offsets === undefined ? undefined : new TimeZone(name, offsets);
  }

  static readonly UTC = new TimeZone('UTC', UTC_OFFSETS);

  local(us: Micros): LocalTime {
    const ms = Math.floor(us / 1000);
    const p = this.fields(ms);
    const fraction = (us - Math.floor(us / 1_000_000) * 1_000_000) / 1_000_000;
    return {
      year: p.year,
      month: p.month,
      day: p.day,
      weekday: p.weekday,
      secondsOfDay: p.hour * 3600 + p.minute * 60 + p.second + fraction,
    };
  }

  /** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
  offsetMs(utcMs: number): number {
    return this.offsets.offsetSeconds(Math.floor(utcMs / 1000)) * 1000;
  }

  /**
   * The first instant after `afterUs` at which the local clock reads `secondsOfDay`. A time that a
   * daylight-saving jump skips fires at the same UTC offset as before the jump (an hour late on the wall).
   */
  nextAt(afterUs: Micros, secondsOfDay: number): Micros {
    const today = this.local(afterUs);
    for (let add = 0; add < 3; add++) {
      const candidate = this.instant(today.year, today.month, today.day + add, secondsOfDay);
      if (candidate > afterUs) return candidate;
    }
    // Unreachable for real zones (offsets are under a day); a day later is a safe answer.
    return afterUs + 86_400_000_000;
  }

  /** The instant the local clock reads `secondsOfDay` on a date (a day past the month's end rolls over). */
  instant(year: number, month: number, day: number, secondsOfDay: number): Micros {
    const guess = Date.UTC(year, month - 1, day, 0, 0, secondsOfDay);
    const first = guess - this.offsetMs(guess);
    return (guess - this.offsetMs(first)) * 1000;
  }

  private fields(ms: number): CalendarFields {
    return calendarFields(ms + this.offsetMs(ms));
  }
}

/**
 * The time of day an input_datetime (its hour, minute and second; midnight for a date alone) or a timestamp
 * sensor (its instant, in the hub's zone) holds, in seconds; undefined when it holds none.
 */
export function entityTimeOfDay(
  state: { readonly state: string; readonly attributes: Readonly<Record<string, unknown>> },
  zone: TimeZone,
): number | undefined {
  if (state.state === 'unknown' || state.state === 'unavailable') return undefined;
  const a = state.attributes;
  if (a.has_date === true || a.has_time === true) {
    const num = (key: string) => (typeof a[key] === 'number' ? (a[key] as number) : 0);
    return a.has_time === true ? num('hour') * 3600 + num('minute') * 60 + num('second') : 0;
  }
  const ms = a.device_class === 'timestamp' ? Date.parse(state.state) : Number.NaN;
  return Number.isFinite(ms) ? zone.local(ms * 1000).secondsOfDay : undefined;
}

/** Seconds of day as "HH:MM:SS", for log messages. */
export function formatTimeOfDay(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}
