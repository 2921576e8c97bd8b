import type { Chunk } from './queue.js';

/** Bytes of one segment: a segment is reused once no queue holds a head in it. */
const SEGMENT_BYTES = 128 * 1024;
/**
 * Segments in the slab: 4 MB of address space, reserved at the first event; a page takes memory only once written,
 * and the lowest free segment is written first, so a hub whose subscribers keep up uses two or three of them.
 */
const SEGMENTS = 32;
/** Segments kept written when free: the ones a hub whose subscribers keep up goes round in. */
const KEEP_SEGMENTS = 2;
/** A resizable ArrayBuffer (ES2024, in Node since 20; TypeScript's lib here predates it). */
interface ResizableBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}
const Resizable = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableBuffer;
/** Heads longer than this stay strings (a snapshot, a large attribute set): one would crowd out hundreds of events. */
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * The bytes of shared message heads (an event's JSON up to `"id":`), written once into one buffer that every
 * subscriber's queue points into, instead of kept as a string per event in V8's heap.
 *
 * A head waits in the queues until the slowest subscriber has sent it. As a string it outlived a young collection
 * or two whenever subscribers lagged, and was promoted: the old generation filled with sent events, some 2 KB each,
 * and V8 grew it by 8 MB and more before collecting it, pages it kept afterwards (bench/memory-flood.ts: 20,000
 * changes to 100 subscribers). Here the JSON is encoded at once; what stays in V8's heap per event is the small view
 * of its bytes, and the strings it was built from die young.
 *
 * The slab is cut into segments, each with a count of the queue items (and caches) that hold a head in it; a
 * segment is written again only once its count is zero. When every segment is held (subscribers far behind) or a
 * head is too long, `intern` returns the string itself, which the queues hold as before: so the slab bounds nothing
 * and drops nothing, it only moves what fits out of the heap.
 *
 * The slab is a resizable ArrayBuffer: what subscribers lagging behind wrote of it is given back once they caught up.
 * Its length covers the highest segment held (at least KEEP_SEGMENTS); when the top segment is let go, the buffer
 * shrinks to the highest one still held, and V8 gives those pages back to the system (it decommits what a resizable
 * buffer shrinks by). Written once, a segment kept its pages for the life of the process: a flood whose subscribers
 * fell a few thousand events behind left the whole 4 MB resident.
 */
export class HeadSlab {
  private memory: ResizableBuffer | undefined;
  /** A view of all of `memory` (made again when it is resized: a view's length is fixed at its making). */
  private slab: Buffer | undefined;
  private readonly refs: Int32Array;
  private segment = 0;
  private used = 0;
  /** Segments `memory` has room for now. */
  private length = 0;

  /** `segments` of 128 KB (fewer in tests). */
  constructor(private readonly segments = SEGMENTS) {
    this.refs = new Int32Array(segments);
  }

  /** The head's bytes in the slab (held once for the caller: `release` it), or the string when it does not fit. */
  intern(head: string): Chunk {
    if (head.length > MAX_HEAD_BYTES) return head;
    const len = Buffer.byteLength(head, 'utf8');
    if (len > MAX_HEAD_BYTES) return head;
    let slab = this.slab ?? this.resize(Math.min(KEEP_SEGMENTS, this.segments));
    if (this.used + len > SEGMENT_BYTES) {
      const free = this.refs.indexOf(0);
      if (free < 0) return head;
      const left = this.segment;
      this.segment = free;
      this.used = 0;
      if (free >= this.length) slab = this.resize(free + 1);
      // The segment written until now may be the top one, let go of while it was being written.
      else if (left === this.length - 1 && left >= KEEP_SEGMENTS && this.refs[left] === 0) slab = this.shrink();
    }
    const start = this.segment * SEGMENT_BYTES + this.used;
    slab.write(head, start, len, 'utf8');
    this.used += len;
    this.count(this.segment, 1);
    // A plain view: Buffer#subarray and Buffer.from make a view of a resizable buffer on a slow path (about 20 times
    // the time, and garbage with it), a Uint8Array does not.
    return new Uint8Array(this.memory as ResizableBuffer, start, len);
  }

  /** Another holder of `chunk` (a queue item); nothing for a string or bytes from elsewhere. */
  retain(chunk: Chunk): void {
    const at = this.segmentOf(chunk);
    if (at >= 0) this.count(at, 1);
  }

  /** A holder of `chunk` let it go. */
  release(chunk: Chunk): void {
    const at = this.segmentOf(chunk);
    if (at >= 0) this.count(at, -1);
  }

  /** Heads held in the slab, counted per holder (for tests). */
  get held(): number {
    return this.refs.reduce((a, b) => a + b, 0);
  }

  /** Segments the slab takes memory for now (for tests). */
  get segmentsInUse(): number {
    return this.length;
  }

  private count(segment: number, by: number): void {
    const refs = (this.refs[segment] as number) + by;
    this.refs[segment] = refs;
    // The top segment let go: give back what is above the highest one still held or being written.
    if (refs === 0 && segment === this.length - 1 && segment >= KEEP_SEGMENTS && segment !== this.segment) this.shrink();
  }

  private shrink(): Buffer {
    let top = this.length - 1;
    while (top >= KEEP_SEGMENTS && top !== this.segment && this.refs[top] === 0) top--;
    return this.resize(top + 1);
  }

  private resize(segments: number): Buffer {
    this.memory ??= new Resizable(0, { maxByteLength: SEGMENT_BYTES * this.segments });
    this.memory.resize(SEGMENT_BYTES * segments);
    this.length = segments;
    this.slab = Buffer.from(this.memory, 0, this.memory.byteLength);
    return this.slab;
  }

  private segmentOf(chunk: Chunk): number {
    if (typeof chunk === 'string' || this.memory === undefined || chunk.buffer !== this.memory) return -1;
    return Math.floor(chunk.byteOffset / SEGMENT_BYTES);
  }
}
