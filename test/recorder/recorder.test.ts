import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { seededRandom } from '../../drivers/virtual/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_RECORDER_CONFIG, parseRecorderSection } from '../../src/recorder/config.js';
import { Recorder, type RecorderOptions } from '../../src/recorder/recorder.js';
import type { RecorderConfig } from '../../src/recorder/types.js';
import type { OpenAppendFile } from '../../src/storage/journal.js';
import { fullDisk } from '../fakes/full-disk.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';

const START = Date.UTC(2026, 2, 10, 10, 0, 0) * 1000;
const S = 1_000_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-recorder-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Rig {
  readonly core: Core;
  readonly clock: ManualClock;
  readonly recorder: Recorder;
}

async function rig(
  t: Teardown,
  dir: string,
  opts: Partial<RecorderOptions> & { config?: RecorderConfig; clock?: ManualClock } = {},
): Promise<Rig> {
  const clock = opts.clock ?? new ManualClock(START);
  const core = new Core({ log: silentLogger, clock });
  const recorder = new Recorder({ core, dataDir: dir, log: silentLogger, config: DEFAULT_RECORDER_CONFIG, timers: false, ...opts });
  await recorder.start();
  t.teardown(() => recorder.stop());
  return { core, clock, recorder };
}

interface Row {
  s: string;
  a: string;
  lc: number;
  lu: number;
  user?: string | null;
}

function history(r: Recorder, id: string, start: number, end: number, initial = false): Row[] {
  const out: Row[] = [];
  r.forEachState(id, start, end, initial, (s, a, lc, lu, ctx) =>
    out.push(ctx === null ? { s, a, lc, lu } : { s, a, lc, lu, user: ctx.user_id }),
  );
  return out;
}

/** 20 numeric readings a minute apart and a switch toggled by a user, from START. */
function feed(rig: Rig, n = 20): void {
  const { core, clock } = rig;
  for (let i = 0; i < n; i++) {
    core.states.set('sensor.temp', (20 + i / 10).toFixed(1), { unit_of_measurement: '°C', state_class: 'measurement' });
    if (i % 5 === 0) core.states.set('switch.heater', i % 10 === 0 ? 'on' : 'off', {}, { context: core.newContext('user-1') });
    clock.advance(MIN);
  }
}

t.test('records state changes and reads them back in order, with the state in force at the start', async (t) => {
  const r = await rig(t, await dataDir(t));
  feed(r);
  const all = history(r.recorder, 'sensor.temp', START, START + HOUR);
  t.equal(all.length, 20);
  t.same(
    all[0],
    { s: '20.0', a: '{"unit_of_measurement":"°C","state_class":"measurement"}', lc: START, lu: START },
    'numeric state and attributes',
  );
  t.same(all.map((p) => p.s).slice(0, 4), ['20.0', '20.1', '20.2', '20.3'], 'numbers come back as the same text');
  const sw = history(r.recorder, 'switch.heater', START, START + HOUR);
  t.same(
    sw.map((p) => [p.s, p.user]),
    [
      ['on', 'user-1'],
      ['off', 'user-1'],
      ['on', 'user-1'],
      ['off', 'user-1'],
    ],
    'discrete entities keep their context for the logbook',
  );
  const window = history(r.recorder, 'sensor.temp', START + 5 * MIN + 1, START + 7 * MIN, true);
  t.same(
    window.map((p) => p.s),
    ['20.5', '20.6'],
    'the state in force at the start comes first, then the changes within',
  );
  t.same(
    history(r.recorder, 'sensor.temp', START + 30 * MIN, START + HOUR, true).map((p) => p.s),
    ['21.9'],
    'no change within: just the state in force',
  );
  t.same(history(r.recorder, 'sensor.temp', START - HOUR, START, true), [], 'nothing before the first change');
  t.same(r.recorder.entitiesDuring(START, START + HOUR).sort(), ['sensor.temp', 'switch.heater']);
});

t.test('attribute-only updates keep last_changed; text and odd numbers round-trip exactly', async (t) => {
  const r = await rig(t, await dataDir(t));
  const { core, clock } = r;
  const states = ['on', '-0', '007', '1e5', '-12.500', '0.000001', '123456789', 'unavailable', 'ünïcode', ''];
  for (const s of states) {
    core.states.set('sensor.odd', s, { n: 1 });
    clock.advance(S);
  }
  core.states.set('sensor.odd', '', { n: 2 });
  t.same(
    history(r.recorder, 'sensor.odd', START, START + HOUR).map((p) => p.s),
    [...states, ''],
  );
  const last = history(r.recorder, 'sensor.odd', START, START + HOUR).at(-1);
  t.same([last?.a, last?.lc, last?.lu], ['{"n":2}', START + 9 * S, START + 10 * S], 'attributes changed, last_changed kept');
});

