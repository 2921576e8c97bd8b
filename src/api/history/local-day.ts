import type { Micros } from '../../core/clock.js';
import { readSystemZone, UTC_OFFSETS, type ZoneOffsets } from '../../util/tzif.js';

const zones = new Map<string, ZoneOffsets>();

function zone(name: string): ZoneOffsets {
  let z = zones.get(name);
  if (z === undefined) {
    z = readSystemZone(name) ?? UTC_OFFSETS;
    // One hub has one time zone; the map stays tiny.
    if (zones.size < 8) zones.set(name, z);
  }
  return z;
}

/** The instant the local day containing `nowUs` began in the hub's time zone (the logbook's default start). */
export function localDayStart(nowUs: Micros, timeZone: string): Micros {
  const z = zone(timeZone);
  const nowS = Math.floor(nowUs / 1_000_000);
  const localS = nowS + z.offsetSeconds(nowS);
  const midnightLocal = localS - (((localS % 86_400) + 86_400) % 86_400);
  // The offset at midnight may differ from now's (a DST change during the day).
  const guess = midnightLocal - z.offsetSeconds(nowS);
  return (midnightLocal - z.offsetSeconds(guess)) * 1_000_000;
}
