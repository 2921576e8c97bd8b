import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { nodeFs, type StorageFs, syncDir } from './storage-fs.js';

/**
 * An append-only file of checksummed records (the restore-state journal, the recorder's write-ahead log), made
 * so that one bad byte costs one record, never the records after it (docs/storage.md has the layout):
 *
 * - a generation starts with a header: a magic, the version and a random salt, twice (one damaged copy is
 *   not fatal), each copy with its own CRC-32. A journal emptied (truncated to 0) starts a new generation
 *   (appendRecord);
 * - each record is a frame: a magic, the payload's length, and a CRC-32 over (salt, length, payload), then the
 *   payload. Zeros have no magic, and a frame of another generation or file does not check against this salt;
 * - reading checks frame after frame. A frame that does not check in the middle is skipped: the reader scans
 *   forward for the next magic whose frame (or header) checks, and reads on from there. Only bytes after the
 *   last frame that checks are a torn tail (a crash or power cut during an append);
 * - files of release 2026.11 (no header; each record 4 bytes of length and the payload's CRC-32) are still
 *   read, up to their first bad record; the next append after one starts a new generation behind them, and
 *   the owner's next compaction (or any repair) rewrites the file in this format.
 */

const HEADER_MAGIC = Buffer.from('HJNL', 'latin1');
const FRAME_MAGIC = Buffer.from([0xfe, 0x52, 0x43, 0xff]);
const VERSION = 1;
/** One copy of the header: magic, version, 3 reserved zero bytes, salt, CRC-32 of the 12 bytes before it. */
const HEADER_COPY_BYTES = 16;
export const HEADER_BYTES = 2 * HEADER_COPY_BYTES;
/** A frame's head: magic, payload length, CRC-32 over (salt, length, payload). */
const FRAME_HEAD_BYTES = 12;
/** The frame of release 2026.11: payload length, CRC-32 of the payload. */
const OLD_HEAD_BYTES = 8;
/** Larger than any record the stores write; a length beyond it is garbage, not a record. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/**
 * The work of looking for the next frame after damage: bytes checksummed, each candidate counted as at least
 * RESYNC_CANDIDATE_BYTES (some 4,000 candidates at most, a few tens of milliseconds). The magic is rare in real data,
 * so this is only reached by a file made to be slow to read; the rest of such a file is treated as its tail.
 */
const RESYNC_BUDGET_BYTES = 64 * 1024 * 1024;
const RESYNC_CANDIDATE_BYTES = 16 * 1024;

/** A new random salt for a journal's next generation. */
export function newSalt(): number {
  return randomBytes(4).readUInt32LE(0);
}

/** A generation's header: two identical copies. */
export function encodeHeader(salt: number): Buffer {
  const copy = Buffer.alloc(HEADER_COPY_BYTES);
  HEADER_MAGIC.copy(copy, 0);
  copy[4] = VERSION;
  copy.writeUInt32LE(salt, 8);
  copy.writeUInt32LE(crc32(copy.subarray(0, 12)), 12);
  return Buffer.concat([copy, copy]);
}

const saltAndLength = Buffer.alloc(8);

function frameCrc(salt: number, payload: Uint8Array): number {
  saltAndLength.writeUInt32LE(salt, 0);
  saltAndLength.writeUInt32LE(payload.length, 4);
  return crc32(payload, crc32(saltAndLength));
}

/** One record's frame in a generation with `salt`. */
export function encodeRecord(payload: Uint8Array, salt: number): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEAD_BYTES + payload.length);
  FRAME_MAGIC.copy(out, 0);
  out.writeUInt32LE(payload.length, 4);
  out.writeUInt32LE(frameCrc(salt, payload), 8);
  out.set(payload, FRAME_HEAD_BYTES);
  return out;
}

/**
 * A record as release 2026.11 framed it (length, CRC-32 of the payload), which the day files
 * (src/recorder/segments.ts) still write; journals are no longer written this way, only read.
 */
export function encodeOldRecord(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(OLD_HEAD_BYTES + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, OLD_HEAD_BYTES);
  return out;
}

/** A stretch between records that did not check, skipped. */
export interface SkippedStretch {
  /** Byte offset in the file. */
  readonly offset: number;
  readonly bytes: number;
  /** How many records it held, as far as can be told (frame magics in it; 0 for a damaged copy of a header). */
  readonly records: number;
  /** The index in `records` of the first record after it. */
  readonly before: number;
}

