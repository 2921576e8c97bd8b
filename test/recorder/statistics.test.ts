import { appendFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { TimeZone } from '../../src/automation/local-time.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { Statistics, type StatisticsOptions } from '../../src/recorder/statistics.js';
import type { Teardown } from '../helpers/hub.js';

const T0 = Date.UTC(2026, 2, 10, 10, 0, 0) * 1000;
const S = 1_000_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const MEAS = { unit_of_measurement: '°C', state_class: 'measurement', device_class: 'temperature', friendly_name: 'Room' };
const METER = { unit_of_measurement: 'kWh', state_class: 'total_increasing', device_class: 'energy' };

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-stats-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function rig(t: Teardown, dir: string, opts: Partial<StatisticsOptions> & { clock?: ManualClock } = {}) {
  const clock = opts.clock ?? new ManualClock(T0);
  const core = new Core({ log: silentLogger, clock });
  const stats = new Statistics({ core, dataDir: dir, log: silentLogger, keepDays: 10, timers: false, ...opts });
  await stats.start();
  t.teardown(() => stats.stop());
  /** Moves the clock and closes the periods it passes. */
  const advance = async (us: number) => {
    clock.advance(us);
    await stats.rollover();
  };
  return { core, clock, stats, advance };
}

t.test('5-minute rows: the time-weighted mean, min and max of a measurement, hourly rows from them', async (t) => {
  const r = await rig(t, await dataDir(t));
  r.core.states.set('sensor.room', '20', MEAS);
  await r.advance(1 * MIN);
  r.core.states.set('sensor.room', '26', MEAS);
  await r.advance(4 * MIN);
  // Period 10:00-10:05: 20 for 1 min, 26 for 4 min.
  const five = r.stats.during(['sensor.room'], T0, T0 + HOUR, '5minute').get('sensor.room') ?? [];
  t.same(five[0], { startUs: T0, endUs: T0 + 5 * MIN, mean: 24.8, min: 20, max: 26 });
  await r.advance(55 * MIN);
  const all = r.stats.during(['sensor.room'], T0, T0 + HOUR, '5minute').get('sensor.room') ?? [];
  t.equal(all.length, 12, 'a row for every period, the value carried on');
  t.same(all[1], { startUs: T0 + 5 * MIN, endUs: T0 + 10 * MIN, mean: 26, min: 26, max: 26 });
  const hour = r.stats.during(['sensor.room'], T0, T0 + HOUR, 'hour').get('sensor.room') ?? [];
  t.same(hour, [{ startUs: T0, endUs: T0 + HOUR, mean: (24.8 + 11 * 26) / 12, min: 20, max: 26 }]);
  t.same(r.stats.list(), [
    { statisticId: 'sensor.room', name: 'Room', unit: '°C', unitClass: 'temperature', hasMean: true, hasSum: false },
  ]);
});

t.test('a total_increasing meter: the sum grows by increases, a drop is a reset; kept across a restart', async (t) => {
  const dir = await dataDir(t);
  const a = await rig(t, dir);
  for (const v of ['100', '101.5', '103', '2', '4']) {
    a.core.states.set('sensor.meter', v, METER);
    await a.advance(10 * MIN);
  }
  await a.advance(HOUR);
  const hours = a.stats.during(['sensor.meter'], T0, T0 + 3 * HOUR, 'hour').get('sensor.meter') ?? [];
  t.same(
    hours.map((h) => [h.state, h.sum]),
    [[4, 7]],
    '1.5 + 1.5, then a reset to 2 counts 2, then 2 more',
  );
  await a.stats.stop();
  const b = await rig(t, dir, { clock: a.clock });
  t.same(b.stats.during(['sensor.meter'], T0, T0 + 3 * HOUR, 'hour').get('sensor.meter')?.length, 1, 'hourly rows read back');
  b.core.states.set('sensor.meter', '5', METER);
  await b.advance(HOUR);
  const last = (b.stats.during(['sensor.meter'], T0, b.clock.now(), 'hour').get('sensor.meter') ?? []).at(-1);
  t.equal(last?.sum, 8, 'the running sum continues after the restart');
});

t.test('5-minute rows are purged after keepDays; hourly rows stay', async (t) => {
  const r = await rig(t, await dataDir(t), { keepDays: 1 });
  r.core.states.set('sensor.room', '20', MEAS);
  await r.advance(HOUR);
  await r.advance(2 * DAY);
  t.equal(
    r.stats.during(['sensor.room'], T0, T0 + HOUR, '5minute').get('sensor.room'),
    undefined,
    '5-minute rows of the first day are gone',
  );
  t.equal(r.stats.during(['sensor.room'], T0, T0 + HOUR, 'hour').get('sensor.room')?.length, 1, 'its hourly row is kept');
});

t.test('days follow the local time zone, a DST day has 23 hours', async (t) => {
  const zone = TimeZone.of('Europe/Berlin');
  const offsetSeconds = (s: number) => (zone?.offsetMs(s * 1000) ?? 0) / 1000;
  // Sunday 2026-03-29: clocks go from 02:00 to 03:00 in Berlin. Start at local midnight (23:00 UTC before).
  const start = Date.UTC(2026, 2, 28, 23, 0, 0) * 1000;
  const r = await rig(t, await dataDir(t), { clock: new ManualClock(start), offsetSeconds });
  r.core.states.set('sensor.room', '20', MEAS);
  for (let h = 0; h < 30; h++) await r.advance(HOUR);
  const days = r.stats.during(['sensor.room'], start, start + 2 * DAY, 'day').get('sensor.room') ?? [];
  t.equal(days[0]?.startUs, start, 'the day starts at local midnight');
  t.equal(((days[0]?.endUs ?? 0) - (days[0]?.startUs ?? 0)) / HOUR, 23, 'the DST day is 23 hours');
  const weeks = r.stats.during(['sensor.room'], start - 7 * DAY, start + 2 * DAY, 'week').get('sensor.room') ?? [];
  t.equal(weeks.length, 2, 'Sunday and Monday are in different weeks');
});

t.test('a clock that jumps back closes no period twice; a torn last row is cut off at start', async (t) => {
  const dir = await dataDir(t);
  const a = await rig(t, dir);
  a.core.states.set('sensor.room', '20', MEAS);
  await a.advance(HOUR);
  await a.advance(-30 * MIN);
  t.equal(a.stats.stats.backwardsClock, 1);
  await a.advance(40 * MIN);
  const rows = a.stats.during(['sensor.room'], T0, T0 + 2 * HOUR, '5minute').get('sensor.room') ?? [];
  t.same(
    rows.map((r) => (r.startUs - T0) / MIN),
    [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65],
    'no period twice',
  );
  await a.stats.stop();
  const file = join(dir, 'recorder', 'statistics', 'hourly.bin');
  const size = (await stat(file)).size;
  await appendFile(file, Buffer.alloc(30, 7));
  const b = await rig(t, dir, { clock: a.clock });
  t.equal((await stat(file)).size, size, 'the torn row is cut off');
  t.equal(b.stats.during(['sensor.room'], T0, T0 + 2 * HOUR, 'hour').get('sensor.room')?.length, 1);
  t.ok((await readdir(join(dir, 'recorder', 'statistics'))).includes('meta.json'));
});

t.test('a clock set forward by years (NTP on a board without a clock) makes no rows for the gap and does not spin', async (t) => {
  const r = await rig(t, await dataDir(t), { clock: new ManualClock(Date.UTC(1970, 0, 1, 0, 0, 0) * 1000) });
  r.core.states.set('sensor.room', '20', MEAS);
  await r.advance(2 * MIN);
  await r.advance(56 * 365 * DAY);
  r.core.states.set('sensor.room', '21', MEAS);
  await r.advance(HOUR);
  const rows = r.stats.during(['sensor.room'], 0, r.clock.now(), 'hour').get('sensor.room') ?? [];
  t.ok(rows.length <= 3, `${rows.length} hourly rows, not half a million`);
  t.equal(rows.at(-1)?.max, 21, 'counting resumed at the new time');
});
