import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { scanDayFile } from '../../src/recorder/day-file-reader.js';
import { COPIES_KEPT } from '../../src/storage/quarantine.js';
import { tempDir } from '../storage/helpers.js';
import { copies, counts, DAY0, DAY1, ENTITIES, errors, FULL, frames, open, PER_SEAL, record, SEALS, warnings } from './day-file-rig.js';
import { count, HOUR } from './recorder-rig.js';

/** A damaged day file (a flipped byte, zeros, a cut) costs at most its own record, logged once, with a copy kept. */

t.test('a flipped length byte in the middle of a day file costs at most its own record; the rest of the day answers', async (t) => {
  for (const which of ['blob', 'index'] as const) {
    const dir = await tempDir(t);
    const clock = new ManualClock(DAY0);
    await record(t, dir, clock, DAY0);
    const path = join(dir, 'recorder', '2026-03-10.seg');
    const good = await readFile(path);
    const list = frames(good);
    t.equal(list.length, 2 * SEALS, 'a blob and an index per seal');
    // The third seal's blob or index: its length's lowest byte.
    const [pos] = list[which === 'blob' ? 4 : 5] as [number, number, string];
    const broken = Buffer.from(good);
    broken[pos + 4] = (broken[pos + 4] ?? 0) ^ 0x40;
    await writeFile(path, broken);
    const { recorder, log } = await open(t, dir, clock);
    t.same(counts(recorder, DAY0), FULL, `${which}: every point answers`);
    t.equal((await stat(path)).size, good.length, `${which}: nothing cut`);
    t.same(warnings(log), [], `${which}: no "unfinished write" warning`);
    t.equal(errors(log).length, 1, `${which}: one error`);
    t.match(errors(log)[0], new RegExp(`^history file 2026-03-10\\.seg: a damaged record \\(\\d+ bytes at byte ${pos}\\) skipped`));
  }
});

t.test('a compacted day whose first length byte is flipped: every point still answers (was: cut to 0 bytes)', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  {
    clock.advance(DAY1 - clock.now());
    const { recorder } = await open(t, dir, clock);
    await recorder.housekeeping();
    t.equal(recorder.stats.compactions, 1);
    await recorder.stop();
  }
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const good = await readFile(path);
  t.equal(frames(good).length, 2, 'one blob and one index');
  const broken = Buffer.from(good);
  broken[4] = (broken[4] ?? 0) ^ 0x01;
  await writeFile(path, broken);
  const { recorder, log } = await open(t, dir, clock);
  t.same(counts(recorder, DAY0), FULL);
  t.equal((await stat(path)).size, good.length);
  t.same(warnings(log), []);
});

t.test('a zero-filled day file: moved aside whole with an error, other days answer, recording goes on', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  await record(t, dir, clock, DAY1);
  const path = join(dir, 'recorder', '2026-03-11.seg');
  const size = (await stat(path)).size;
  await writeFile(path, Buffer.alloc(size));
  const { core, recorder, log } = await open(t, dir, clock);
  t.same(counts(recorder, DAY0), FULL, 'the other day answers');
  t.same(counts(recorder, DAY1), new Array(ENTITIES).fill(0));
  t.same(warnings(log), [], 'not called a torn write');
  t.match(errors(log), [/^history file 2026-03-11\.seg is damaged from byte 0 to its end .*moved aside to .*2026-03-11\.seg\.corrupt-/]);
  const [moved] = await copies(dir, '2026-03-11');
  t.same(await readFile(join(dir, 'recorder', moved as string)), Buffer.alloc(size), 'the file is kept as it was');
  core.states.set('sensor.s0', 'after');
  clock.advance(HOUR);
  await recorder.tick();
  t.equal(count(recorder, 'sensor.s0', DAY1, clock.now()), 1, 'and records on into a new file');
});

