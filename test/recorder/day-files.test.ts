import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, crc32 } from 'node:zlib';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { ChunkRef } from '../../src/recorder/chunk-ref.js';
import { DEFAULT_RECORDER_CONFIG } from '../../src/recorder/config.js';
import { scanDayFile } from '../../src/recorder/day-file-reader.js';
import { encodeBlob, encodeFrame, encodeIndex, FRAME_HEADER } from '../../src/recorder/day-frames.js';
import { scanDays } from '../../src/recorder/day-scan.js';
import { Recorder } from '../../src/recorder/recorder.js';
import { deflateSized, sealRecords } from '../../src/recorder/segments.js';
import { encodeChunk, SeriesWriter } from '../../src/recorder/series.js';
import { COPIES_KEPT } from '../../src/storage/quarantine.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';

const S = 1_000_000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const DAY0 = Date.UTC(2026, 2, 10) * 1000;
const DAY1 = DAY0 + DAY;
const ENTITIES = 8;
const SEALS = 6;
const PER_SEAL = 5;

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-dayfiles-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(t: Teardown, dir: string, clock: ManualClock, log = new RecordingLogger()) {
  const core = new Core({ log, clock });
  const recorder = new Recorder({ core, dataDir: dir, log, config: DEFAULT_RECORDER_CONFIG, timers: false });
  await recorder.start();
  t.teardown(() => recorder.stop());
  return { core, recorder, log };
}

/** SEALS hourly seals of ENTITIES sensors, PER_SEAL changes each, from `from`; the recorder is stopped after. */
async function record(t: Teardown, dir: string, clock: ManualClock, from: number): Promise<void> {
  clock.advance(from - clock.now());
  const { core, recorder } = await open(t, dir, clock);
  for (let h = 0; h < SEALS; h++) {
    for (let i = 0; i < PER_SEAL; i++) {
      for (let e = 0; e < ENTITIES; e++) core.states.set(`sensor.s${e}`, `${h}.${i}${e}`, { unit_of_measurement: 'W', n: h * 100 + i });
      clock.advance(MIN);
    }
    clock.advance(HOUR);
    await recorder.tick();
  }
  await recorder.stop();
}

function count(r: Recorder, id: string, from: number, to: number): number {
  return r.forEachState(id, from, to, false, () => {});
}

function counts(r: Recorder, from: number): number[] {
  return Array.from({ length: ENTITIES }, (_, e) => count(r, `sensor.s${e}`, from, from + DAY));
}

const FULL = Array.from({ length: ENTITIES }, () => SEALS * PER_SEAL);

/** The frames of a day file of this format: [pos, length of the frame, type]. */
function frames(file: Buffer): [number, number, string][] {
  const out: [number, number, string][] = [];
  for (let pos = 0; pos < file.length; ) {
    const length = FRAME_HEADER + file.readUInt32LE(pos + 4);
    out.push([pos, length, String.fromCharCode(file[pos + FRAME_HEADER] ?? 0)]);
    pos += length;
  }
  return out;
}

function errors(log: RecordingLogger): string[] {
  return log.lines.filter((l) => l.level === 'error').map((l) => l.msg);
}

function warnings(log: RecordingLogger): string[] {
  return log.lines.filter((l) => l.level === 'warn').map((l) => l.msg);
}

async function copies(dir: string, day: string): Promise<string[]> {
  return (await readdir(join(dir, 'recorder'))).filter((n) => n.startsWith(`${day}.seg.corrupt-`)).sort();
}

