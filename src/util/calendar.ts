/** A local date and time of day with no time zone (Home Assistant's naive datetime). */
export interface LocalDateTime {
  readonly year: number;
  /** 1-12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** The calendar fields of a wall-clock time. */
export interface CalendarFields extends LocalDateTime {
  /** 0 = Monday, as Python's weekday(). */
  readonly weekday: number;
}

/**
 * The fields of a local wall-clock time given as epoch ms already shifted by its zone's offset: Date's UTC
 * getters read it without any time zone data.
 */
export function calendarFields(wallMs: number): CalendarFields {
  const d = new Date(wallMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: (d.getUTCDay() + 6) % 7,
  };
}
