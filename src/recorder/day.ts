import { isoFromMillis } from '../core/clock.js';

export const DAY_S = 86_400;

/** The UTC calendar day of an instant (ms), as `YYYY-MM-DD`: the name of the recorder's day files. */
export function utcDayOf(ms: number): string {
  return isoFromMillis(ms).slice(0, 10);
}
