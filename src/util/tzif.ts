import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * UTC offsets of an IANA time zone from the system's time zone database (TZif files, RFC 8536), as
 * Python's zoneinfo reads them for Home Assistant. hearth uses this instead of Intl.DateTimeFormat,
 * whose first use loads ICU's locale and calendar data: about 9 MB of resident memory and 20 ms of
 * start-up on x86, more on a Pi, for what is a table lookup here.
 */
export interface ZoneOffsets {
  /** Seconds to add to UTC to get the local wall time at this instant (positive east of Greenwich). */
  offsetSeconds(utcSeconds: number): number;
}

export const UTC_OFFSETS: ZoneOffsets = { offsetSeconds: () => 0 };

const DEFAULT_TZDIR = '/usr/share/zoneinfo';
const ZONE_NAME = /^[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone's offsets from `<TZDIR>/<name>`, or undefined when the file is missing, is not TZif, or uses
 * something this reader does not handle (leap seconds, a footer rule it cannot parse): callers then fall
 * back to Intl.
 */
export function readSystemZone(name: string, dir = process.env.TZDIR || DEFAULT_TZDIR): ZoneOffsets | undefined {
  if (!ZONE_NAME.test(name) || name.split('/').includes('..')) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, name));
  } catch {
    return undefined;
  }
  return parseTzif(bytes);
}

interface Counts {
  readonly isutcnt: number;
  readonly isstdcnt: number;
  readonly leapcnt: number;
  readonly timecnt: number;
  readonly typecnt: number;
  readonly charcnt: number;
}

const HEADER_BYTES = 44;

function counts(b: Buffer, at: number): Counts | undefined {
  if (b.length < at + HEADER_BYTES || b.toString('latin1', at, at + 4) !== 'TZif') return undefined;
  const n = (i: number) => b.readUInt32BE(at + 20 + i * 4);
  return { isutcnt: n(0), isstdcnt: n(1), leapcnt: n(2), timecnt: n(3), typecnt: n(4), charcnt: n(5) };
}

function dataBytes(c: Counts, timeSize: 4 | 8): number {
  return c.timecnt * timeSize + c.timecnt + c.typecnt * 6 + c.charcnt + c.leapcnt * (timeSize + 4) + c.isstdcnt + c.isutcnt;
}

/** Parses a TZif file (version 1 to 4); undefined when it is not one or cannot be used as is. */
export function parseTzif(b: Buffer): ZoneOffsets | undefined {
  const first = counts(b, 0);
  if (first === undefined) return undefined;
  const version = b[4] as number;
  let c = first;
  let at = HEADER_BYTES;
  let timeSize: 4 | 8 = 4;
  if (version >= 0x32) {
    // Version 2+: skip the 32-bit block; the 64-bit one follows with its own header, then the footer.
    const second = counts(b, HEADER_BYTES + dataBytes(first, 4));
    if (second === undefined) return undefined;
    c = second;
    at = HEADER_BYTES + dataBytes(first, 4) + HEADER_BYTES;
    timeSize = 8;
  }
  // Leap-second ("right/") zones count TAI-like seconds; rare, and Intl handles them.
  if (c.leapcnt > 0 || c.typecnt === 0 || b.length < at + dataBytes(c, timeSize)) return undefined;

  const times = new Float64Array(c.timecnt);
  for (let i = 0; i < c.timecnt; i++) {
    times[i] = timeSize === 8 ? Number(b.readBigInt64BE(at + i * 8)) : b.readInt32BE(at + i * 4);
  }
  at += c.timecnt * timeSize;
  const typeOf = Uint8Array.from(b.subarray(at, at + c.timecnt));
  at += c.timecnt;
  const offsets = new Int32Array(c.typecnt);
  for (let i = 0; i < c.typecnt; i++) offsets[i] = b.readInt32BE(at + i * 6);
  for (const t of typeOf) if (t >= c.typecnt) return undefined;

  let rule: ZoneOffsets | undefined;
  if (timeSize === 8) {
    const footerAt = at + c.typecnt * 6 + c.charcnt + c.leapcnt * 12 + c.isstdcnt + c.isutcnt;
    if (b[footerAt] === 0x0a) {
      const end = b.indexOf(0x0a, footerAt + 1);
      const tz = b.toString('latin1', footerAt + 1, end === -1 ? b.length : end);
      if (tz !== '') {
        rule = parsePosixTz(tz);
        if (rule === undefined) return undefined;
      }
    }
  }
  return new TzifOffsets(times, typeOf, offsets, rule);
}

