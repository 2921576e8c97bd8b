import { copyFile, mkdir, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { constants, crc32 } from 'node:zlib';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import type { ChunkRef } from '../../src/recorder/chunk-ref.js';
import { scanDayFile } from '../../src/recorder/day-file-reader.js';
import { encodeBlob, encodeFrame, encodeIndex, FRAME_HEADER } from '../../src/recorder/day-frames.js';
import { scanDays } from '../../src/recorder/day-scan.js';
import { deflateSized, sealRecords } from '../../src/recorder/segments.js';
import { encodeChunk, SeriesWriter } from '../../src/recorder/series.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import { tempDir } from '../storage/helpers.js';
import { DAY0, DAY1, errors, frames, open, warnings } from './day-file-rig.js';
import { count, DAY, HOUR, MIN } from './recorder-rig.js';

/** Seals torn by a power cut, seals after a torn blob, files of the first format and left-over temp files. */

t.test('a seal torn off after its blob: the blob is served and the journal it came from is not replayed twice', async (t) => {
  for (const tear of ['index', 'blob'] as const) {
    const dir = await tempDir(t);
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
  const dir = await tempDir(t);
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
  const dir = await tempDir(t);
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
  const dir = await tempDir(t);
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
    const dir = await tempDir(t);
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
