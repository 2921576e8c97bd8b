import { closeSync, openSync, readSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync, inflateRawSync, type ZlibOptions } from 'node:zlib';
import { writeFileAtomic } from '../storage/atomic-file.js';
import type { ChunkRef } from './chunk-ref.js';
import { removeCopies } from './day-copies.js';
import { encodeBlob, encodeFrame, encodeIndex, FRAME_HEADER, type IndexRow } from './day-frames.js';

/**
 * Day files: `<YYYY-MM-DD>.seg` (UTC days) of sealed chunks. Each seal appends two frames
 * (src/recorder/day-frames.ts): a blob of deflated chunks, each named by its entity, then an index naming
 * each chunk's entity, time span, point count, file offset, length and CRC. At start only the indexes are
 * read (the blobs are skipped by their length), so start-up reads kilobytes, not the history; the chunks'
 * checksums are checked once afterwards, in the background (src/recorder/recorder.ts, housekeeping). A
 * finished day is rewritten once, atomically, with one chunk per entity (better compression, fewer index
 * entries).
 *
 * Damage: a record that does not hold is skipped and the reader reads on from the next frame
 * (src/recorder/day-file-reader.ts); what start-up serves, and what it cuts off (only a file's end, after a
 * copy of the file is kept), is decided in src/recorder/day-scan.ts.
 */

export type { ChunkRef, DayFile } from './chunk-ref.js';

export { utcDayOf as dayOf } from './day.js';

/**
 * One seal's bytes for one day file (its chunks deflated): the blob frame, then the index frame. Each ref's
 * offset (absolute) and CRC are set to where the chunk will be; they are read only once `settle` drops the
 * bytes held in memory. `final`: the last file of this seal (only it says the epoch is on disk).
 */
export function sealRecords(refs: ChunkRef[], fileSize: number, epoch: number, final: boolean, compacted: boolean): Buffer {
  if (refs.some((r) => r.deflateLevel !== undefined)) throw new Error('a chunk to be written is not deflated yet');
  const chunks = refs.map((r) => ({ entityId: r.entityId, bytes: r.pending as Buffer }));
  const { payload, offsets } = encodeBlob(epoch, final, chunks, fileSize + FRAME_HEADER);
  const rows: IndexRow[] = [];
  refs.forEach((ref, i) => {
    const bytes = ref.pending as Buffer;
    ref.offset = offsets[i] as number;
    ref.crc = crc32(bytes);
    rows.push([ref.entityId, ref.firstMs, ref.lastMs, ref.count, ref.offset, bytes.length, ref.crc]);
  });
  return Buffer.concat([encodeFrame(payload), encodeFrame(encodeIndex({ epoch, final, compacted, chunks: rows }))]);
}

/** After a seal reached the disk: the refs point at the file (sealRecords set where) instead of memory. */
export function settle(refs: ChunkRef[]): void {
  for (const ref of refs) ref.pending = undefined;
}

/**
 * Deflates into an output buffer of about the input's size. With zlib's default of 16 KB, each small chunk of
 * an hourly seal held a 16 KB buffer for its few hundred bytes until it was written: 16 MB for a thousand
 * entities, and the malloc heap stayed that much larger afterwards. Small outputs come from Node's buffer pool.
 *
 * zlib's own state is sized to the input too. By default every deflate allocates some 280 KB (a 32 KB window
 * twice over, hash chains, a 16,384-symbol block buffer), which a chunk of a few hundred bytes never uses; a
 * seal deflates one chunk per entity, so a 10,000-entity hub's seal allocated and freed 10,000 of those (with
 * the unit's 8 KB mmap threshold, each block a fresh mapping: 1.5 s more for a start that seals). A window that
 * covers the input and a block buffer that holds it in one block give the same output size as the defaults
 * (test/recorder/segments.test.ts, and the recorder's disk bench); it inflates with the default window.
 */
export function deflateSized(plain: Uint8Array, level: number): Buffer {
  return deflateRawSync(plain, sizedOptions(plain, level));
}

/** deflateSized on libuv's threads, for inputs large enough to hold up the event loop. */
export function deflateSizedAsync(plain: Uint8Array, level: number): Promise<Buffer> {
  return deflateRawAsync(plain, sizedOptions(plain, level));
}

const deflateRawAsync = promisify(deflateRaw);

function sizedOptions(plain: Uint8Array, level: number): ZlibOptions {
  // The window (2^windowBits, 512 B to zlib's 32 KB) covers the whole input; memLevel sets the block buffer to
  // 2^(memLevel + 6) symbols (64 to zlib's default 16,384) and the hash table to 2^(memLevel + 7) entries.
  const bits = Math.ceil(Math.log2(Math.max(1, plain.length)));
  return {
    level,
    chunkSize: Math.max(64, plain.length + (plain.length >> 10) + 64),
    windowBits: Math.min(15, Math.max(9, bits)),
    memLevel: Math.min(8, Math.max(1, bits - 6)),
  };
}

/** Reads a chunk's deflated bytes (positional read), checks them and inflates them. */
export function readChunk(dir: string, ref: ChunkRef): Buffer {
  if (ref.pending !== undefined) return ref.deflateLevel === undefined ? inflateRawSync(ref.pending) : ref.pending;
  const fd = openSync(join(dir, `${ref.day}.seg`), 'r');
  try {
    const buf = Buffer.allocUnsafe(ref.length);
    const n = readSync(fd, buf, 0, ref.length, ref.offset);
    if (n !== ref.length || crc32(buf) !== ref.crc) throw new Error(`chunk of ${ref.entityId} in ${ref.day}.seg fails its checksum`);
    return inflateRawSync(buf);
  } finally {
    closeSync(fd);
  }
}

/** Replaces a day file with `content` atomically (temp file, fsync, rename, fsync of the directory). */
export function replaceDayFile(dir: string, day: string, content: Buffer): Promise<void> {
  return writeFileAtomic(join(dir, `${day}.seg`), content);
}

/** Removes a day file (purge) and the copies kept of it; a missing one is fine. */
export async function removeDayFile(dir: string, day: string): Promise<void> {
  await unlink(join(dir, `${day}.seg`)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await removeCopies(dir, day);
}

/**
 * Temp files of an interrupted compaction (`.<day>.seg.<random>.tmp`, or `.<day>.seg.tmp` before) or copy
 * (`.<day>.seg.corrupt-<time>.<random>.tmp`, storage keepCopy) are never read: removed at start.
 */
export async function removeTempFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (TEMP_FILE.test(name)) await unlink(join(dir, name)).catch(() => {});
  }
}

const TEMP_FILE = /^\.\d{4}-\d{2}-\d{2}\.seg\.(?:corrupt-[0-9A-Z-]+\.)?(?:[0-9a-f]+\.)?tmp$/;

export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
