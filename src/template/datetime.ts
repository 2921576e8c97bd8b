import { type CalendarFields, calendarFields } from '../util/calendar.js';
import type { ZoneOffsets } from '../util/tzif.js';
import { fault } from './errors.js';
import { type BinaryOp, NOT_SUPPORTED, splitArgs, TemplateObject, templateCallable } from './objects.js';
import { pyFloat } from './py-float.js';
import { PyTimedelta } from './timedelta.js';

export { PyTimedelta };

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function offsetText(seconds: number, colon: boolean): string {
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  return `${sign}${pad(Math.floor(abs / 3600))}${colon ? ':' : ''}${pad(Math.floor(abs / 60) % 60)}`;
}

/** Wall-clock fields of an instant shifted by an offset. */
interface Fields extends CalendarFields {
  readonly microsecond: number;
  readonly yday: number;
}

function fieldsOf(localUs: number): Fields {
  const ms = Math.floor(localUs / 1000);
  const fields = calendarFields(ms);
  return {
    ...fields,
    microsecond: localUs - Math.floor(localUs / 1_000_000) * 1_000_000,
    yday: Math.floor((ms - Date.UTC(fields.year, 0, 1)) / 86_400_000) + 1,
  };
}

/** A time zone as a datetime carries it: its name and offsets. Undefined for a naive datetime. */
export interface PyZone {
  readonly name: string;
  readonly offsets: ZoneOffsets;
}

export const UTC_ZONE: PyZone = { name: 'UTC', offsets: { offsetSeconds: () => 0 } };

/**
 * Python's datetime.datetime: an instant (microseconds since the epoch) and the zone it is shown in; a naive
 * datetime (no zone) keeps its wall-clock time in `us` as if it were UTC.
 */
export class PyDateTime extends TemplateObject {
  override readonly pyType = 'datetime.datetime';
  readonly offsetSeconds: number;
  private cached: Fields | undefined;

  constructor(
    readonly us: number,
    readonly zone: PyZone | undefined,
  ) {
    super();
    this.offsetSeconds = zone === undefined ? 0 : zone.offsets.offsetSeconds(Math.floor(us / 1_000_000));
  }

  /** The instant of a wall-clock time in a zone (the offset in force at that wall time). */
  static fromLocal(localUs: number, zone: PyZone | undefined): PyDateTime {
    if (zone === undefined) return new PyDateTime(localUs, undefined);
    let us = localUs - zone.offsets.offsetSeconds(Math.floor(localUs / 1_000_000)) * 1_000_000;
    us = localUs - zone.offsets.offsetSeconds(Math.floor(us / 1_000_000)) * 1_000_000;
    return new PyDateTime(us, zone);
  }

  get fields(): Fields {
    this.cached ??= fieldsOf(this.us + this.offsetSeconds * 1_000_000);
    return this.cached;
  }

  /** Comparisons with `<` and `>` in the compiled template fall back to this. */
  override valueOf(): number {
    return this.us;
  }

  timestamp(): number {
    return this.us / 1_000_000;
  }

  inZone(zone: PyZone): PyDateTime {
    return new PyDateTime(this.us, zone);
  }

  getAttr(name: string): unknown {
    const f = this.fields;
    switch (name) {
      case 'year':
      case 'month':
      case 'day':
      case 'hour':
      case 'minute':
      case 'second':
      case 'microsecond':
        return f[name];
      case 'tzinfo':
        return this.zone?.name ?? null;
      case 'timestamp':
        return templateCallable(() => pyFloat(this.timestamp()));
      case 'isoformat':
        return templateCallable(() => this.isoformat());
      case 'weekday':
        return templateCallable(() => f.weekday);
      case 'isoweekday':
        return templateCallable(() => f.weekday + 1);
      case 'strftime':
        return templateCallable((format: unknown) => this.strftime(String(format)));
      case 'date':
        return templateCallable(() => `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}`);
      case 'time':
        return templateCallable(() => `${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`);
      case 'astimezone':
        return templateCallable(() => this);
      case 'replace':
        return templateCallable((...args: unknown[]) => this.replace(args));
      default:
        return undefined;
    }
  }

