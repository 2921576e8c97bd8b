import { isZoneName, readSystemZone, UTC_OFFSETS, type ZoneOffsets } from './tzif.js';

/**
 * The one time-zone resolver (automations, templates, the logbook's day, the recorder's statistics all come
 * here, so they never disagree): the system database first, as Python's zoneinfo reads it for Home Assistant;
 * where its file is missing (no tzdata package, a trimmed image), Intl, as Node ships the full ICU data (its
 * first date format costs about 9 MB of resident memory, so it is the fallback only). Undefined for a name
 * neither knows.
 */
export function zoneOffsets(name: string): ZoneOffsets | undefined {
  if (name === 'UTC') return UTC_OFFSETS;
  const dir = process.env.TZDIR ?? '';
  const key = `${dir}\0${name}`;
  const cached = resolved.get(key);
  if (cached !== undefined) return cached;
  const offsets = (isZoneName(name) ? readSystemZone(name) : undefined) ?? intlOffsets(name);
  // One hub has one time zone (tests a few): the cache stays tiny.
  if (offsets !== undefined && resolved.size < 16) resolved.set(key, offsets);
  return offsets;
}

const resolved = new Map<string, ZoneOffsets>();

/** Offsets through Intl.DateTimeFormat, or undefined for a name Intl does not know. */
function intlOffsets(name: string): ZoneOffsets | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return undefined;
  }
  return {
    offsetSeconds(utcSeconds: number): number {
      const p: Record<string, number> = {};
      for (const part of format.formatToParts(new Date(utcSeconds * 1000))) p[part.type] = Number(part.value);
      const wall = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
      return wall / 1000 - utcSeconds;
    },
  };
}
