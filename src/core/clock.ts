/**
 * Time as integer microseconds since the epoch: exact in a double until the year 2255, cheap to compare,
 * and convertible to both of Home Assistant's wire forms (ISO 8601 with `+00:00`, float epoch seconds).
 *
 * Wall time comes from Date.now() (it follows NTP corrections, which matter on a Pi without an RTC that
 * boots with a wrong clock); the microsecond digits come from the monotonic high-resolution timer.
 */
export type Micros = number;

export interface Clock {
  now(): Micros;
}

let tickMs = 0;
let tickStartPerf = Number.NEGATIVE_INFINITY;

export const systemClock: Clock = {
  /**
   * The microseconds are counted from when Date.now() last moved to a new millisecond, on the monotonic timer,
   * so two readings in one millisecond never go backwards (the fraction of performance.now() alone, unrelated
   * to Date.now()'s millisecond boundary, did: `now - then` came out negative). A step of the wall clock
   * itself (NTP) still shows.
   */
  now(): Micros {
    const perf = performance.now();
    // Within a millisecond of the tick's start the monotonic timer alone will do: the tick's millisecond plus
    // the time since is at most a millisecond behind the wall clock, as the fraction always was. Date.now() (half
    // a reading's cost under a flood of service calls) is read again after that, so a step of the wall clock
    // shows at most a millisecond later.
    const since = perf - tickStartPerf;
    if (since >= 0 && since < 1) return tickMs * 1000 + Math.floor(since * 1000);
    const ms = Date.now();
    if (ms !== tickMs) {
      tickMs = ms;
      tickStartPerf = perf;
      return ms * 1000;
    }
    return ms * 1000 + Math.min(999, Math.floor(since * 1000));
  },
};

/** A clock tests can move by hand. */
export class ManualClock implements Clock {
  constructor(private t: Micros = Date.UTC(2026, 0, 1) * 1000) {}
  now(): Micros {
    return this.t;
  }
  advance(micros: Micros): void {
    this.t += micros;
  }
}

/**
 * Python's `datetime.isoformat()` of an aware UTC datetime, as Home Assistant writes it:
 * six fraction digits unless the microsecond is exactly 0, and always `+00:00`.
 */
export function isoFromMicros(us: Micros): string {
  const second = Math.floor(us / 1_000_000);
  // Timestamps come in bursts within the same second (a state's last_changed, last_updated and its
  // event's time_fired): the date part is formatted once per second instead of once per call.
  if (second !== lastSecond) {
    lastSecond = second;
    lastBase = utcDateTime(new Date(second * 1000));
    lastBaseDot = `${lastBase}.`;
  }
  const micro = us - second * 1_000_000;
  if (micro === 0) return `${lastBase}+00:00`;
  // The fraction from two table entries (`| 0`: an integer under a million; `%` on a double would be a call to
  // fmod). Its 12 characters are joined flat, so the time is one rope of two strings.
  const m = micro | 0;
  const tail = `${THREE_DIGITS[(m / 1000) | 0]}${THREE_DIGITS[m % 1000]}+00:00`;
  return lastBaseDot + tail;
}

let lastSecond = Number.NaN;
let lastBase = '';
let lastBaseDot = '';
const THREE_DIGITS: readonly string[] = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

const two = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DDTHH:MM:SS` of a time in UTC, from Date's UTC getters (as util/calendar.ts reads wall times). Not
 * Date#toISOString: its first call makes V8 set up its date cache and ICU's time zone data, some 0.9 MB of the
 * node binary paged in (0.5 MB in a running hub), for a UTC string that needs none of it.
 */
function utcDateTime(d: Date): string {
  const year = d.getUTCFullYear();
  return `${year < 1000 ? String(year).padStart(4, '0') : year}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/**
 * What `new Date(ms).toISOString()` gives (`2026-01-01T12:00:00.000Z`), without the date cache and time zone
 * data that its first call loads (see utcDateTime). Years beyond 0-9999, and values that are not a time, are
 * left to Date, which writes them with six digits and a sign, or throws.
 */
export function isoFromMillis(ms: number = Date.now()): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString();
  const milli = d.getUTCMilliseconds();
  return `${utcDateTime(d)}.${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}

/** Float epoch seconds, as the compressed `subscribe_entities` format carries them. */
export function epochSeconds(us: Micros): number {
  return us / 1_000_000;
}

/** Parses an ISO 8601 timestamp to microseconds; undefined when it is not one. */
export function microsFromIso(text: string): Micros | undefined {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}${m[3] ?? 'Z'}`);
  if (Number.isNaN(ms)) return undefined;
  return ms * 1000 + Number((m[2] ?? '').padEnd(6, '0'));
}
