import { lookupTable } from '../core/own-keys.js';

/**
 * How Home Assistant's helpers write numbers and durations, shared by the helper domains: Python's str() of a
 * float ("5.0", not "5") and `timer`'s H:MM:SS.
 */

/** Python's repr of a float: integral values keep ".0". */
export function pyFloat(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return `${n}.0`;
  return String(n);
}

/** Seconds as timer's `_format_timedelta`: hours unpadded, whole seconds (truncated). */
export function formatDuration(seconds: number): string {
  const total = Math.trunc(seconds);
  const sign = total < 0 ? '-' : '';
  const abs = Math.abs(total);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  return `${sign}${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** Seconds per unit of a duration mapping, keyed by the mapping's keys (a client's): no prototype. */
const DURATION_SECONDS = lookupTable({ days: 86400, hours: 3600, minutes: 60, seconds: 1, milliseconds: 0.001 });

/**
 * Home Assistant's cv.time_period: seconds as a number, "[-]H:MM[:SS[.f]]", or {days, hours, minutes, seconds,
 * milliseconds}. Returns seconds, or undefined when the value is none of these.
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const m = /^(-)?(\d+):(\d+)(?::(\d+(?:\.\d+)?))?$/.exec(value.trim());
    if (m) {
      const secs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
      return m[1] ? -secs : secs;
    }
    const n = value.trim() === '' ? Number.NaN : Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    let total = 0;
    for (const [k, v] of Object.entries(value)) {
      const unit = DURATION_SECONDS[k];
      if (unit === undefined || typeof v !== 'number' || !Number.isFinite(v)) return undefined;
      total += v * unit;
    }
    return total;
  }
  return undefined;
}