t.test('include and exclude follow Home Assistant entity filters', async (t) => {
  const config = parseRecorderSection(
    {
      include: { domains: ['sensor'], entity_globs: ['switch.garden_*'] },
      exclude: { entities: ['sensor.noisy'], entity_globs: ['sensor.*_raw'] },
    },
    ['recorder'],
    [],
  );
  const r = await rig(t, await dataDir(t), { config });
  for (const id of ['sensor.temp', 'sensor.noisy', 'sensor.adc_raw', 'switch.garden_pump', 'switch.hall', 'light.x'])
    r.core.states.set(id, '1');
  t.same(r.recorder.entitiesDuring(START, START + HOUR).sort(), ['sensor.temp', 'switch.garden_pump']);
  t.equal(r.recorder.records('sensor.noisy'), false);
});

t.test('the config section names a bad key and what is allowed', async (t) => {
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  parseRecorderSection({ purge_keep_days: 0, commit_interval: 'soon', db_url: 'sqlite://' }, ['recorder'], issues);
  t.same(
    issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    [
      'recorder.purge_keep_days: 0 is not allowed: expected an integer from 1 to 3650',
      'recorder.commit_interval: "soon" is not allowed: expected an integer from 1 to 3600',
      // Home Assistant's database keys are accepted with a warning, never refused.
      'recorder.db_url: accepted and not honoured: hearth keeps history in its data folder, not in a database',
    ],
  );
});

t.test('a commit, a seal and a restart change nothing a query returns', async (t) => {
  const dir = await dataDir(t);
  const a = await rig(t, dir);
  feed(a);
  const before = history(a.recorder, 'sensor.temp', START, START + DAY);
  const sw = history(a.recorder, 'switch.heater', START, START + DAY);
  await a.recorder.commit();
  t.same(history(a.recorder, 'sensor.temp', START, START + DAY), before, 'after a commit');
  a.clock.advance(HOUR);
  await a.recorder.tick();
  t.equal(a.recorder.stats.seals, 1, 'leaving the hour seals it');
  t.same(history(a.recorder, 'sensor.temp', START, START + DAY), before, 'after the seal');
  feed(a, 5);
  await a.recorder.stop();
  const files = await readdir(join(dir, 'recorder'));
  t.ok(files.includes('2026-03-10.seg') && files.includes('wal'), 'a day file and the journal');

  const b = await rig(t, dir, { clock: a.clock });
  const after = history(b.recorder, 'sensor.temp', START, START + DAY);
  t.equal(after.length, 25, 'the sealed hour and the journal are both read back');
  t.same(after.slice(0, 20), before);
  t.same(history(b.recorder, 'switch.heater', START, START + DAY).slice(0, 4), sw, 'contexts too');
});

t.test('a finished day is rewritten with one chunk per entity: a few bytes a numeric point', async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock(Date.UTC(2026, 2, 10) * 1000);
  const r = await rig(t, dir, { clock });
  const day0 = clock.now();
  // A random walk read every 10 s with up to 200 ms of jitter (a seeded generator: periodic test data
  // would compress far better than any real sensor).
  // mulberry32 (a plain LCG has a lattice that deflate exploits, which flatters the figure).
  const random = seededRandom(12345);
  let v = 2000;
  let points = 0;
  for (let h = 0; h < 24; h++) {
    for (let i = 0; i < 360; i++) {
      v += random() < 0.5 ? -Math.ceil(random() * 3) : Math.ceil(random() * 3);
      r.core.states.set('sensor.power', (v / 10).toFixed(1), { unit_of_measurement: 'W', state_class: 'measurement' });
      points++;
      clock.advance(9.9 * S + Math.floor(random() * 200) * 1000);
    }
    if (h % 4 === 0) await r.recorder.commit();
    await r.recorder.tick();
  }
  clock.advance(HOUR);
  await r.recorder.tick();
  await r.recorder.housekeeping();
  t.ok(r.recorder.stats.compactions >= 1, 'compacted');
  const size = (await stat(join(dir, 'recorder', '2026-03-10.seg'))).size;
  const got = history(r.recorder, 'sensor.power', day0, day0 + 2 * DAY);
  t.equal(got.length, points, 'every point still there');
  t.ok(size / points <= 3, `${(size / points).toFixed(2)} bytes a point on disk after the day (<= 3)`);
});