t.test('a flipped length byte in the middle of a day file costs at most its own record; the rest of the day answers', async (t) => {
  for (const which of ['blob', 'index'] as const) {
    const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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
  const dir = await dataDir(t);
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

t.test('a seal torn off after its blob: the blob is served and the journal it came from is not replayed twice', async (t) => {
  for (const tear of ['index', 'blob'] as const) {
    const dir = await dataDir(t);
    const clock = new ManualClock(DAY0);
    const wal = join(dir, 'recorder', 'wal');
    {
      const { core, recorder } = await open(t, dir, clock);
      for (let i = 0; i < 10; i++) {
        core.states.set('sensor.x', String(i));
        clock.advance(MIN);
      }
      await recorder.commit();
      await copyFile(wal, `${wal}.before-seal`);
      await recorder.seal();
      await recorder.stop();
    }
    // What a power cut in the middle of the seal's write leaves: the journal not yet emptied, the day file torn.
    await copyFile(`${wal}.before-seal`, wal);
    const path = join(dir, 'recorder', '2026-03-10.seg');
    const [[, blobLength]] = frames(await readFile(path)) as [[number, number, string]];
    await truncate(path, tear === 'index' ? blobLength + 20 : Math.floor(blobLength / 2));
    const { recorder } = await open(t, dir, clock);
    t.equal(count(recorder, 'sensor.x', DAY0, DAY0 + DAY), 10, `torn in its ${tear}: every point once`);
  }
});

t.test('a seal appended after a torn blob that could not be cut: both sides of it are read', async (t) => {
  const dir = await dataDir(t);
  const path = join(dir, '2026-03-10.seg');
  const chunk = (n: number) => {
    const w = new SeriesWriter();
    for (let i = 0; i < n; i++) w.append(String((i * 7919) % 1013), '{}', DAY0 / 1000 + i * 17, DAY0 / 1000 + i * 17, null);
    return deflateSized(encodeChunk(w), constants.Z_DEFAULT_COMPRESSION);
  };
  const seal = (at: number, epoch: number, id: string, n: number) => {
    const bytes = chunk(n);
    const { payload, offsets } = encodeBlob(epoch, true, [{ entityId: id, bytes }], at + FRAME_HEADER);
    const row: [string, number, number, number, number, number, number] = [
      id,
      DAY0 / 1000,
      DAY0 / 1000 + n - 1,
      n,
      offsets[0] as number,
      bytes.length,
      crc32(bytes),
    ];
    return Buffer.concat([encodeFrame(payload), encodeFrame(encodeIndex({ epoch, final: true, compacted: false, chunks: [row] }))]);
  };
  const a = seal(0, 1, 'sensor.a', 50);
  const whole = seal(a.length, 2, 'sensor.b', 2000);
  const torn = whole.subarray(0, Math.floor(whole.readUInt32LE(4) / 2));
  const c = seal(a.length + torn.length, 2, 'sensor.c', 30);
  await writeFile(path, Buffer.concat([a, torn, c]));
  const scan = await scanDayFile(path, '2026-03-10');
  t.same(
    scan.refs.map((r) => [r.entityId, r.count]),
    [
      ['sensor.a', 50],
      ['sensor.c', 30],
    ],
  );
  t.equal(scan.orphans.length, 1, 'the torn blob, read as far as it goes');
  t.equal(scan.orphans[0]?.whole, false);
});

t.test('day files of the first format are read, and read on past a damaged record', async (t) => {
  const dir = await dataDir(t);
  await mkdir(join(dir, 'recorder'));
  const path = join(dir, 'recorder', '2026-03-10.seg');
  const record1 = (payload: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(payload.length, 0);
    head.writeUInt32LE(crc32(payload), 4);
    return Buffer.concat([head, payload]);
  };
  const seal = (at: number, epoch: number, h: number) => {
    const w = new SeriesWriter();
    for (let i = 0; i < 10; i++)
      w.append(String(h * 10 + i), '{}', DAY0 / 1000 + h * 3_600_000 + i * 1000, DAY0 / 1000 + h * 3_600_000 + i * 1000, null);
    const bytes = deflateSized(encodeChunk(w), constants.Z_DEFAULT_COMPRESSION);
    const row = ['sensor.old', w.firstMs, w.lastMs, w.count, at + 9, bytes.length, crc32(bytes)];
    const index = Buffer.from(`I${JSON.stringify({ epoch, compacted: false, chunks: [row] })}`);
    return Buffer.concat([record1(Buffer.concat([Buffer.of(0x42), bytes])), record1(index)]);
  };
  const parts: Buffer[] = [];
  let size = 0;
  for (let h = 0; h < 4; h++) {
    const part = seal(size, h + 1, h);
    parts.push(part);
    size += part.length;
  }
  const file = Buffer.concat(parts);
  await writeFile(path, file);
  // The same day: not compacted (which would rewrite the file in the new format).
  const clock = new ManualClock(DAY0 + 5 * HOUR);
  {
    const { recorder } = await open(t, dir, clock);
    t.equal(count(recorder, 'sensor.old', DAY0, DAY1), 40, 'read as written');
    await recorder.stop();
  }
  // The second seal's blob gets a length past the end of the file.
  const broken = Buffer.from(file);
  broken.writeUInt32LE(0x00ffffff, (parts[0] as Buffer).length);
  await writeFile(path, broken);
  const { recorder, log } = await open(t, dir, clock);
  t.equal(count(recorder, 'sensor.old', DAY0, DAY1), 40, 'its index is found again: nothing lost');
  t.same(warnings(log), []);
});

t.test('temp files of an interrupted compaction are removed at start', async (t) => {
  const dir = await dataDir(t);
  await mkdir(join(dir, 'recorder'));
  for (const name of [
    '.2026-03-10.seg.0a1b2c3d4e5f.tmp',
    '.2026-03-10.seg.tmp',
    '.2026-03-10.seg.corrupt-2026-03-11T01-02-03-456Z-001.0a1b2c3d4e5f.tmp',
  ])
    await writeFile(join(dir, 'recorder', name), 'x');
  await open(t, dir, new ManualClock(DAY0));
  t.same(await readdir(join(dir, 'recorder')), ['wal']);
});

t.test(
  'a seal cut at each byte offset near its edges and every 16th (a power cut during its write): every earlier seal is kept, the cut one is whole or gone',
  async (t) => {
    const dir = await dataDir(t);
    const ref = (entityId: string, h: number): ChunkRef => {
      const w = new SeriesWriter();
      for (let i = 0; i < 20; i++)
        w.append(String((h * 31 + i * 7) % 97), '{}', DAY0 / 1000 + h * 3_600_000 + i, DAY0 / 1000 + h * 3_600_000 + i, null);
      const bytes = deflateSized(encodeChunk(w), constants.Z_DEFAULT_COMPRESSION);
      return {
        entityId,
        firstMs: w.firstMs,
        lastMs: w.lastMs,
        count: w.count,
        day: '2026-03-10',
        offset: 0,
        length: bytes.length,
        crc: 0,
        pending: bytes,
        deflateLevel: undefined,
        damaged: false,
      };
    };
    const seal = (at: number, epoch: number) => sealRecords([ref('sensor.a', epoch), ref('sensor.b', epoch)], at, epoch, true, false);
    const first = seal(0, 1);
    const second = seal(first.length, 2);
    const before = Buffer.concat([first, second]);
    const third = seal(before.length, 3);
    const blobFrame = FRAME_HEADER + third.readUInt32LE(4);
    const log = new RecordingLogger();
    let wrong = 0;
    // Every offset near a frame's edges (headers, the blob's end, the index's start), every 16th in between:
    // each offset is a start with a copy and fsyncs.
    const near = (k: number) => k < 20 || Math.abs(k - blobFrame) < 20 || k > third.length - 20;
    const offsets = Array.from({ length: third.length + 1 }, (_, k) => k).filter((k) => near(k) || k % 16 === 0);
    for (const k of offsets) {
      const sub = join(dir, String(k));
      await mkdir(sub);
      await writeFile(join(sub, '2026-03-10.seg'), Buffer.concat([before, third.subarray(0, k)]));
      const { refs, sealedEpoch, days } = await scanDays(sub, log);
      // A whole blob is the seal (its journal records are skipped); anything less is the journal's to replay.
      const served = k >= blobFrame ? 3 : 2;
      const size =
        k === 0
          ? before.length
          : k >= blobFrame && k < third.length
            ? before.length + blobFrame
            : k === third.length
              ? before.length + k
              : before.length;
      if (refs.length !== 2 * served || sealedEpoch !== served || days.get('2026-03-10')?.size !== size) {
        wrong++;
        t.fail(`cut at ${k}: ${refs.length} chunks, epoch ${sealedEpoch}, size ${days.get('2026-03-10')?.size}`);
      }
      await rm(sub, { recursive: true });
    }
    t.equal(wrong, 0, `${offsets.length} offsets of ${third.length + 1}`);
    t.same(errors(log), [], 'a torn seal is never called damage');
  },
);
