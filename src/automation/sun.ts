import { getPosition, getTimes } from 'suncalc';
import type { Micros } from '../core/clock.js';

/** Where the hub is (the `hub:` section), for the sun trigger, condition and the sun.sun entity. */
export interface HubLocation {
  readonly latitude: number;
  readonly longitude: number;
}

/** The suncalc names of the events Home Assistant's sun integration reports. */
export type SunEvent = 'sunrise' | 'sunset' | 'dawn' | 'dusk' | 'solarNoon' | 'nadir';

const DAY_US = 86_400_000_000;
/** Polar day or night can hide an event for months; the search stops after a year and a bit. */
const SEARCH_DAYS = 370;

/** The event on the solar day of `dayUs`, or undefined when it does not happen that day (polar day or night). */
export function sunEventOn(event: SunEvent, dayUs: Micros, at: HubLocation): Micros | undefined {
  const date = getTimes(new Date(dayUs / 1000), at.latitude, at.longitude)[event];
  return date instanceof Date && Number.isFinite(date.getTime()) ? date.getTime() * 1000 : undefined;
}

/** The first time the event happens after `afterUs`; undefined when it does not within a year (near a pole). */
export function nextSunEvent(event: SunEvent, afterUs: Micros, at: HubLocation): Micros | undefined {
  for (let day = -1; day <= SEARCH_DAYS; day++) {
    const when = sunEventOn(event, afterUs + day * DAY_US, at);
    if (when !== undefined && when > afterUs) return when;
  }
  return undefined;
}

/** The sun's elevation and azimuth in degrees (azimuth clockwise from north, as Home Assistant's). */
export function sunPosition(us: Micros, at: HubLocation): { elevation: number; azimuth: number } {
  const p = getPosition(new Date(us / 1000), at.latitude, at.longitude);
  return { elevation: p.altitude, azimuth: p.azimuth };
}
