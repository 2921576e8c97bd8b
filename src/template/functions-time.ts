import { readArgs } from './args.js';
import { PyDateTime, PyTimedelta, type PyZone, UTC_ZONE } from './datetime.js';
import { fault } from './errors.js';
import { noDefault, toFloat, toInt } from './functions-values.js';
import { num, pyFloat } from './py-float.js';
import { pyStr } from './py-format.js';
import { currentScope } from './scope.js';

/**
 * now, utcnow, today_at, as_timestamp, as_datetime, as_local, timedelta, relative_time and the timestamp
 * filters, in the hub's time zone. Reading the time marks the render as time-dependent, so a subscription
 * renders it again every minute (Home Assistant's `has_time`).
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** dt_util.parse_datetime: ISO 8601 with or without a time, with or without an offset (naive then). */
export function parseDatetime(text: string): PyDateTime | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', tz] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms) || new Date(ms).getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const local = ms * 1000 + Number(frac.padEnd(6, '0'));
  if (tz === undefined) return new PyDateTime(local, undefined);
  if (tz === 'Z') return new PyDateTime(local, UTC_ZONE);
  const sign = tz.startsWith('-') ? -1 : 1;
  const digits = tz.slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60);
  const name = offset === 0 ? 'UTC' : `UTC${tz}`;
  return new PyDateTime(local - offset * 1_000_000, { name, offsets: { offsetSeconds: () => offset } });
}

function nowUs(): number {
  const scope = currentScope();
  if (scope === undefined) return Date.now() * 1000;
  scope.info.time = true;
  return scope.nowUs;
}

