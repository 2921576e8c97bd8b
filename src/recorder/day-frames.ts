import { crc32 } from 'node:zlib';

/**
 * The records of a day file (src/recorder/segments.ts), byte by byte.
 *
 * Frames (written since issue 32): 16 bytes of header, then the payload.
 *   0  magic D5 1F 5E C7: a reader that lost its place (a damaged record) finds the next frame by it; zeros
 *      and text never carry it
 *   4  payload length, u32 LE
 *   8  the payload's CRC-32
 *   12 the CRC-32 of bytes 0-11: a flipped length is found without reading the payload, so a blob (the bulk of
 *      the file) can be skipped by its length at start and still be trusted
 * Payloads begin with their type:
 *   'b' blob: u32 epoch, u8 flags (1: the last file of its seal), then per chunk: u16 id length, the entity id
 *      (UTF-8), u32 CRC-32 of the chunk, u32 length, the deflated chunk. A blob whose index is lost can be read
 *      without it, chunk by chunk.
 *   'I' index: JSON {epoch, final, compacted, chunks: [[entity, firstMs, lastMs, count, offset, length, crc]]},
 *      offsets absolute in the file; `epoch` is 0 in the index of a seal's part that is not its last file.
 * Records of the first format (files written before) are still read: 4 bytes of length, 4 of the payload's
 * CRC-32, the payload: 'B' and the chunks back to back, or 'I' and the index as above without `final`.
 */

export const FRAME_HEADER = 16;
export const V1_HEADER = 8;
export const MAGIC = Buffer.of(0xd5, 0x1f, 0x5e, 0xc7);
export const BLOB_V1 = 0x42; // 'B'
export const BLOB = 0x62; // 'b'
export const INDEX = 0x49; // 'I'
/** 'b', u32 epoch, u8 flags. */
export const BLOB_HEAD = 6;
/** Per chunk besides its id: u16 id length, u32 CRC, u32 length. */
const ENTRY_HEAD = 10;
const FINAL = 1;
/** The start of every index payload ('I' then JSON.stringify's first key): how a reader finds a record of the first format again. */
export const V1_INDEX_MARK = Buffer.from('I{"epoch":');
/** No record of the first format is larger (the journal's bound, whose framing it shared). */
export const V1_MAX_RECORD = 64 * 1024 * 1024;

export type IndexRow = [entityId: string, firstMs: number, lastMs: number, count: number, offset: number, length: number, crc: number];

export interface IndexRecord {
  readonly epoch: number;
  /** False only for a seal's part in a file before its last; files of the first format leave it out. */
  readonly final?: boolean;
  readonly compacted: boolean;
  readonly chunks: IndexRow[];
}

export function encodeFrame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(payload.length, 4);
  out.writeUInt32LE(crc32(payload), 8);
  out.writeUInt32LE(crc32(out.subarray(0, 12)), 12);
  out.set(payload, FRAME_HEADER);
  return out;
}

/** A frame header at `at` (16 bytes there): its payload's length and CRC, or undefined when it is not one. */
export function frameHeader(buf: Buffer, at: number): { readonly length: number; readonly crc: number } | undefined {
  if (at + FRAME_HEADER > buf.length || MAGIC.compare(buf, at, at + 4) !== 0) return undefined;
  if (crc32(buf.subarray(at, at + 12)) !== buf.readUInt32LE(at + 12)) return undefined;
  const length = buf.readUInt32LE(at + 4);
  return length < 1 ? undefined : { length, crc: buf.readUInt32LE(at + 8) };
}

export interface ChunkBytes {
  readonly entityId: string;
  readonly bytes: Uint8Array;
}

/** A blob's payload, and where each chunk lands in the file when the payload starts at `payloadAt`. */
export function encodeBlob(
  epoch: number,
  final: boolean,
  chunks: readonly ChunkBytes[],
  payloadAt: number,
): { payload: Buffer; offsets: number[] } {
  let size = BLOB_HEAD;
  const ids = chunks.map((c) => Buffer.from(c.entityId, 'utf8'));
  for (let i = 0; i < chunks.length; i++) size += ENTRY_HEAD + (ids[i] as Buffer).length + (chunks[i] as ChunkBytes).bytes.length;
  const out = Buffer.allocUnsafe(size);
  out[0] = BLOB;
  out.writeUInt32LE(epoch, 1);
  out[5] = final ? FINAL : 0;
  let at = BLOB_HEAD;
  const offsets: number[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const id = ids[i] as Buffer;
    const bytes = (chunks[i] as ChunkBytes).bytes;
    out.writeUInt16LE(id.length, at);
    id.copy(out, at + 2);
    at += 2 + id.length;
    out.writeUInt32LE(crc32(bytes), at);
    out.writeUInt32LE(bytes.length, at + 4);
    at += 8;
    offsets.push(payloadAt + at);
    out.set(bytes, at);
    at += bytes.length;
  }
  return { payload: out, offsets };
}

/** The head of a blob's payload (its first 6 bytes or more). */
export function blobHead(payload: Buffer): { readonly epoch: number; readonly final: boolean } | undefined {
  if (payload.length < BLOB_HEAD || payload[0] !== BLOB) return undefined;
  return { epoch: payload.readUInt32LE(1), final: ((payload[5] as number) & FINAL) !== 0 };
}

export function encodeIndex(record: IndexRecord): Buffer {
  return Buffer.concat([Buffer.of(INDEX), Buffer.from(JSON.stringify(record))]);
}

/** An index payload ('I' and JSON) whose rows all point inside a file of `fileSize` bytes; undefined otherwise. */
export function parseIndex(payload: Buffer, fileSize: number): IndexRecord | undefined {
  if (payload[0] !== INDEX) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8', 1));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { epoch, final, compacted, chunks } = value as Record<string, unknown>;
  if (!isCount(epoch) || typeof compacted !== 'boolean' || !Array.isArray(chunks)) return undefined;
  if (final !== undefined && typeof final !== 'boolean') return undefined;
  for (const row of chunks) if (!isRow(row, fileSize)) return undefined;
  return { epoch, final, compacted, chunks: chunks as IndexRow[] };
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

function isRow(row: unknown, fileSize: number): boolean {
  if (!Array.isArray(row) || row.length !== 7 || typeof row[0] !== 'string') return false;
  for (let i = 1; i < 7; i++) if (!isCount(row[i])) return false;
  const [, firstMs, lastMs, , offset, length] = row as IndexRow;
  return firstMs <= lastMs && offset + length <= fileSize;
}
