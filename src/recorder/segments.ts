import { closeSync, constants, openSync, readSync } from 'node:fs';
import { open, readdir, rename, stat, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateRaw, deflateRawSync, inflateRawSync, type ZlibOptions } from 'node:zlib';
import type { Logger } from '../core/log.js';
import { encodeOldRecord } from '../storage/journal.js';
import { quarantine } from '../storage/quarantine.js';

/**
 * Day files: `<YYYY-MM-DD>.seg` (UTC days) of sealed chunks. Each seal appends two CRC-framed records (the
 * journal's framing): a blob of deflated chunks, then an index naming each chunk's entity, time span, point
 * count, file offset, length and CRC. At start only the indexes are read (the blobs are skipped by their
 * length), so start-up reads kilobytes, not the history. A finished day is rewritten once, atomically, with
 * one chunk per entity (better compression, fewer index entries). A torn tail (power cut during a seal) is
 * cut off; the write-ahead journal still holds what it carried. A file whose index does not check out in
 * the middle is moved aside and logged, and the hub starts without it.
 */

const BLOB = 0x42; // 'B'
const INDEX = 0x49; // 'I'
const HEADER = 8;

/** Where one sealed chunk is: on disk, or (`pending`) in memory until it is written or while the disk refuses writes. */
export interface ChunkRef {
  readonly entityId: string;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly count: number;
  readonly day: string;
  offset: number;
  length: number;
  crc: number;
  pending: Buffer | undefined;
  /**
   * The zlib level `pending` is still to be deflated at: a seal deflates a large chunk just before it is
   * written, on libuv's threads, so that it does not stop the event loop. Undefined once `pending` is deflated,
   * and for a chunk on disk.
   */
  deflateLevel: number | undefined;
}

type IndexRow = [entityId: string, firstMs: number, lastMs: number, count: number, offset: number, length: number, crc: number];

interface IndexRecord {
  readonly epoch: number;
  readonly compacted: boolean;
  readonly chunks: IndexRow[];
}

export interface DayFile {
  readonly day: string;
  size: number;
  compacted: boolean;
}

export { utcDayOf as dayOf } from './day.js';

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.seg$/;

/** One seal's bytes for one day file (its chunks deflated): the blob record, then the index record; offsets are absolute. */
export function sealRecords(refs: ChunkRef[], fileSize: number, epoch: number, compacted: boolean): Buffer {
  if (refs.some((r) => r.deflateLevel !== undefined)) throw new Error('a chunk to be written is not deflated yet');
  const blobs = refs.map((r) => r.pending as Buffer);
  const blobPayload = Buffer.concat([Buffer.of(BLOB), ...blobs]);
  let at = fileSize + HEADER + 1;
  const rows: IndexRow[] = [];
  for (const ref of refs) {
    const bytes = ref.pending as Buffer;
    rows.push([ref.entityId, ref.firstMs, ref.lastMs, ref.count, at, bytes.length, crc32(bytes)]);
    at += bytes.length;
  }
  const index: IndexRecord = { epoch, compacted, chunks: rows };
  const indexPayload = Buffer.concat([Buffer.of(INDEX), Buffer.from(JSON.stringify(index))]);
  return Buffer.concat([encodeOldRecord(blobPayload), encodeOldRecord(indexPayload)]);
}

/** After a seal reached the disk: the refs point at the file instead of memory. */
export function settle(refs: ChunkRef[], fileSize: number): void {
  let at = fileSize + HEADER + 1;
  for (const ref of refs) {
    const bytes = ref.pending as Buffer;
    ref.offset = at;
    ref.crc = crc32(bytes);
    ref.pending = undefined;
    at += bytes.length;
  }
}

export interface ScanResult {
  readonly days: Map<string, DayFile>;
  readonly refs: ChunkRef[];
  readonly sealedEpoch: number;
}