class TzifOffsets implements ZoneOffsets {
  constructor(
    private readonly times: Float64Array,
    private readonly typeOf: Uint8Array,
    private readonly offsets: Int32Array,
    /** The footer's rule, for instants after the last transition. */
    private readonly rule: ZoneOffsets | undefined,
  ) {}

  offsetSeconds(t: number): number {
    const { times } = this;
    const n = times.length;
    if (n === 0) return this.rule?.offsetSeconds(t) ?? (this.offsets[0] as number);
    // Before the first transition: time type 0 (RFC 8536 section 3.2).
    if (t < (times[0] as number)) return this.offsets[0] as number;
    if (t >= (times[n - 1] as number) && this.rule !== undefined) return this.rule.offsetSeconds(t);
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((times[mid] as number) <= t) lo = mid;
      else hi = mid - 1;
    }
    return this.offsets[this.typeOf[lo] as number] as number;
  }
}

// ------------------------------------------------------------------------------------- POSIX TZ rules

interface RuleDate {
  readonly kind: 'M' | 'J' | 'N';
  readonly month: number;
  readonly week: number;
  readonly weekday: number;
  readonly day: number;
  /** Seconds after local midnight (may be negative or past 24 h, RFC 8536 section 3.3.1). */
  readonly time: number;
}

/** A cursor over a TZ string. */
class Scan {
  pos = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(): string {
    return this.text[this.pos] ?? '';
  }
  take(re: RegExp): string | undefined {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (m === null || m.index !== this.pos) return undefined;
    this.pos += m[0].length;
    return m[0];
  }
}

const NAME = /<[^>]+>|[A-Za-z]{3,}/y;
const HMS = /[+-]?\d{1,3}(:\d{1,2}(:\d{1,2})?)?/y;

function seconds(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0, s = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
  return sign * (h * 3600 + m * 60 + s);
}

function ruleDate(scan: Scan): RuleDate | undefined {
  let date: Omit<RuleDate, 'time'>;
  const m = scan.take(/M\d{1,2}\.\d\.\d/y);
  if (m !== undefined) {
    const [month = 0, week = 0, weekday = 0] = m.slice(1).split('.').map(Number);
    if (month < 1 || month > 12 || week < 1 || week > 5 || weekday > 6) return undefined;
    date = { kind: 'M', month, week, weekday, day: 0 };
  } else {
    const j = scan.take(/J\d{1,3}/y);
    const n = j === undefined ? scan.take(/\d{1,3}/y) : undefined;
    if (j !== undefined) date = { kind: 'J', month: 0, week: 0, weekday: 0, day: Number(j.slice(1)) };
    else if (n !== undefined) date = { kind: 'N', month: 0, week: 0, weekday: 0, day: Number(n) };
    else return undefined;
  }
  let time = 7200;
  if (scan.peek() === '/') {
    scan.pos++;
    const t = scan.take(HMS);
    if (t === undefined) return undefined;
    time = seconds(t);
  }
  return { ...date, time };
}

const DAY = 86_400;

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Local seconds (as if UTC) at which the rule's date and time fall in `year`. */
function localSecondsOf(d: RuleDate, year: number): number {
  const jan1 = Date.UTC(year, 0, 1) / 1000;
  if (d.kind === 'J') {
    // 1-365, February 29 never counted.
    const dayOfYear = d.day >= 60 && isLeap(year) ? d.day : d.day - 1;
    return jan1 + dayOfYear * DAY + d.time;
  }
  if (d.kind === 'N') return jan1 + d.day * DAY + d.time;
  const firstWeekday = new Date(Date.UTC(year, d.month - 1, 1)).getUTCDay();
  let day = 1 + ((d.weekday - firstWeekday + 7) % 7) + (d.week - 1) * 7;
  const daysInMonth = new Date(Date.UTC(year, d.month, 0)).getUTCDate();
  while (day > daysInMonth) day -= 7;
  return Date.UTC(year, d.month - 1, day) / 1000 + d.time;
}

