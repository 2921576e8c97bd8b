import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { localDayStart } from '../../src/api/history/local-day.js';
import { TimeZone } from '../../src/automation/local-time.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { TemplateEngine } from '../../src/template/index.js';
import { zoneOffsets } from '../../src/util/time-zone.js';

const SUMMER_S = Date.UTC(2026, 6, 10, 15, 0, 0) / 1000;
const WINTER_S = Date.UTC(2026, 0, 15, 12, 0, 0) / 1000;

/** Runs `fn` with TZDIR pointing at an empty directory: the system has no tzdata. */
function withoutTzdata<T>(fn: () => T): T {
  const empty = mkdtempSync(join(tmpdir(), 'hearth-no-tzdata-'));
  const before = process.env.TZDIR;
  process.env.TZDIR = empty;
  try {
    return fn();
  } finally {
    if (before === undefined) delete process.env.TZDIR;
    else process.env.TZDIR = before;
    rmSync(empty, { recursive: true, force: true });
  }
}

t.test('the resolver: UTC, a known zone (with or without tzdata), and an unknown name', async (t) => {
  t.equal(zoneOffsets('UTC')?.offsetSeconds(SUMMER_S), 0);
  t.equal(zoneOffsets('Europe/Amsterdam')?.offsetSeconds(SUMMER_S), 7200);
  t.equal(zoneOffsets('Europe/Amsterdam')?.offsetSeconds(WINTER_S), 3600);
  t.equal(zoneOffsets('No/Such_Zone'), undefined);
  withoutTzdata(() => {
    t.equal(zoneOffsets('Europe/Amsterdam')?.offsetSeconds(SUMMER_S), 7200, 'without tzdata: Intl, same summer offset');
    t.equal(zoneOffsets('America/New_York')?.offsetSeconds(WINTER_S), -5 * 3600, 'and winter');
    t.equal(zoneOffsets('No/Such_Zone'), undefined);
  });
});

t.test('without tzdata, automations, the logbook day and templates agree on the zone', async (t) => {
  withoutTzdata(() => {
    const us = SUMMER_S * 1_000_000;
    const zone = TimeZone.of('Europe/Amsterdam');
    t.equal(zone?.offsetMs(SUMMER_S * 1000), 7_200_000, 'automations');
    t.equal(localDayStart(us, 'Europe/Amsterdam'), Date.UTC(2026, 6, 9, 22, 0, 0) * 1000, 'the logbook day began at local midnight');
    const core = new Core({ log: silentLogger, clock: new ManualClock(us) });
    const engine = new TemplateEngine({ core, timeZone: 'Europe/Amsterdam' });
    const r = engine.tryRender('{{ now().isoformat() }}');
    t.same(r.ok ? r.text : r.error.message, '2026-07-10T17:00:00+02:00', 'templates');
  });
});