/** Reads every day file's indexes; cuts torn tails off, moves unreadable files aside. */
export async function scanDays(dir: string, log: Logger): Promise<ScanResult> {
  const days = new Map<string, DayFile>();
  const refs: ChunkRef[] = [];
  let sealedEpoch = 0;
  const names = (await readdir(dir)).filter((n) => DAY_FILE.test(n)).sort();
  for (const name of names) {
    const day = (DAY_FILE.exec(name) as RegExpExecArray)[1] as string;
    const path = join(dir, name);
    try {
      const found = await scanDay(path, day, log);
      days.set(day, { day, size: found.size, compacted: found.compacted });
      refs.push(...found.refs);
      sealedEpoch = Math.max(sealedEpoch, found.epoch);
    } catch (err) {
      const movedTo = await quarantine(path).catch(() => undefined);
      log.error(
        { err, path, movedTo },
        `history file ${name} is unreadable (${(err as Error).message}); moved aside, its history is not served`,
      );
    }
  }
  return { days, refs, sealedEpoch };
}

async function scanDay(
  path: string,
  day: string,
  log: Logger,
): Promise<{ refs: ChunkRef[]; size: number; epoch: number; compacted: boolean }> {
  const fh = await open(path, constants.O_RDONLY);
  const refs: ChunkRef[] = [];
  let epoch = 0;
  let compacted = false;
  let good = 0;
  let pos = 0;
  let size: number;
  try {
    size = (await fh.stat()).size;
    const head = Buffer.alloc(HEADER + 1);
    while (pos + HEADER + 1 <= size) {
      await fh.read(head, 0, HEADER + 1, pos);
      const length = head.readUInt32LE(0);
      if (length < 1 || pos + HEADER + length > size) break; // torn
      const type = head[HEADER];
      if (type === INDEX) {
        const payload = Buffer.alloc(length);
        await fh.read(payload, 0, length, pos + HEADER);
        if (crc32(payload) !== head.readUInt32LE(4)) {
          if (pos + HEADER + length === size) break; // the last record, torn by a power cut
          throw new Error(`index at byte ${pos} fails its checksum`);
        }
        const index = JSON.parse(payload.subarray(1).toString('utf8')) as IndexRecord;
        for (const [entityId, firstMs, lastMs, count, offset, len, crc] of index.chunks) {
          refs.push({ entityId, firstMs, lastMs, count, day, offset, length: len, crc, pending: undefined, deflateLevel: undefined });
        }
        epoch = Math.max(epoch, index.epoch);
        compacted = index.compacted;
        good = pos + HEADER + length;
      } else if (type !== BLOB) throw new Error(`unknown record type ${type} at byte ${pos}`);
      pos += HEADER + length;
    }
  } finally {
    await fh.close();
  }
  if (good < size) {
    // A blob without its index, or a torn record: a seal the power cut interrupted (the journal has its data).
    await truncate(path, good);
    log.warn({ path, bytes: size - good }, `history file ${day}.seg had an unfinished write at its end (a crash or power cut); cut off`);
  }
  return { refs, size: good, epoch, compacted };
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

/**
 * Replaces a day file with `content` atomically (temp file, fsync, rename), calling `swapped` right after
 * the rename, before anything else can read the file through old offsets; then syncs the directory.
 */
export async function replaceDayFile(dir: string, day: string, content: Buffer, swapped: () => void): Promise<void> {
  const path = join(dir, `${day}.seg`);
  const tmp = join(dir, `.${day}.seg.tmp`);
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC, 0o600);
  try {
    await fh.writeFile(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  swapped();
  const dh = await open(dir, constants.O_RDONLY);
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

/** Removes a day file (purge); a missing one is fine. */
export async function removeDayFile(dir: string, day: string): Promise<void> {
  await unlink(join(dir, `${day}.seg`)).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
}

/** Temp files of an interrupted compaction are never read: removed at start. */
export async function removeTempFiles(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    if (name.startsWith('.') && name.endsWith('.seg.tmp')) await unlink(join(dir, name)).catch(() => {});
  }
}

export async function fileSize(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}