/**
 * A POSIX TZ string as a TZif footer holds it, e.g. `CET-1CEST,M3.5.0,M10.5.0/3`: offsets are
 * west-positive there, so they are negated; a rule's start is in standard time, its end in daylight time.
 */
export function parsePosixTz(tz: string): ZoneOffsets | undefined {
  const scan = new Scan(tz);
  if (scan.take(NAME) === undefined) return undefined;
  const stdText = scan.take(HMS);
  if (stdText === undefined) return undefined;
  const std = -seconds(stdText);
  if (scan.done) return { offsetSeconds: () => std };
  if (scan.take(NAME) === undefined) return undefined;
  const dstText = scan.take(HMS);
  const dst = dstText === undefined ? std + 3600 : -seconds(dstText);
  // DST without a rule has no defined dates; leave such a zone to Intl.
  if (scan.peek() !== ',') return undefined;
  scan.pos++;
  const start = ruleDate(scan);
  if (start === undefined || scan.peek() !== ',') return undefined;
  scan.pos++;
  const end = ruleDate(scan);
  if (end === undefined || !scan.done) return undefined;
  return {
    offsetSeconds(t: number): number {
      const year = new Date((t + std) * 1000).getUTCFullYear();
      const dstFrom = localSecondsOf(start, year) - std;
      const dstUntil = localSecondsOf(end, year) - dst;
      const inDst = dstFrom < dstUntil ? t >= dstFrom && t < dstUntil : !(t >= dstUntil && t < dstFrom);
      return inDst ? dst : std;
    },
  };
}

let canonical: ReadonlySet<string> | undefined;
const systemNames = new Map<string, ReadonlySet<string> | null>();

/**
 * The IANA names, zones and links, that the system's tzdata lists in its `tzdata.zi` (Debian's tzdata has it), or
 * null without that file. Asked before canonicalZoneNames: Intl's list reads ICU's zone data, some 0.5 MB of the
 * node binary that then stays resident for the life of the hub, for a question the system's 110 KB file answers.
 * Every IANA name is one Intl knows as well (links as aliases), so a client that formats dates with it works.
 */
export function systemZoneNames(dir = process.env.TZDIR || DEFAULT_TZDIR): ReadonlySet<string> | null {
  let names = systemNames.get(dir);
  if (names !== undefined) return names;
  names = null;
  try {
    const set = new Set<string>();
    for (const line of readFileSync(join(dir, 'tzdata.zi'), 'latin1').split('\n')) {
      // `Z <name> ...` a zone, `L <target> <name>` a link.
      const [kind, a, b] = line.split(' ', 3);
      const name = kind === 'Z' ? a : kind === 'L' ? b : undefined;
      if (name !== undefined && name !== '') set.add(name);
    }
    if (set.size > 0) names = set;
  } catch {
    // no tzdata.zi: Intl's list answers
  }
  // A hub asks for one directory (tests a few): the map stays tiny.
  if (systemNames.size < 4) systemNames.set(dir, names);
  return names;
}

/** Whether `name` is an IANA time zone name exactly as spelled: the system's list first, then Intl's. */
export function isZoneName(name: string): boolean {
  return systemZoneNames()?.has(name) === true || canonicalZoneNames().has(name);
}

/**
 * The canonical IANA names the runtime knows (plus UTC). Reading this list does not load ICU's locale
 * data, unlike constructing an Intl.DateTimeFormat; for these names Intl.DateTimeFormat resolves each
 * name to itself, so a name in this set needs no further check.
 */
export function canonicalZoneNames(): ReadonlySet<string> {
  canonical ??= new Set(['UTC', ...Intl.supportedValuesOf('timeZone')]);
  return canonical;
}