t.test('purge drops whole days past purge_keep_days; oldestUs follows', async (t) => {
  const config = { ...DEFAULT_RECORDER_CONFIG, purgeKeepDays: 2 };
  const r = await rig(t, await dataDir(t), { config });
  feed(r, 3);
  r.clock.advance(HOUR);
  await r.recorder.tick();
  t.equal(r.recorder.oldestUs(), START);
  r.clock.advance(3 * DAY);
  r.core.states.set('sensor.temp', '30.0');
  r.clock.advance(HOUR);
  await r.recorder.tick();
  await r.recorder.housekeeping();
  t.same(
    history(r.recorder, 'sensor.temp', 0, r.clock.now()).map((p) => p.s),
    ['30.0'],
    'the old day is gone',
  );
  t.ok(r.recorder.oldestUs() >= r.clock.now() - 2 * DAY - HOUR);
});

t.test('a clock that jumps back: points keep their order, stamped no earlier than the one before', async (t) => {
  const r = await rig(t, await dataDir(t));
  r.core.states.set('sensor.x', '1');
  r.clock.advance(-10 * MIN);
  r.core.states.set('sensor.x', '2');
  t.same(
    history(r.recorder, 'sensor.x', 0, START + HOUR).map((p) => [p.s, p.lu]),
    [
      ['1', START],
      ['2', START],
    ],
  );
});

t.test('a torn journal tail (kill -9 during a commit) is cut off; every whole commit is kept', async (t) => {
  const dir = await dataDir(t);
  const a = await rig(t, dir);
  feed(a, 10);
  await a.recorder.commit();
  await a.recorder.stop();
  const wal = join(dir, 'recorder', 'wal');
  const size = (await stat(wal)).size;
  await appendFile(wal, Buffer.from([200, 1, 0, 0, 1, 2, 3]));
  const log = new RecordingLogger();
  const b = await rig(t, dir, { clock: a.clock, log });
  t.equal(history(b.recorder, 'sensor.temp', START, START + DAY).length, 10);
  t.equal(b.recorder.stats.droppedTailBytes, 7);
  b.core.states.set('sensor.temp', '99.0');
  await b.recorder.commit();
  t.ok((await stat(wal)).size > size, 'appends after the good records');
  await b.recorder.stop();
  const c = await rig(t, dir, { clock: a.clock });
  t.equal(history(c.recorder, 'sensor.temp', START, START + DAY).at(-1)?.s, '99.0', 'the record after the cut is read');
});

t.test('a day file with a broken index is read on from its blob; a torn seal is cut off after a copy is kept', async (t) => {
  const dir = await dataDir(t);
  const a = await rig(t, dir);
  feed(a, 5);
  a.clock.advance(HOUR);
  await a.recorder.tick();
  feed(a, 5);
  a.clock.advance(HOUR);
  await a.recorder.tick();
  await a.recorder.stop();
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const good = await readFile(path);
  await appendFile(path, good.subarray(0, 40));
  const b = await rig(t, dir, { clock: a.clock });
  t.equal(history(b.recorder, 'sensor.temp', START, START + DAY).length, 10, 'a torn seal at the end is cut off');
  t.equal((await stat(path)).size, good.length);
  t.ok(
    (await readdir(join(dir, 'recorder'))).some((n) => n.startsWith('2026-03-10.seg.corrupt-')),
    'after a copy was kept',
  );
  await b.recorder.stop();
  // A flipped bit in the first seal's index (the blob before it is skipped by its length).
  const broken = Buffer.from(good);
  const index = 16 + good.readUInt32LE(4);
  const indexBytes = 16 + good.readUInt32LE(index + 4);
  const at = index + 16 + 5;
  broken[at] = (broken[at] ?? 0) ^ 0xff;
  await writeFile(path, broken);
  const log = new RecordingLogger();
  const c = await rig(t, dir, { clock: a.clock, log });
  t.equal(history(c.recorder, 'sensor.temp', START, START + DAY).length, 10, "the first seal's chunks are read from its blob");
  t.same(
    log.lines.filter((l) => l.level === 'error').map((l) => l.msg),
    [
      `history file 2026-03-10.seg: a damaged record (${indexBytes} bytes at byte ${index}) skipped; 2 chunks read from blobs whose index was lost; the rest of the file is read`,
    ],
  );
  c.core.states.set('sensor.temp', '1.0');
  t.equal(history(c.recorder, 'sensor.temp', START, c.clock.now() + 1).length, 11, 'and records on');
});