  private replace(args: unknown[]): PyDateTime {
    const { kwargs } = splitArgs(args);
    const f = this.fields;
    const get = (key: keyof Fields): number => {
      const v = kwargs[key];
      if (v === undefined) return f[key];
      if (typeof v !== 'number' || !Number.isInteger(v)) throw fault('TypeError', `${key} must be an integer`);
      return v;
    };
    const localMs = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return PyDateTime.fromLocal(localMs * 1000 + get('microsecond'), this.zone);
  }

  isoformat(sep = 'T'): string {
    const f = this.fields;
    const frac = f.microsecond === 0 ? '' : `.${pad(f.microsecond, 6)}`;
    const zone = this.zone === undefined ? '' : offsetText(this.offsetSeconds, true);
    return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}${sep}${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}${frac}${zone}`;
  }

  strftime(format: string): string {
    const f = this.fields;
    return format.replace(/%-?([a-zA-Z%])/g, (m, c: string) => {
      const noPad = m.length === 3;
      const p = (n: number, w = 2) => (noPad ? String(n) : pad(n, w));
      switch (c) {
        case 'Y':
          return pad(f.year, 4);
        case 'y':
          return p(f.year % 100);
        case 'm':
          return p(f.month);
        case 'd':
          return p(f.day);
        case 'e':
          return String(f.day).padStart(2, ' ');
        case 'H':
          return p(f.hour);
        case 'I':
          return p(f.hour % 12 === 0 ? 12 : f.hour % 12);
        case 'M':
          return p(f.minute);
        case 'S':
          return p(f.second);
        case 'f':
          return pad(f.microsecond, 6);
        case 'p':
          return f.hour < 12 ? 'AM' : 'PM';
        case 'a':
          return (WEEKDAYS[f.weekday] as string).slice(0, 3);
        case 'A':
          return WEEKDAYS[f.weekday] as string;
        case 'w':
          return String((f.weekday + 1) % 7);
        case 'u':
          return String(f.weekday + 1);
        case 'b':
        case 'h':
          return (MONTHS[f.month - 1] as string).slice(0, 3);
        case 'B':
          return MONTHS[f.month - 1] as string;
        case 'j':
          return p(f.yday, 3);
        case 'z':
          return this.zone === undefined ? '' : offsetText(this.offsetSeconds, false);
        case 'Z':
          return this.zone?.name ?? '';
        case 's':
          return String(Math.floor(this.timestamp()));
        case 'c':
          return `${(WEEKDAYS[f.weekday] as string).slice(0, 3)} ${(MONTHS[f.month - 1] as string).slice(0, 3)} ${String(f.day).padStart(2, ' ')} ${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)} ${f.year}`;
        case 'x':
          return `${pad(f.month)}/${pad(f.day)}/${pad(f.year % 100)}`;
        case 'X':
          return `${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}`;
        case '%':
          return '%';
        default:
          return m;
      }
    });
  }

  /** `2026-11-25 10:00:00.123456+01:00`, as str(datetime). */
  pyStr(): string {
    return this.isoformat(' ');
  }

  override pyRepr(): string {
    const f = this.fields;
    const parts = [f.year, f.month, f.day, f.hour, f.minute, f.second, f.microsecond];
    while (parts.length > 5 && parts[parts.length - 1] === 0) parts.pop();
    const tz = this.zone === undefined ? '' : `, tzinfo=zoneinfo.ZoneInfo(key='${this.zone.name}')`;
    return `datetime.datetime(${parts.join(', ')}${tz})`;
  }

  override pyEquals(other: unknown): boolean {
    return other instanceof PyDateTime && other.us === this.us;
  }

  override pyCompare(other: unknown): number | undefined {
    if (!(other instanceof PyDateTime)) return undefined;
    if ((this.zone === undefined) !== (other.zone === undefined)) {
      throw fault('TypeError', "can't compare offset-naive and offset-aware datetimes");
    }
    return this.us - other.us;
  }

  override pyBinary(op: BinaryOp, other: unknown, reflected: boolean): unknown {
    if (other instanceof PyTimedelta) {
      if (op === '+') return new PyDateTime(this.us + other.us, this.zone);
      if (op === '-' && !reflected) return new PyDateTime(this.us - other.us, this.zone);
    }
    if (op === '-' && other instanceof PyDateTime) {
      if ((this.zone === undefined) !== (other.zone === undefined)) {
        throw fault('TypeError', "can't subtract offset-naive and offset-aware datetimes");
      }
      return new PyTimedelta(reflected ? other.us - this.us : this.us - other.us);
    }
    return NOT_SUPPORTED;
  }
}
