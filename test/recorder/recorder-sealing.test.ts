import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { seededRandom } from '../../drivers/virtual/index.js';
import { ManualClock } from '../../src/core/clock.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { tempDir } from '../storage/helpers.js';
import { count, DAY, feed, HOUR, history, rig, S, START } from './recorder-rig.js';

/** Sealing hours into day files, compacting finished days and purging old ones. */

t.test('a finished day is rewritten with one chunk per entity: a few bytes a numeric point', async (t) => {
  const dir = await tempDir(t);
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
  const r = await rig(t, await tempDir(t), { config });
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

t.test('a flood of changes is sealed early: the hot tier stays near a megabyte, every change is kept', async (t) => {
  const r = await rig(t, await tempDir(t));
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
  for (let i = 0; i < 50; i++) kept += count(r.recorder, `sensor.f${i}`, START, r.clock.now() + 1);
  t.equal(kept, n + 1, 'nothing lost');
});

t.test('large chunks are deflated off the event loop; queries in the meantime see every point', async (t) => {
  const r = await rig(t, await tempDir(t));
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
  const total = () => {
    let n = 0;
    for (let i = 0; i < ENTITIES; i++) n += count(r.recorder, `sensor.s${i}`, START, r.clock.now() + 1);
    return n;
  };
  t.equal(total(), expected);
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
    if (total() !== expected) short++;
  }
  await sealing;
  t.ok(turns > 1, `the event loop turned ${turns} times during the seal`);
  t.equal(short, 0, 'every point at every turn while sealing');
  t.equal(r.recorder.stats.seals, 1);
  t.equal(total(), expected, 'and after it, from the day file');
});
