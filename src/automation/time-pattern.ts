import type { ConfigReader } from '../config/reader.js';
import type { Micros } from '../core/clock.js';
import { isTemplate, TEMPLATE_NOT_ALLOWED } from './config-values.js';
import type { TimeZone } from './local-time.js';
import type { TimePatternTrigger } from './model.js';

/**
 * Home Assistant's `time_pattern` trigger: `hours`, `minutes`, `seconds`, each a number, `*` (any) or `/n`
 * (every n: the value is a multiple of n). A unit left out is any, except below a given one, which is 0
 * (`minutes: /5` fires at second 0 of every fifth minute), as homeassistant/triggers/time_pattern.py does.
 */

const UNITS = [
  { key: 'hours', max: 23 },
  { key: 'minutes', max: 59 },
  { key: 'seconds', max: 59 },
] as const;

const range = (max: number) => Array.from({ length: max + 1 }, (_, i) => i);

/** The values one unit matches; undefined after reporting a problem. */
function readUnit(r: ConfigReader, key: string, max: number): number[] | undefined {
  const raw = r.raw(key);
  const help = `expected a number from 0 to ${max}, "*" or "/n" (every n)`;
  if (isTemplate(raw)) {
    r.problem(key, TEMPLATE_NOT_ALLOWED);
    return undefined;
  }
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : undefined;
  if (text === '*') return range(max);
  const every = text?.startsWith('/') ? Number(text.slice(1)) : undefined;
  if (every !== undefined) {
    if (Number.isInteger(every) && every >= 1 && every <= max + 1) return range(max).filter((v) => v % every === 0);
  } else if (text !== undefined && /^\d+$/.test(text) && Number(text) <= max) return [Number(text)];
  r.problem(key, `${JSON.stringify(raw)} is not allowed: ${help}`);
  return undefined;
}

export function parseTimePattern(
  r: ConfigReader,
  base: Pick<TimePatternTrigger, 'id' | 'index' | 'enabled'>,
): TimePatternTrigger | undefined {
  const given = UNITS.map((u) => r.has(u.key));
  if (!given.some(Boolean)) {
    r.problem(undefined, 'must contain at least one of hours, minutes, seconds');
    return undefined;
  }
  const values: number[][] = [];
  let ok = true;
  UNITS.forEach((unit, i) => {
    if (given[i]) {
      const v = readUnit(r, unit.key, unit.max);
      if (v === undefined) ok = false;
      values.push(v ?? []);
    } else values.push(given.slice(0, i).some(Boolean) ? [0] : range(unit.max));
  });
  if (!ok) return undefined;
  const [hours, minutes, seconds] = values as [number[], number[], number[]];
  return { ...base, kind: 'time_pattern', hours, minutes, seconds };
}

/** The first second of the day, after `afterSecond`, the pattern matches; undefined when none is left today. */
function nextSecondOfDay(t: TimePatternTrigger, afterSecond: number): number | undefined {
  for (const h of t.hours) {
    if (h * 3600 + 3599 <= afterSecond) continue;
    for (const m of t.minutes) {
      if (h * 3600 + m * 60 + 59 <= afterSecond) continue;
      for (const s of t.seconds) {
        const at = h * 3600 + m * 60 + s;
        if (at > afterSecond) return at;
      }
    }
  }
  return undefined;
}

/** The next instant after `afterUs` at which the hub's wall clock matches the pattern. */
export function nextPatternTime(t: TimePatternTrigger, zone: TimeZone, afterUs: Micros): Micros {
  const now = Math.floor(zone.local(afterUs).secondsOfDay);
  const today = nextSecondOfDay(t, now);
  // An empty list (e.g. `/n` matching nothing) cannot happen: 0 is a multiple of every n.
  const second = today ?? nextSecondOfDay(t, -1) ?? 0;
  return zone.nextAt(afterUs, second);
}
