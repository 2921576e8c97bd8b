import type { Micros } from '../../core/clock.js';
import { zoneOffsets } from '../../util/time-zone.js';
import { UTC_OFFSETS } from '../../util/tzif.js';

/** The instant the local day containing `nowUs` began in the hub's time zone (the logbook's default start). */
export function localDayStart(nowUs: Micros, timeZone: string): Micros {
  const z = zoneOffsets(timeZone) ?? UTC_OFFSETS;
  const nowS = Math.floor(nowUs / 1_000_000);
  const localS = nowS + z.offsetSeconds(nowS);
  const midnightLocal = localS - (((localS % 86_400) + 86_400) % 86_400);
  // The offset at midnight may differ from now's (a DST change during the day).
  const guess = midnightLocal - z.offsetSeconds(nowS);
  return (midnightLocal - z.offsetSeconds(guess)) * 1_000_000;
}
