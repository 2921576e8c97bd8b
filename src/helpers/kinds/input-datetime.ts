import type { Context } from '../../core/context.js';
import type { JsonObject } from '../../core/json.js';
import { type DesiredState, validationError } from '../../domains/domain.js';
import { addInputDatetime, type DateTimeInput, type InputDatetimePlatform, type LocalDateTime } from '../../domains/input-datetime.js';
import { calendarFields } from '../../util/calendar.js';
import type { FieldProblem, HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, setNameIcon, str } from '../kind.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;
const MIDNIGHT_1970: LocalDateTime = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 };

function parseDate(text: string): Pick<LocalDateTime, 'year' | 'month' | 'day'> | undefined {
  const m = DATE.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? { year, month, day } : undefined;
}

function parseTime(text: string): Pick<LocalDateTime, 'hour' | 'minute' | 'second'> | undefined {
  const m = TIME.exec(text.trim());
  if (!m) return undefined;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  return hour < 24 && minute < 60 && second < 60 ? { hour, minute, second } : undefined;
}

/** "2026-01-15 07:30:00" or "2026-01-15T07:30:00" (an offset, if any, is ignored: the value is local time). */
function parseDateTime(text: string): LocalDateTime | undefined {
  const m = /^(\S+)[ T](\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(?:Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!m) return undefined;
  const date = parseDate(m[1] as string);
  const time = parseTime(m[2] as string);
  return date && time ? { ...date, ...time } : undefined;
}

/** An `initial` or a stored state, read as the helper's has_date/has_time say. */
function parseValue(text: string, hasDate: boolean, hasTime: boolean): LocalDateTime | undefined {
  if (hasDate && hasTime) return parseDateTime(text);
  if (hasDate) {
    const d = parseDate(text);
    return d && { ...MIDNIGHT_1970, ...d };
  }
  const t = parseTime(text);
  return t && { ...MIDNIGHT_1970, ...t };
}

class InputDatetime implements InputDatetimePlatform, LiveHelper {
  private value: LocalDateTime;
  private readonly handle;

  constructor(
    private readonly env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    const initial = str(item.initial);
    this.value = (initial !== undefined ? parseValue(initial, this.hasDate, this.hasTime) : undefined) ?? MIDNIGHT_1970;
    this.handle = addInputDatetime(env.core, entityInit(env, 'input_datetime', item, this));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private get hasDate(): boolean {
    return this.item.has_date === true;
  }

  private get hasTime(): boolean {
    return this.item.has_time === true;
  }

  /** Epoch seconds of the local value in the hub's zone; seconds since midnight for a time alone. */
  private timestamp(): number {
    const v = this.value;
    if (!this.hasDate) return v.hour * 3600 + v.minute * 60 + v.second;
    const local = Date.UTC(v.year, v.month - 1, v.day, this.hasTime ? v.hour : 0, this.hasTime ? v.minute : 0, this.hasTime ? v.second : 0);
    const { offsetMs } = this.env;
    return (local - offsetMs(local - offsetMs(local))) / 1000;
  }

  private report(context?: Context): void {
    this.handle.report(
      { value: this.value, hasDate: this.hasDate, hasTime: this.hasTime, editable: this.editable, timestamp: this.timestamp() },
      context,
    );
  }

  setDatetime(input: DateTimeInput, context: Context): void {
    let next: LocalDateTime | undefined;
    if (input.timestamp !== undefined) {
      const utc = input.timestamp * 1000;
      const { year, month, day, hour, minute, second } = calendarFields(utc + this.env.offsetMs(utc));
      next = { year, month, day, hour, minute, second };
    } else if (input.datetime !== undefined) {
      next = parseDateTime(input.datetime);
      if (next === undefined) throw validationError(`Invalid datetime specified: ${input.datetime}`);
    } else {
      const date = input.date === undefined ? {} : parseDate(input.date);
      const time = input.time === undefined ? {} : parseTime(input.time);
      if (date === undefined) throw validationError(`Invalid date specified: ${input.date}`);
      if (time === undefined) throw validationError(`Invalid time specified: ${input.time}`);
      next = { ...this.value, ...date, ...time };
    }
    if (!this.hasDate && (input.date !== undefined || input.datetime !== undefined)) {
      // Home Assistant keeps the time part only; the date has no place in a time helper.
      next = { ...this.value, hour: next.hour, minute: next.minute, second: next.second };
    }
    if (!this.hasTime && (input.time !== undefined || input.datetime !== undefined || input.timestamp !== undefined)) {
      next = { ...next, hour: 0, minute: 0, second: 0 };
    }
    this.value = next;
    this.report(context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.initial !== undefined) return;
    const v = parseValue(stored.state, this.hasDate, this.hasTime);
    if (v === undefined) return;
    this.value = v;
    this.report(context);
  }

  update(item: HelperItem): void {
    this.item = item;
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {}
}

function check(item: JsonObject): FieldProblem[] {
  const hasDate = item.has_date === true;
  const hasTime = item.has_time === true;
  if (!hasDate && !hasTime) return [{ key: undefined, message: 'Entity has_date or has_time must be set (at least one of them true)' }];
  const initial = str(item.initial);
  if (initial !== undefined && parseValue(initial, hasDate, hasTime) === undefined) {
    const want = hasDate && hasTime ? 'a date and time (2026-01-15 07:30:00)' : hasDate ? 'a date (2026-01-15)' : 'a time (07:30:00)';
    return [{ key: 'initial', message: `${JSON.stringify(initial)} is not ${want}` }];
  }
  return [];
}

export const INPUT_DATETIME: HelperKind = {
  domain: 'input_datetime',
  fields: {
    ...NAME_ICON,
    has_date: { field: { kind: 'boolean' }, default: false },
    has_time: { field: { kind: 'boolean' }, default: false },
    initial: { field: { kind: 'string' } },
  },
  check,
  start: (env, item, editable) => new InputDatetime(env, item, editable),
};