/** The template time functions for one hub: `zone` is its configured time zone. */
export function timeFunctions(zone: PyZone): Record<string, (...args: unknown[]) => unknown> {
  const asLocal = (value: unknown): unknown => {
    if (!(value instanceof PyDateTime)) throw fault('TypeError', `as_local expects a datetime, got '${pyStr(value)}'`);
    // A naive datetime is taken as UTC (dt_util.as_local).
    return new PyDateTime(value.us, zone);
  };
  const startOfToday = (): PyDateTime => {
    const today = new PyDateTime(nowUs(), zone).fields;
    return PyDateTime.fromLocal(Date.UTC(today.year, today.month - 1, today.day) * 1000, zone);
  };
  /** relative_time and time_since: the age of a past datetime, the value itself otherwise. */
  const since = (value: unknown, precision: number): unknown => {
    const now = nowUs();
    if (!(value instanceof PyDateTime)) return value;
    const dt = value.zone === undefined ? PyDateTime.fromLocal(value.us, zone) : value;
    if (now < dt.us) return value;
    return age((now - dt.us) / 1_000_000, precision);
  };
  return {
    now: () => new PyDateTime(nowUs(), zone),
    utcnow: () => new PyDateTime(nowUs(), UTC_ZONE),
    today_at: (...args) => {
      const a = readArgs('today_at', args, ['time_str']);
      const text = a.values.time_str === undefined ? '' : pyStr(a.values.time_str);
      const midnight = startOfToday();
      if (text === '') return midnight;
      const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/.exec(text.trim());
      if (m === null || Number(m[1]) > 23 || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) {
        throw fault('ValueError', `could not convert str to datetime: '${text}'`);
      }
      const f = midnight.fields;
      const local =
        Date.UTC(f.year, f.month - 1, f.day, Number(m[1]), Number(m[2]), Number(m[3] ?? 0)) * 1000 + Number((m[4] ?? '').padEnd(6, '0'));
      return PyDateTime.fromLocal(local, zone);
    },
    as_timestamp: (...args) => {
      const a = readArgs('as_timestamp', args, ['value', 'default']);
      const v = a.values.value;
      const dt = v instanceof PyDateTime ? v : typeof v === 'string' ? parseDatetime(v) : undefined;
      if (dt !== undefined) return pyFloat((dt.zone === undefined ? PyDateTime.fromLocal(dt.us, zone) : dt).timestamp());
      if (a.has('default')) return a.values.default;
      throw noDefault('as_timestamp', v);
    },
    as_datetime: (...args) => {
      const a = readArgs('as_datetime', args, ['value', 'default']);
      const v = a.values.value;
      if (v instanceof PyDateTime) return v;
      const seconds = typeof v === 'boolean' ? undefined : toFloat(v);
      if (seconds !== undefined && Number.isFinite(seconds)) return new PyDateTime(Math.round(seconds * 1_000_000), UTC_ZONE);
      const parsed = typeof v === 'string' ? parseDatetime(v) : undefined;
      if (parsed !== undefined) return parsed;
      if (a.has('default')) return a.values.default;
      // Home Assistant answers None for a string it cannot read (its behaviour before defaults existed).
      if (typeof v === 'string') return null;
      throw noDefault('as_datetime', v);
    },
    as_local: (value) => asLocal(value),
    timedelta: (...args) => {
      const a = readArgs('timedelta', args, ['days', 'seconds', 'microseconds', 'milliseconds', 'minutes', 'hours', 'weeks']);
      const n = (key: string): number => {
        const v = a.values[key];
        if (v === undefined) return 0;
        const value = num(v);
        if (value === undefined || typeof v === 'boolean')
          throw fault('TypeError', `unsupported type for timedelta ${key} component: ${typeof v}`);
        return value;
      };
      const us =
        n('microseconds') +
        n('milliseconds') * 1e3 +
        n('seconds') * 1e6 +
        n('minutes') * 6e7 +
        n('hours') * 3.6e9 +
        n('days') * 8.64e10 +
        n('weeks') * 6.048e11;
      return new PyTimedelta(Math.round(us));
    },
    relative_time: (value) => since(value, 1),
    time_since: (...args) => {
      const a = readArgs('time_since', args, ['value', 'precision']);
      return since(a.values.value, toInt(a.values.precision ?? 1) ?? 1);
    },
    time_until: (...args) => {
      const a = readArgs('time_until', args, ['value', 'precision']);
      const value = a.values.value;
      const now = nowUs();
      if (!(value instanceof PyDateTime)) return value;
      const dt = value.zone === undefined ? PyDateTime.fromLocal(value.us, zone) : value;
      if (dt.us < now) return value;
      return age((dt.us - now) / 1_000_000, toInt(a.values.precision ?? 1) ?? 1);
    },
    timestamp_custom: (...args) => {
      const a = readArgs('timestamp_custom', args, ['value', 'format_string', 'local', 'default']);
      const seconds = toFloat(a.values.value);
      if (seconds === undefined || !Number.isFinite(seconds)) {
        if (a.has('default')) return a.values.default;
        throw noDefault('timestamp_custom', a.values.value);
      }
      const dt = new PyDateTime(Math.round(seconds * 1_000_000), a.values.local === false ? UTC_ZONE : zone);
      return dt.strftime(a.values.format_string === undefined ? '%Y-%m-%d %H:%M:%S' : pyStr(a.values.format_string));
    },
    timestamp_local: (...args) => timestampIso('timestamp_local', args, zone),
    timestamp_utc: (...args) => timestampIso('timestamp_utc', args, UTC_ZONE),
  };
}

function timestampIso(name: string, args: unknown[], zone: PyZone): unknown {
  const a = readArgs(name, args, ['value', 'default']);
  const seconds = toFloat(a.values.value);
  if (seconds === undefined || !Number.isFinite(seconds)) {
    if (a.has('default')) return a.values.default;
    throw noDefault(name, a.values.value);
  }
  return new PyDateTime(Math.round(seconds * 1_000_000), zone).isoformat();
}

function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const UNITS: readonly [string, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * dt_util's time string of an age or a time remaining: `precision` units from the largest, the last one
 * rounded (`1 hour 55 minutes`); precision 0 gives every unit.
 */
export function age(seconds: number, precision = 1): string {
  if (seconds === 0) return '0 seconds';
  const unit = (n: number, name: string) => (n === 1 ? `1 ${name}` : `${n} ${name}s`);
  const parts: string[] = [];
  let rest = seconds;
  for (const [name, factor] of UNITS) {
    if (rest < factor) continue;
    if (parts.length + 1 === precision) {
      parts.push(unit(roundHalfEven(rest / factor), name));
      return parts.join(' ');
    }
    const whole = Math.floor(rest / factor);
    parts.push(unit(whole, name));
    rest -= whole * factor;
  }
  return parts.join(' ');
}