export interface DecodedJournal {
  readonly records: Buffer[];
  /** The end of the last frame or header that checks: anything after it is a torn or damaged tail. */
  readonly goodBytes: number;
  /** The salt of the generation at `goodBytes` (for appendRecord); undefined when there is none (empty, or old-format records). */
  readonly salt: number | undefined;
  /** Damaged stretches before `goodBytes`, skipped (the records around them are read). */
  readonly skipped: readonly SkippedStretch[];
  /** Some records were read in release 2026.11's format. */
  readonly oldFormat: boolean;
}

/** The salt of a header copy that checks at `at`, else undefined. */
function headerCopyAt(data: Buffer, at: number): number | undefined {
  if (at < 0 || at + HEADER_COPY_BYTES > data.length) return undefined;
  if (data.compare(HEADER_MAGIC, 0, 4, at, at + 4) !== 0 || data[at + 4] !== VERSION) return undefined;
  if (crc32(data.subarray(at, at + 12)) !== data.readUInt32LE(at + 12)) return undefined;
  return data.readUInt32LE(at + 8);
}

/** The length of a frame that checks at `at` against `salt`, else -1. */
function frameAt(data: Buffer, at: number, salt: number): number {
  if (at + FRAME_HEAD_BYTES > data.length || data.compare(FRAME_MAGIC, 0, 4, at, at + 4) !== 0) return -1;
  const length = data.readUInt32LE(at + 4);
  if (length > MAX_RECORD_BYTES || at + FRAME_HEAD_BYTES + length > data.length) return -1;
  const payload = data.subarray(at + FRAME_HEAD_BYTES, at + FRAME_HEAD_BYTES + length);
  return frameCrc(salt, payload) === data.readUInt32LE(at + 8) ? length : -1;
}

/** The length of a release-2026.11 frame that checks at `at`, else -1 (an empty record is never written: zeros are not one). */
function oldFrameAt(data: Buffer, at: number): number {
  if (at + OLD_HEAD_BYTES > data.length) return -1;
  const length = data.readUInt32LE(at);
  if (length === 0 || length > MAX_RECORD_BYTES || at + OLD_HEAD_BYTES + length > data.length) return -1;
  return crc32(data.subarray(at + OLD_HEAD_BYTES, at + OLD_HEAD_BYTES + length)) === data.readUInt32LE(at + 4) ? length : -1;
}

function countMagic(data: Buffer, from: number, to: number): number {
  let n = 0;
  for (let at = data.indexOf(FRAME_MAGIC, from); at >= 0 && at < to; at = data.indexOf(FRAME_MAGIC, at + 1)) n++;
  return n;
}

/** Reads a journal's records; see the top of this file for what is skipped and what is a tail. */
export function decodeRecords(data: Buffer): DecodedJournal {
  const records: Buffer[] = [];
  const skipped: SkippedStretch[] = [];
  let salt: number | undefined;
  let saltAtGood: number | undefined;
  let oldFormat = false;
  let goodBytes = 0;
  let at = 0;
  /** Where the damaged stretch being skipped began (-1: none). */
  let damagedFrom = -1;
  let budget = RESYNC_BUDGET_BYTES;
  let headerAhead = -2;
  let frameAhead = -2;

  const accept = (start: number, end: number): void => {
    if (damagedFrom >= 0 && start > damagedFrom) {
      const bytes = start - damagedFrom;
      const magics = countMagic(data, damagedFrom, start);
      skipped.push({
        offset: damagedFrom,
        bytes,
        records: magics > 0 || bytes !== HEADER_COPY_BYTES ? Math.max(1, magics) : 0,
        before: records.length,
      });
    }
    damagedFrom = -1;
    at = end;
    goodBytes = end;
    saltAtGood = salt;
  };

  while (at < data.length) {
    // A frame of this generation first: a payload may hold anything, even bytes that look like a header.
    if (salt !== undefined) {
      const length = frameAt(data, at, salt);
      if (length >= 0) {
        const payload = data.subarray(at + FRAME_HEAD_BYTES, at + FRAME_HEAD_BYTES + length);
        accept(at, at + FRAME_HEAD_BYTES + length);
        records.push(payload);
        continue;
      }
    }
    // A header: a new generation (at the start, or after a tail that could not be cut).
    const first = headerCopyAt(data, at);
    const second = headerCopyAt(data, at + HEADER_COPY_BYTES);
    if ((first !== undefined || second !== undefined) && at + HEADER_BYTES <= data.length) {
      salt = second ?? first;
      accept(at, at + HEADER_BYTES);
      continue;
    }
    if (damagedFrom >= 0 && first !== undefined) {
      // Found by scanning: the second copy of a header whose first copy is damaged (its frames follow right
      // after it), or the first copy of one whose second copy is (which is then skipped as 16 damaged bytes).
      salt = first;
      if (at - HEADER_COPY_BYTES >= damagedFrom) accept(at - HEADER_COPY_BYTES, at + HEADER_COPY_BYTES);
      else accept(at, at + HEADER_COPY_BYTES);
      continue;
    }
    // A release-2026.11 frame: only before any header, and not after damage (they have no magic to find).
    if (salt === undefined && damagedFrom < 0) {
      const length = oldFrameAt(data, at);
      if (length >= 0) {
        oldFormat = true;
        const payload = data.subarray(at + OLD_HEAD_BYTES, at + OLD_HEAD_BYTES + length);
        accept(at, at + OLD_HEAD_BYTES + length);
        records.push(payload);
        continue;
      }
    }
    // Damage (or a torn tail): look for the next place a header or a frame of this generation could start.
    if (damagedFrom < 0) damagedFrom = at;
    // The next of each magic, found once and kept until passed: a file full of one magic must not make the
    // search for the other start over at each candidate.
    if (headerAhead !== -1 && headerAhead <= at) headerAhead = data.indexOf(HEADER_MAGIC, at + 1);
    if (salt !== undefined && frameAhead !== -1 && frameAhead <= at) frameAhead = data.indexOf(FRAME_MAGIC, at + 1);
    const nextFrame = salt === undefined ? -1 : frameAhead;
    const next = headerAhead < 0 ? nextFrame : nextFrame < 0 ? headerAhead : Math.min(headerAhead, nextFrame);
    if (next < 0) break;
    // A candidate frame costs a checksum of up to its claimed length; bounded for files made to be slow.
    const claimed = next === nextFrame && next + 8 <= data.length ? Math.min(data.readUInt32LE(next + 4), data.length - next) : 0;
    budget -= Math.max(RESYNC_CANDIDATE_BYTES, claimed);
    if (budget < 0) break;
    at = next;
  }
  return { records, goodBytes, salt: saltAtGood, skipped, oldFormat };
}

