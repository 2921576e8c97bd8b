import type { Micros } from '../core/clock.js';

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

const WEEKDAY_INDEX: Readonly<Record<string, number>> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };

/**
 * An IANA time zone, through Intl (Node ships the full ICU data). Offsets are looked up for each
 * instant, so daylight-saving changes are followed.
 */
export class TimeZone {
  private readonly format: Intl.DateTimeFormat;

  private constructor(readonly name: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
  }

  /** The zone, or undefined when Intl does not know the name. */
  static of(name: string): TimeZone | undefined {
    try {
      return new TimeZone(name);
    } catch {
      return undefined;
    }
  }

  static readonly UTC = new TimeZone('UTC');

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
    const p = this.fields(utcMs);
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    return wall - Math.floor(utcMs / 1000) * 1000;
  }

  /**
   * The first instant after `afterUs` at which the local clock reads `secondsOfDay`. A time that a
   * daylight-saving jump skips fires at the same UTC offset as before the jump (an hour late on the wall).
   */
  nextAt(afterUs: Micros, secondsOfDay: number): Micros {
    const today = this.local(afterUs);
    for (let add = 0; add < 3; add++) {
      const guess = Date.UTC(today.year, today.month - 1, today.day + add, 0, 0, secondsOfDay);
      const first = guess - this.offsetMs(guess);
      const second = guess - this.offsetMs(first);
      const candidate = second * 1000;
      if (candidate > afterUs) return candidate;
    }
    // Unreachable for real zones (offsets are under a day); a day later is a safe answer.
    return afterUs + 86_400_000_000;
  }

  private fields(ms: number) {
    let year = 1970;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let weekday = 0;
    for (const part of this.format.formatToParts(new Date(ms))) {
      switch (part.type) {
        case 'year':
          year = Number(part.value);
          break;
        case 'month':
          month = Number(part.value);
          break;
        case 'day':
          day = Number(part.value);
          break;
        case 'hour':
          hour = Number(part.value);
          break;
        case 'minute':
          minute = Number(part.value);
          break;
        case 'second':
          second = Number(part.value);
          break;
        case 'weekday':
          weekday = WEEKDAY_INDEX[part.value] ?? 0;
          break;
      }
    }
    return { year, month, day, hour, minute, second, weekday };
  }
}

/** Seconds of day as "HH:MM:SS", for log messages. */
export function formatTimeOfDay(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.floor(seconds % 60);
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}