t.test('a day file cut in the middle: what precedes the cut answers, and a copy is kept before the cut', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const good = await readFile(path);
  const list = frames(good);
  // In the middle of the fourth seal's blob: three seals remain whole.
  const [pos, length] = list[6] as [number, number, string];
  const cutAt = pos + Math.floor(length / 2);
  await truncate(path, cutAt);
  const { recorder, log } = await open(t, dir, clock);
  t.same(counts(recorder, DAY0), new Array(ENTITIES).fill(3 * PER_SEAL), 'the three whole seals');
  t.equal((await stat(path)).size, pos, 'cut back to the last whole record');
  const [copy] = await copies(dir, '2026-03-10');
  t.same(await readFile(join(dir, 'recorder', copy as string)), good.subarray(0, cutAt), 'the copy has every byte there was');
  t.match(warnings(log), [/unfinished write at its end.*a copy is kept as/]);
});

t.test('a compacted day cut in the middle: the chunks before the cut are read from its blob', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  await record(t, dir, clock, DAY1);
  {
    // Starting on the next day compacted the first (a seal of the second waits for it).
    const { recorder } = await open(t, dir, clock);
    await recorder.housekeeping();
    await recorder.stop();
  }
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const good = await readFile(path);
  t.equal(frames(good).length, 2, 'compacted: one blob and one index');
  const [, blobLength] = frames(good)[0] as [number, number, string];
  await truncate(path, Math.floor(blobLength * 0.6));
  const { recorder, log } = await open(t, dir, clock);
  const got = counts(recorder, DAY0);
  t.ok(got.filter((n) => n === SEALS * PER_SEAL).length >= ENTITIES / 2, `whole entities before the cut (${got.join(', ')})`);
  t.ok(
    got.every((n) => n === 0 || n === SEALS * PER_SEAL),
    'each entity whole or not at all',
  );
  t.same(counts(recorder, DAY1), FULL, 'the next day untouched');
  t.equal((await copies(dir, '2026-03-10')).length, 0, 'nothing was cut');
  t.match(errors(log), [/chunks read from blobs whose index was lost/]);
});

t.test('a flipped byte inside a chunk: found and logged once after start, skipped silently by every query', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const scan = await scanDayFile(path, '2026-03-10');
  const victim = scan.refs.filter((r) => r.entityId === 'sensor.s3')[2];
  if (victim === undefined) throw new Error('no chunk of sensor.s3');
  const file = await readFile(path);
  file[victim.offset + 3] = (file[victim.offset + 3] ?? 0) ^ 0x10;
  await writeFile(path, file);
  const { recorder, log } = await open(t, dir, clock);
  await recorder.housekeeping();
  t.same(errors(log).length, 1, 'logged at start');
  t.match(errors(log)[0], /2026-03-10\.seg: 1 chunks fail their checksum \(sensor\.s3\)/);
  for (let i = 0; i < 3; i++)
    t.same(
      counts(recorder, DAY0),
      FULL.map((n, e) => (e === 3 ? n - PER_SEAL : n)),
      `query ${i + 1}`,
    );
  t.same(errors(log).length, 1, 'not again at any query');
});

t.test('a chunk found damaged by a query (before the check ran) is logged once too', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const victim = (await scanDayFile(path, '2026-03-10')).refs[0];
  if (victim === undefined) throw new Error('no chunk');
  const file = await readFile(path);
  file[victim.offset + 1] = (file[victim.offset + 1] ?? 0) ^ 0x01;
  await writeFile(path, file);
  const { recorder, log } = await open(t, dir, clock);
  // Before the background check has read the file:
  for (let i = 0; i < 3; i++) counts(recorder, DAY0);
  await recorder.housekeeping();
  counts(recorder, DAY0);
  t.equal(errors(log).length, 1, errors(log).join('\n'));
});

t.test('copies kept of one day file are bounded', async (t) => {
  const dir = await tempDir(t);
  const clock = new ManualClock(DAY0);
  await record(t, dir, clock, DAY0);
  const path = join(dir, 'recorder', '2026-03-10.seg');
  for (let i = 0; i < COPIES_KEPT + 3; i++) {
    await writeFile(path, Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, i]), { flag: 'a' });
    clock.advance(1000);
    const { recorder } = await open(t, dir, clock);
    await recorder.stop();
  }
  t.equal((await copies(dir, '2026-03-10')).length, COPIES_KEPT);
  const { recorder } = await open(t, dir, clock);
  t.same(counts(recorder, DAY0), FULL, 'the file itself is whole again');
});
