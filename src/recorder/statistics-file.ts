import { closeSync, constants, openSync, readSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';

/**
 * An append-only file of fixed-size statistics rows, in the order their periods end (so by start time): a
 * query finds its first row by binary search and reads the range with one positional read. Each row carries
 * its CRC-32, so a torn last row (a power cut during the hourly append) is found and cut off at start.
 *
 * Row: statistic index (u32), period start in seconds (u32), mean, min, max, state, sum (f64, NaN for none),
 * CRC-32 of the 48 bytes before it.
 */
export const ROW_BYTES = 52;

export interface StatRecord {
  readonly meta: number;
  readonly startS: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly state: number;
  readonly sum: number;
}

export function encodeRows(rows: readonly StatRecord[]): Buffer {
  const out = Buffer.alloc(rows.length * ROW_BYTES);
  rows.forEach((r, i) => {
    const at = i * ROW_BYTES;
    out.writeUInt32LE(r.meta, at);
    out.writeUInt32LE(r.startS, at + 4);
    out.writeDoubleLE(r.mean, at + 8);
    out.writeDoubleLE(r.min, at + 16);
    out.writeDoubleLE(r.max, at + 24);
    out.writeDoubleLE(r.state, at + 32);
    out.writeDoubleLE(r.sum, at + 40);
    out.writeUInt32LE(crc32(out.subarray(at, at + 48)), at + 48);
  });
  return out;
}

function decodeRow(buf: Buffer, at: number): StatRecord | undefined {
  if (crc32(buf.subarray(at, at + 48)) !== buf.readUInt32LE(at + 48)) return undefined;
  return {
    meta: buf.readUInt32LE(at),
    startS: buf.readUInt32LE(at + 4),
    mean: buf.readDoubleLE(at + 8),
    min: buf.readDoubleLE(at + 16),
    max: buf.readDoubleLE(at + 24),
    state: buf.readDoubleLE(at + 32),
    sum: buf.readDoubleLE(at + 40),
  };
}

/** How many whole, checked rows the file holds from its start; rows after a bad one are not trusted. */
export async function goodRows(path: string): Promise<number> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return 0;
  }
  const count = Math.floor(size / ROW_BYTES);
  if (count === 0) return 0;
  // Only the last row can be torn by a power cut during an append; it is checked, the rest is trusted.
  const fh = await open(path, constants.O_RDONLY);
  try {
    const buf = Buffer.alloc(ROW_BYTES);
    await fh.read(buf, 0, ROW_BYTES, (count - 1) * ROW_BYTES);
    return decodeRow(buf, 0) === undefined ? count - 1 : count;
  } finally {
    await fh.close();
  }
}

/** Rows with start in [fromS, toS), read with one positional read after a binary search. */
export function readRows(path: string, rowCount: number, fromS: number, toS: number): StatRecord[] {
  if (rowCount === 0) return [];
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return [];
  }
  try {
    const one = Buffer.alloc(ROW_BYTES);
    const startOf = (i: number): number => {
      readSync(fd, one, 0, ROW_BYTES, i * ROW_BYTES);
      return one.readUInt32LE(4);
    };
    let lo = 0;
    let hi = rowCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (startOf(mid) < fromS) lo = mid + 1;
      else hi = mid;
    }
    const first = lo;
    lo = first;
    hi = rowCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (startOf(mid) < toS) lo = mid + 1;
      else hi = mid;
    }
    const n = lo - first;
    if (n <= 0) return [];
    const buf = Buffer.alloc(n * ROW_BYTES);
    readSync(fd, buf, 0, buf.length, first * ROW_BYTES);
    const out: StatRecord[] = [];
    for (let i = 0; i < n; i++) {
      const row = decodeRow(buf, i * ROW_BYTES);
      if (row !== undefined) out.push(row);
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/**
 * The last row of each wanted statistic, reading the file backwards a block at a time: at start a total's
 * running sum continues from its last row, and reading a year of rows to find it would slow the start.
 */
export function lastRows(path: string, rowCount: number, wanted: ReadonlySet<number>): Map<number, StatRecord> {
  const found = new Map<number, StatRecord>();
  if (rowCount === 0 || wanted.size === 0) return found;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return found;
  }
  try {
    const BLOCK_ROWS = 1024;
    const buf = Buffer.alloc(BLOCK_ROWS * ROW_BYTES);
    for (let end = rowCount; end > 0 && found.size < wanted.size; end -= BLOCK_ROWS) {
      const start = Math.max(0, end - BLOCK_ROWS);
      readSync(fd, buf, 0, (end - start) * ROW_BYTES, start * ROW_BYTES);
      for (let i = end - start - 1; i >= 0; i--) {
        const row = decodeRow(buf, i * ROW_BYTES);
        if (row !== undefined && wanted.has(row.meta) && !found.has(row.meta)) found.set(row.meta, row);
      }
    }
    return found;
  } finally {
    closeSync(fd);
  }
}
