import { Core } from '../../../src/core/core.js';
import type { JsonObject } from '../../../src/core/json.js';
import { silentLogger } from '../../../src/core/log.js';
import { parseResult, TemplateEngine } from '../../../src/template/index.js';
import type { HaCase } from './types.js';

/** Renders a ported case through hearth's engine and compares it with Home Assistant's result. */

/** 2026-01-15 12:00:00 UTC: the clock when a case does not freeze time. */
const NOON_UTC_US = Date.UTC(2026, 0, 15, 12, 0, 0) * 1000;

class SettableClock {
  t = NOON_UTC_US;
  now(): number {
    return this.t;
  }
}

interface Rig {
  readonly core: Core;
  readonly clock: SettableClock;
  readonly engine: TemplateEngine;
}

const rigs = new Map<string, Rig>();

/** One hub per time zone, as HA's test instance: home at 32.87336, -117.22743, lengths in metres (the tests' unit system). */
function rigFor(tz: string): Rig {
  let rig = rigs.get(tz);
  if (rig === undefined) {
    const clock = new SettableClock();
    const core = new Core({ log: silentLogger, clock });
    const engine = new TemplateEngine({
      core,
      timeZone: tz,
      location: () => ({ latitude: 32.87336, longitude: -117.22743, lengthUnit: 'm' }),
      // The cases check what a template renders, not how fast: a test run with coverage compiles slowly.
      limits: { renderMs: 2000, compileMs: 2000 },
    });
    rig = { core, clock, engine };
    rigs.set(tz, rig);
  }
  return rig;
}

type Outcome = { ok: true; text: string } | { ok: false; message: string };

function run(c: HaCase): Outcome {
  const rig = rigFor(c.tz ?? 'US/Pacific');
  for (const id of [...rig.core.states.entityIds()]) rig.core.states.remove(id);
  rig.clock.t = c.now === undefined ? NOON_UTC_US : Date.parse(c.now) * 1000;
  for (const [id, state, attributes] of c.states ?? []) rig.core.states.set(id, state, (attributes ?? {}) as JsonObject);
  const r = rig.engine.tryRender(c.tpl, { variables: c.vars ?? {}, name: 'template' });
  return r.ok ? { ok: true, text: r.text } : { ok: false, message: r.error.message };
}

/** Python's ==, as the tests compare: 2 == 2.0, True == 1, dicts by content, tuples and sets as lists. */
function pyEq(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' || typeof a === 'boolean') {
    if (typeof b !== 'number' && typeof b !== 'boolean') return false;
    return Number(a) === Number(b) || (Number.isNaN(Number(a)) && Number.isNaN(Number(b)));
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => pyEq(v, b[i]));
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length &&
      ka.every((k) => Object.hasOwn(b, k) && pyEq((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    );
  }
  return a === b;
}

function unorderedEq(a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const rest = [...b];
  return a.every((v) => {
    const i = rest.findIndex((w) => pyEq(v, w));
    if (i < 0) return false;
    rest.splice(i, 1);
    return true;
  });
}

/** undefined when the case passes, else what went wrong. */
export function check(c: HaCase): string | undefined {
  const out = run(c);
  if (c.error !== undefined) {
    if (out.ok) return `expected an error, got ${JSON.stringify(out.text)}`;
    if (typeof c.error === 'string' && !out.message.includes(c.error))
      return `error ${JSON.stringify(out.message)} lacks ${JSON.stringify(c.error)}`;
    return undefined;
  }
  if (!out.ok) return `error: ${out.message}`;
  if (c.text !== undefined) return out.text === c.text ? undefined : `text ${JSON.stringify(out.text)}, expected ${JSON.stringify(c.text)}`;
  const value = parseResult(out.text);
  const got = `${JSON.stringify(value)} (text ${JSON.stringify(out.text)})`;
  if (c.truthy) return value !== '' && value !== false && value !== 0 && value !== null ? undefined : `not truthy: ${got}`;
  if (c.contains !== undefined) {
    const missing = c.contains.filter((part) => !out.text.includes(part));
    return missing.length === 0 ? undefined : `${got} lacks ${JSON.stringify(missing)}`;
  }
  if (c.length !== undefined) return Array.isArray(value) && value.length === c.length ? undefined : `${got}, expected ${c.length} items`;
  if (c.oneOf !== undefined) return c.oneOf.some((v) => pyEq(v, value)) ? undefined : `${got}, expected one of ${JSON.stringify(c.oneOf)}`;
  const ok = c.unordered ? unorderedEq(c.expect, value) : pyEq(c.expect, value);
  return ok ? undefined : `${got}, expected ${JSON.stringify(c.expect)}`;
}

export function caseKey(c: HaCase): string {
  return `${c.file}#${c.fn}#${c.tpl}`;
}