t.test('a full disk: history is served from memory, the error logged once, the writes retried', async (t) => {
  const dir = await dataDir(t);
  const capacity = { bytes: 0 };
  const log = new RecordingLogger();
  const disk = fullDisk(capacity).openJournal as OpenAppendFile;
  const r = await rig(t, dir, { openJournal: disk, openDayFile: disk, log });
  feed(r, 10);
  await r.recorder.commit();
  r.clock.advance(HOUR);
  await r.recorder.tick();
  feed(r, 10);
  await r.recorder.commit();
  t.ok(r.recorder.stats.failedWrites >= 2, 'writes failed');
  t.equal(history(r.recorder, 'sensor.temp', START, r.clock.now()).length, 20, 'served from memory');
  t.equal(log.lines.filter((l) => l.level === 'error').length, 1, 'logged once');
  capacity.bytes = 10_000_000;
  await r.recorder.commit();
  t.ok(
    log.lines.some((l) => l.level === 'info' && /is written again/.test(l.msg)),
    'recovery logged',
  );
  await r.recorder.stop();
  const again = await rig(t, dir, { clock: r.clock });
  t.equal(history(again.recorder, 'sensor.temp', START, r.clock.now()).length, 20, 'everything reached the disk afterwards');
});

t.test('events are recorded with their context; excluded event types are not', async (t) => {
  const config = parseRecorderSection({ exclude: { event_types: ['noisy_event'] } }, ['recorder'], []);
  const r = await rig(t, await dataDir(t), { config });
  const ctx = r.core.newContext('user-9');
  r.core.bus.fire('automation_triggered', { name: 'Lights', entity_id: 'automation.lights' }, ctx);
  r.core.bus.fire('noisy_event', {}, ctx);
  const seen: [string, string, string | null][] = [];
  r.recorder.forEachEvent(START, START + HOUR, (type, data, _t, c) => seen.push([type, data, c.user_id]));
  t.same(seen, [['automation_triggered', '{"name":"Lights","entity_id":"automation.lights"}', 'user-9']]);
});

t.test('a flood of changes is sealed early: the hot tier stays near a megabyte, every change is kept', async (t) => {
  const r = await rig(t, await dataDir(t));
  const sealed = new Promise<void>((resolve) => {
    const off = r.core.bus.on('test', 'state_changed', () => {
      if (r.recorder.stats.seals > 0) {
        off();
        resolve();
      }
    });
  });
  let n = 0;
  for (; n < 400_000 && r.recorder.stats.seals === 0; n++) {
    r.core.states.set(`sensor.f${n % 50}`, String(n), { n });
    r.clock.advance(1000);
    // A turn of the loop every 5,000 changes: a real flood arrives in socket reads, and a seal needs a few turns of
    // I/O (its file, and the directory sync of a new day file) to finish.
    if (n % 5_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  r.core.states.set('sensor.f0', 'last');
  await sealed;
  t.ok(r.recorder.stats.seals >= 1, `sealed after ${n} changes within the hour`);
  t.ok(r.recorder.memoryBytes() < 4 * 1024 * 1024, `${r.recorder.memoryBytes()} bytes held`);
  let kept = 0;
  for (let i = 0; i < 50; i++) kept += r.recorder.forEachState(`sensor.f${i}`, START, r.clock.now() + 1, false, () => {});
  t.equal(kept, n + 1, 'nothing lost');
});

t.test('large chunks are deflated off the event loop; queries in the meantime see every point', async (t) => {
  const r = await rig(t, await dataDir(t));
  // Six entities with some 100 KB of points each (over the 64 KB that are deflated on libuv's threads), and
  // small ones deflated at once.
  const ENTITIES = 12;
  const ROUNDS = 12_000;
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < ENTITIES; i++)
      if (i < 6 || round < 3) r.core.states.set(`sensor.s${i}`, String(round * 10 + i), { round: round % 3 });
    r.clock.advance(100_000);
  }
  const expected = 6 * ROUNDS + 6 * 3;
  const count = () => {
    let n = 0;
    for (let i = 0; i < ENTITIES; i++) n += r.recorder.forEachState(`sensor.s${i}`, START, r.clock.now() + 1, false, () => {});
    return n;
  };
  t.equal(count(), expected);
  let done = false;
  const sealing = r.recorder.seal().then(() => {
    done = true;
  });
  // A chunk is deflated on libuv's threads, one after the other, so the loop turns many times meanwhile.
  let turns = 0;
  let short = 0;
  while (!done && turns < 10_000) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
    if (count() !== expected) short++;
  }
  await sealing;
  t.ok(turns > 1, `the event loop turned ${turns} times during the seal`);
  t.equal(short, 0, 'every point at every turn while sealing');
  t.equal(r.recorder.stats.seals, 1);
  t.equal(count(), expected, 'and after it, from the day file');
});