/**
 * The file operations the journal needs, behind one small interface so tests can inject a full disk
 * (ENOSPC after a partial write) or a power cut.
 */
export interface AppendFile {
  /** Appends all of `data` and makes it durable (fdatasync) before resolving. */
  append(data: Uint8Array): Promise<void>;
  /** Cuts the file to `length` bytes, durably. */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

export type OpenAppendFile = (path: string) => Promise<AppendFile>;

/** Where a journal's appends continue: its last generation's salt (undefined: none, or old-format records) and its length. */
export interface JournalEnd {
  readonly salt: number | undefined;
  readonly bytes: number;
}

/** A frame's bytes for a payload: what an append adds to a journal that has its header. */
export function frameBytes(payload: Uint8Array): number {
  return FRAME_HEAD_BYTES + payload.length;
}

/**
 * Appends one record durably at `end` and returns the new end. An empty journal, or one that does not end in a
 * generation of this format, first gets a new generation's header (a new salt), made durable on its own: a
 * power cut can then never show the previous generation's header (blocks a truncation freed, given back with
 * their old bytes) over frames of the new one. On failure this throws as the file does; the caller cuts the
 * file back to `end.bytes`.
 */
export async function appendRecord(file: AppendFile, payload: Uint8Array, end: JournalEnd): Promise<JournalEnd> {
  let { salt, bytes } = end;
  if (bytes === 0 || salt === undefined) {
    salt = newSalt();
    const header = encodeHeader(salt);
    await file.append(header);
    bytes += header.length;
  }
  const frame = encodeRecord(payload, salt);
  await file.append(frame);
  return { salt, bytes: bytes + frame.length };
}

/**
 * Append files on `fs`: O_APPEND, so every write lands at the end whatever was truncated before. A file this
 * creates has its name made durable too (its directory fsynced) before it is used.
 */
export function appendFileOn(fs: StorageFs): OpenAppendFile {
  return async (path) => {
    let fh = await fs.open(path, constants.O_WRONLY | constants.O_APPEND).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      return undefined;
    });
    if (fh === undefined) {
      fh = await fs.open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600);
      try {
        await syncDir(dirname(path), fs);
      } catch (err) {
        await fh.close().catch(() => {});
        throw err;
      }
    }
    const handle = fh;
    return {
      async append(data) {
        // A short write (the disk filling up) is followed by another, which then fails with ENOSPC.
        for (let done = 0; done < data.length; ) done += (await handle.write(data, done)).bytesWritten;
        await handle.datasync();
      },
      async truncate(length) {
        await handle.truncate(length);
        await handle.datasync();
      },
      close: () => handle.close(),
    };
  };
}

/** The real file. */
export const openAppendFile: OpenAppendFile = appendFileOn(nodeFs);
