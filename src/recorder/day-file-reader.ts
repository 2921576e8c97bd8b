import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import type { ChunkRef } from './chunk-ref.js';
import {
  BLOB,
  BLOB_HEAD,
  BLOB_V1,
  blobHead,
  FRAME_HEADER,
  frameHeader,
  INDEX,
  type IndexRecord,
  MAGIC,
  parseIndex,
  V1_HEADER,
  V1_INDEX_MARK,
  V1_MAX_RECORD,
} from './day-frames.js';
import { decodeChunk } from './series.js';

/**
 * Reads a day file's records (src/recorder/day-frames.ts) the way start-up needs them: the indexes in full,
 * the blobs skipped by their length. Past a record that does not hold, the reader looks for the next frame
 * (its magic, or an index of the first format) and reads on, so one bad byte costs its own record, not the
 * rest of the file. A blob no index points into (its index lost, or the seal interrupted before it) is read
 * chunk by chunk; whether its chunks are served is the caller's decision (src/recorder/segments.ts).
 */

/** Bytes read at a time when looking for a frame or reading a blob. */
const WINDOW = 1024 * 1024;
/** The span of a file whose chunks are checked with one read (a chunk that starts in it is read whole). */
export const CHECK_WINDOW = 1024 * 1024;
/** A frame's header and the first bytes of its payload (a blob's epoch and flags). */
const PEEK = FRAME_HEADER + 16;

interface BlobFrame {
  readonly version: 1 | 2;
  readonly pos: number;
  readonly payloadAt: number;
  /** Where its header says it ends; moved back when a frame is found inside it (a torn write appended to). */
  end: number;
  readonly crc: number;
  readonly epoch: number;
  readonly final: boolean;
}

/** Bytes the reader skipped. */
export interface Damage {
  readonly from: number;
  readonly to: number;
  /** A record whose end never reached the disk, at the end of the file: a crash or power cut during a seal. */
  readonly torn: boolean;
}

/** A blob that no index points into, with the chunks of it that check out. */
export interface Orphan {
  readonly from: number;
  /** Where it ends in the file. */
  readonly end: number;
  readonly epoch: number;
  readonly final: boolean;
  /** All its chunks are in the file and check out. */
  readonly whole: boolean;
  readonly refs: ChunkRef[];
}

export interface DayScan {
  readonly size: number;
  /** The chunks the file's indexes name. */
  readonly refs: ChunkRef[];
  /** The highest epoch of an index that ends a seal. */
  readonly epoch: number;
  /** The epochs of every index read (a seal's parts too). */
  readonly epochs: ReadonlySet<number>;
  readonly compacted: boolean;
  /** Where the last index read ends. */
  readonly indexedEnd: number;
  readonly damage: Damage[];
  readonly orphans: Orphan[];
}

type Found =
  | { readonly kind: 'index'; readonly end: number; readonly record: IndexRecord }
  | { readonly kind: 'blob'; readonly blob: BlobFrame }
  /** A frame whose header holds and whose payload does not: skipped by its length. */
  | { readonly kind: 'skip'; readonly end: number }
  | { readonly kind: 'lost'; readonly torn: boolean };

export async function scanDayFile(path: string, day: string): Promise<DayScan> {
  const fh = await open(path, constants.O_RDONLY);
  try {
    return await new Scanner(fh, (await fh.stat()).size, day).scan();
  } finally {
    await fh.close();
  }
}

/**
 * The chunks of one day file whose bytes do not match their checksum. `windows`: the chunks by the window of
 * the file (offset / CHECK_WINDOW) they start in, so that a day's many chunks need no sort; each window is
 * read at once.
 */
export async function damagedChunks(path: string, windows: ReadonlyMap<number, readonly ChunkRef[]>): Promise<ChunkRef[]> {
  const bad: ChunkRef[] = [];
  const fh = await open(path, constants.O_RDONLY);
  try {
    for (const w of [...windows.keys()].sort((a, b) => a - b)) {
      const list = windows.get(w) ?? [];
      let from = Number.POSITIVE_INFINITY;
      let to = 0;
      for (const r of list) {
        from = Math.min(from, r.offset);
        to = Math.max(to, r.offset + r.length);
      }
      const buf = await readAt(fh, from, to - from);
      for (const r of list) {
        const at = r.offset - from;
        if (at + r.length > buf.length || crc32(buf.subarray(at, at + r.length)) !== r.crc) bad.push(r);
      }
    }
  } finally {
    await fh.close();
  }
  return bad;
}

async function readAt(fh: FileHandle, pos: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, done, length - done, pos + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}

