import { readArgs } from './args.js';
import { PyDateTime, PyTimedelta, type PyZone, UTC_ZONE } from './datetime.js';
import { noDefault } from './functions-values.js';
import { pyStr } from './py-format.js';

/** strptime, as_timedelta, time_since and time_until: Python's parsing of dates and durations. */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const DAYS = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*';

const DIRECTIVES: Readonly<Record<string, string>> = {
  Y: '(?<Y>\\d{4})',
  y: '(?<y>\\d{2})',
  m: '(?<m>1[0-2]|0[1-9]|[1-9])',
  d: '(?<d>3[01]|[12]\\d|0[1-9]|[1-9]| [1-9])',
  H: '(?<H>2[0-3]|[01]\\d|\\d)',
  I: '(?<I>1[0-2]|0[1-9]|[1-9])',
  M: '(?<M>[0-5]\\d|\\d)',
  S: '(?<S>6[01]|[0-5]\\d|\\d)',
  f: '(?<f>\\d{1,6})',
  p: '(?<p>am|pm)',
  z: '(?<z>[+-]\\d\\d:?[0-5]\\d(?::?[0-5]\\d(?:\\.\\d{1,6})?)?|Z)',
  Z: '(?<Z>utc|gmt|[a-z]{3,5})',
  j: '(?<j>36[0-6]|3[0-5]\\d|[12]\\d\\d|0[1-9]\\d|00[1-9]|[1-9]\\d|0[1-9]|[1-9])',
  b: `(?<b>${MONTHS.join('|')})`,
  h: `(?<b>${MONTHS.join('|')})`,
  B: `(?<B>${MONTH_NAMES.join('|')})`,
  a: `(?:${DAYS})`,
  A: `(?:${DAYS})`,
  '%': '%',
};

/** Python's datetime.strptime; undefined where it raises. %Z reads a zone name but gives a naive datetime, as Python's. */
export function strptime(text: string, format: string): PyDateTime | undefined {
  let pattern = '';
  const used = new Set<string>();
  for (let i = 0; i < format.length; i++) {
    const c = format[i] as string;
    if (c === '%') {
      const d = format[++i] ?? '';
      const re = DIRECTIVES[d];
      if (re === undefined) return undefined;
      // A directive used twice would repeat its group name; Python refuses that too ("redefinition of group name").
      const name = /\?<(\w)>/.exec(re)?.[1];
      if (name !== undefined && used.has(name)) return undefined;
      if (name !== undefined) used.add(name);
      pattern += re;
    } else if (/\s/.test(c)) pattern += '\\s+';
    else pattern += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  const m = new RegExp(`^${pattern}$`, 'i').exec(text);
  if (m === null) return undefined;
  const g = m.groups ?? {};
  const year = g.Y !== undefined ? Number(g.Y) : g.y !== undefined ? (Number(g.y) < 69 ? 2000 : 1900) + Number(g.y) : 1900;
  let month = g.m !== undefined ? Number(g.m) : 1;
  if (g.b !== undefined) month = MONTHS.indexOf(g.b.toLowerCase()) + 1;
  if (g.B !== undefined) month = MONTH_NAMES.indexOf(g.B.toLowerCase()) + 1;
  let day = g.d !== undefined ? Number(g.d) : 1;
  let hour = g.H !== undefined ? Number(g.H) : 0;
  if (g.I !== undefined) hour = (Number(g.I) % 12) + (g.p?.toLowerCase() === 'pm' ? 12 : 0);
  const minute = Number(g.M ?? 0);
  const second = Number(g.S ?? 0);
  const micro = Number((g.f ?? '').padEnd(6, '0'));
  if (g.j !== undefined && g.m === undefined && g.d === undefined) {
    const date = new Date(Date.UTC(year, 0, Number(g.j)));
    month = date.getUTCMonth() + 1;
    day = date.getUTCDate();
  }
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  if (new Date(ms).getUTCDate() !== day || new Date(ms).getUTCMonth() !== month - 1) return undefined;
  const local = ms * 1000 + micro;
  if (g.z === undefined) return new PyDateTime(local, undefined);
  if (g.z === 'Z' || g.z === 'z') return new PyDateTime(local, UTC_ZONE);
  const digits = g.z.slice(1).replaceAll(':', '');
  const offset = (g.z.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4)) * 60);
  const zone: PyZone = offset === 0 ? UTC_ZONE : { name: `UTC${g.z}`, offsets: { offsetSeconds: () => offset } };
  return new PyDateTime(local - offset * 1_000_000, zone);
}

const STANDARD = /^(?:(-?\d+) (?:days?, )?)?(-?)(?:(\d+):(?=\d+:\d+))?(?:(\d+):)?(\d+)(?:[.,](\d{1,6})\d{0,6})?$/;
const ISO_8601 = /^([-+]?)P(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/** dt_util.parse_duration: `HH:MM:SS`, `D days, HH:MM:SS`, ISO 8601's `P1DT2H`; undefined for anything else. */
export function parseDuration(text: string): PyTimedelta | undefined {
  const iso = ISO_8601.exec(text);
  if (iso !== null && !/T$/.test(text) && text !== 'P' && text !== '-P' && text !== '+P') {
    const n = (v: string | undefined) => Number((v ?? '0').replace(',', '.'));
    const us = (n(iso[2]) * 86400 + n(iso[3]) * 3600 + n(iso[4]) * 60 + n(iso[5])) * 1e6 * (iso[1] === '-' ? -1 : 1);
    return new PyTimedelta(Math.round(us));
  }
  const m = STANDARD.exec(text);
  if (m === null) return undefined;
  const sign = m[2] === '-' ? -1 : 1;
  const micro = Number((m[6] ?? '').padEnd(6, '0'));
  const seconds = Number(m[3] ?? 0) * 3600 + Number(m[4] ?? 0) * 60 + Number(m[5]);
  return new PyTimedelta(Number(m[1] ?? 0) * 86_400_000_000 + sign * (seconds * 1e6 + micro));
}

export const STRPTIME_FUNCTIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  strptime: (...args) => {
    const a = readArgs('strptime', args, ['string', 'format', 'default']);
    const parsed = typeof a.values.string === 'string' ? strptime(a.values.string, pyStr(a.values.format)) : undefined;
    if (parsed !== undefined) return parsed;
    if (a.has('default')) return a.values.default;
    throw noDefault('strptime', a.values.string);
  },
  as_timedelta: (value) => (typeof value === 'string' ? (parseDuration(value) ?? null) : null),
};