class Scanner {
  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
    private readonly day: string,
  ) {}

  private read(pos: number, length: number): Promise<Buffer> {
    return readAt(this.fh, pos, length);
  }

  async scan(): Promise<DayScan> {
    const blobs: BlobFrame[] = [];
    const indexes: { readonly end: number; readonly record: IndexRecord }[] = [];
    const damage: Damage[] = [];
    let pos = 0;
    let previous: BlobFrame | undefined;
    while (pos < this.size) {
      const found = await this.frameAt(pos);
      const before = previous;
      previous = undefined;
      if (found.kind === 'blob') {
        const blob = found.blob;
        blobs.push(blob);
        previous = blob;
        pos = blob.end;
        if (blob.end > this.size) {
          // Torn, and maybe appended to since (its end could not be cut): a frame inside it ends it there.
          const next = await this.resync(blob.payloadAt);
          if (next < this.size) blob.end = pos = next;
        }
      } else if (found.kind === 'index') {
        indexes.push(found);
        pos = found.end;
      } else if (found.kind === 'skip') {
        damage.push({ from: pos, to: found.end, torn: false });
        pos = found.end;
      } else {
        // Lost the thread. A blob just before that fails its checksum may be shorter than its header says
        // (a seal torn off and appended to later): frames are looked for inside it too.
        const inside = before !== undefined && before.end === pos && !(await this.intact(before));
        const next = await this.resync(inside ? before.payloadAt : pos + 1);
        if (inside && next < pos) {
          before.end = next;
          pos = next;
          continue;
        }
        damage.push({ from: pos, to: next, torn: found.torn && next === this.size });
        pos = next;
      }
    }
    return this.result(blobs, indexes, damage);
  }

  private async result(blobs: BlobFrame[], indexes: { end: number; record: IndexRecord }[], damage: Damage[]): Promise<DayScan> {
    const refs: ChunkRef[] = [];
    const epochs = new Set<number>();
    let epoch = 0;
    let compacted = false;
    // Each index's span of offsets: a blob it points into is not an orphan.
    const spans: [number, number][] = [];
    for (const { record } of indexes) {
      let low = Number.POSITIVE_INFINITY;
      let high = -1;
      for (const [entityId, firstMs, lastMs, count, offset, length, crc] of record.chunks) {
        refs.push({
          entityId,
          firstMs,
          lastMs,
          count,
          day: this.day,
          offset,
          length,
          crc,
          pending: undefined,
          deflateLevel: undefined,
          damaged: false,
        });
        low = Math.min(low, offset);
        high = Math.max(high, offset);
      }
      if (high >= 0) spans.push([low, high]);
      epochs.add(record.epoch);
      if (record.final !== false) epoch = Math.max(epoch, record.epoch);
      compacted = record.compacted;
    }
    const orphans: Orphan[] = [];
    for (const blob of blobs) {
      if (blob.version === 1 || spans.some(([low, high]) => high >= blob.payloadAt && low < blob.end)) continue;
      orphans.push(await this.orphan(blob));
    }
    const indexedEnd = indexes.at(-1)?.end ?? 0;
    return { size: this.size, refs, epoch, epochs, compacted: compacted && damage.length === 0, indexedEnd, damage, orphans };
  }

  /** What is at `pos`: a frame, a frame to skip, or bytes that are none (the reader lost its place). */
  private async frameAt(pos: number): Promise<Found> {
    const left = this.size - pos;
    if (left < V1_HEADER) return { kind: 'lost', torn: true };
    const head = await this.read(pos, Math.min(PEEK, left));
    if (MAGIC.compare(head, 0, 4) === 0) {
      if (left < FRAME_HEADER) return { kind: 'lost', torn: true };
      const header = frameHeader(head, 0);
      if (header === undefined) return { kind: 'lost', torn: false };
      const end = pos + FRAME_HEADER + header.length;
      const type = head[FRAME_HEADER];
      if (end > this.size) {
        // Torn: a blob's chunks that did reach the disk may still be of use (the caller decides).
        const blob = type === BLOB ? blobHead(head.subarray(FRAME_HEADER)) : undefined;
        if (blob === undefined) return { kind: 'lost', torn: true };
        return { kind: 'blob', blob: { version: 2, pos, payloadAt: pos + FRAME_HEADER, end, crc: header.crc, ...blob } };
      }
      if (type === INDEX) {
        const payload = await this.read(pos + FRAME_HEADER, header.length);
        const record = crc32(payload) === header.crc ? parseIndex(payload, this.size) : undefined;
        return record === undefined ? { kind: 'skip', end } : { kind: 'index', end, record };
      }
      const blob = type === BLOB ? blobHead(head.subarray(FRAME_HEADER)) : undefined;
      if (blob === undefined || header.length < BLOB_HEAD) return { kind: 'skip', end };
      return { kind: 'blob', blob: { version: 2, pos, payloadAt: pos + FRAME_HEADER, end, crc: header.crc, ...blob } };
    }
    // A record of the first format: its length is not checked by anything but what follows it.
    const length = head.readUInt32LE(0);
    const crc = head.readUInt32LE(4);
    if (length < 1 || length > V1_MAX_RECORD) return { kind: 'lost', torn: false };
    const end = pos + V1_HEADER + length;
    if (end > this.size) return { kind: 'lost', torn: true };
    const type = head[V1_HEADER];
    if (type === INDEX) {
      const payload = await this.read(pos + V1_HEADER, length);
      const record = crc32(payload) === crc ? parseIndex(payload, this.size) : undefined;
      return record === undefined ? { kind: 'lost', torn: false } : { kind: 'index', end, record };
    }
    if (type !== BLOB_V1) return { kind: 'lost', torn: false };
    return { kind: 'blob', blob: { version: 1, pos, payloadAt: pos + V1_HEADER, end, crc, epoch: 0, final: false } };
  }

  /** Whether a blob's payload matches its checksum (read a window at a time). */
  private async intact(blob: BlobFrame): Promise<boolean> {
    let crc = 0;
    for (let at = blob.payloadAt; at < blob.end; at += WINDOW) crc = crc32(await this.read(at, Math.min(WINDOW, blob.end - at)), crc);
    return crc === blob.crc;
  }

  /** The first place from `from` on where a frame starts (or an index of the first format), or the file's size. */
  private async resync(from: number): Promise<number> {
    const overlap = V1_INDEX_MARK.length + FRAME_HEADER;
    for (let w = from; w < this.size; w += WINDOW) {
      const buf = await this.read(w, Math.min(WINDOW + overlap, this.size - w));
      let first = Number.POSITIVE_INFINITY;
      for (let i = buf.indexOf(MAGIC); i >= 0 && i < WINDOW && w + i < first; i = buf.indexOf(MAGIC, i + 1)) {
        // A header that checks out; one at the window's edge is read whole again.
        if (i + FRAME_HEADER <= buf.length ? frameHeader(buf, i) !== undefined : await this.headerAt(w + i)) first = w + i;
      }
      for (let i = buf.indexOf(V1_INDEX_MARK); i >= 0 && i < WINDOW && w + i - V1_HEADER < first; i = buf.indexOf(V1_INDEX_MARK, i + 1)) {
        const at = w + i - V1_HEADER;
        if (at >= from && (await this.v1IndexAt(at))) first = at;
      }
      if (first < Number.POSITIVE_INFINITY) return first;
    }
    return this.size;
  }

  private async headerAt(pos: number): Promise<boolean> {
    return frameHeader(await this.read(pos, FRAME_HEADER), 0) !== undefined;
  }

  private async v1IndexAt(pos: number): Promise<boolean> {
    const head = await this.read(pos, V1_HEADER);
    if (head.length < V1_HEADER) return false;
    const length = head.readUInt32LE(0);
    if (length < 1 || pos + V1_HEADER + length > this.size) return false;
    return crc32(await this.read(pos + V1_HEADER, length)) === head.readUInt32LE(4);
  }

  /** A blob no index points into, read chunk by chunk (as much of it as is in the file). */
  private async orphan(blob: BlobFrame): Promise<Orphan> {
    const end = Math.min(blob.end, this.size);
    const input = new Sequential(this.fh, blob.payloadAt + BLOB_HEAD, end);
    const refs: ChunkRef[] = [];
    let whole = blob.end <= this.size;
    while (input.pos < end) {
      const idLength = (await input.take(2))?.readUInt16LE(0) ?? 0;
      const id = idLength === 0 ? undefined : await input.take(idLength);
      const meta = id === undefined ? undefined : await input.take(8);
      const offset = input.pos;
      const bytes = meta === undefined ? undefined : await input.take(meta.readUInt32LE(4));
      if (id === undefined || meta === undefined || bytes === undefined) {
        whole = false;
        break;
      }
      const crc = meta.readUInt32LE(0);
      const chunk = crc32(bytes) === crc ? headOf(bytes) : undefined;
      if (chunk === undefined) {
        whole = false;
        continue;
      }
      const entityId = id.toString('utf8');
      refs.push({
        entityId,
        ...chunk,
        day: this.day,
        offset,
        length: bytes.length,
        crc,
        pending: undefined,
        deflateLevel: undefined,
        damaged: false,
      });
    }
    return { from: blob.pos, end, epoch: blob.epoch, final: blob.final, whole, refs };
  }
}

/** A chunk's span and count (it is inflated to read them), or undefined when it does not decode. */
function headOf(deflated: Buffer): { firstMs: number; lastMs: number; count: number } | undefined {
  try {
    const { firstMs, lastMs, count } = decodeChunk(inflateRawSync(deflated));
    return { firstMs, lastMs, count };
  } catch {
    return undefined;
  }
}

/** Reads a range of a file front to back, a window at a time. */
class Sequential {
  private buf: Buffer = Buffer.alloc(0);
  private bufAt = 0;

  constructor(
    private readonly fh: FileHandle,
    public pos: number,
    private readonly end: number,
  ) {}

  /** The next `n` bytes, or undefined when the range ends first. */
  async take(n: number): Promise<Buffer | undefined> {
    if (this.pos + n > this.end) return undefined;
    if (this.pos + n > this.bufAt + this.buf.length) {
      this.buf = await readAt(this.fh, this.pos, Math.min(Math.max(n, WINDOW), this.end - this.pos));
      this.bufAt = this.pos;
    }
    const from = this.pos - this.bufAt;
    this.pos += n;
    return this.buf.length >= from + n ? this.buf.subarray(from, from + n) : undefined;
  }
}
