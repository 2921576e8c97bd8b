import type { Chunk } from './queue.js';

/** Bytes of one segment: a segment is reused once no queue holds a head in it. */
const SEGMENT_BYTES = 128 * 1024;
/**
 * Segments in the slab: 4 MB of address space, allocated at the first event; a page takes memory only once written,
 * and the lowest free segment is written first, so a hub whose subscribers keep up uses two or three of them.
 */
const SEGMENTS = 32;
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
 */
export class HeadSlab {
  private slab: Buffer | undefined;
  private readonly refs: Int32Array;
  private segment = 0;
  private used = 0;

  /** `segments` of 128 KB (fewer in tests). */
  constructor(private readonly segments = SEGMENTS) {
    this.refs = new Int32Array(segments);
  }

  /** The head's bytes in the slab (held once for the caller: `release` it), or the string when it does not fit. */
  intern(head: string): Chunk {
    if (head.length > MAX_HEAD_BYTES) return head;
    const len = Buffer.byteLength(head, 'utf8');
    if (len > MAX_HEAD_BYTES) return head;
    this.slab ??= Buffer.allocUnsafeSlow(SEGMENT_BYTES * this.segments);
    if (this.used + len > SEGMENT_BYTES) {
      const free = this.refs.indexOf(0);
      if (free < 0) return head;
      this.segment = free;
      this.used = 0;
    }
    const start = this.segment * SEGMENT_BYTES + this.used;
    this.slab.write(head, start, len, 'utf8');
    this.used += len;
    this.count(this.segment, 1);
    return this.slab.subarray(start, start + len);
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

  private count(segment: number, by: number): void {
    this.refs[segment] = (this.refs[segment] as number) + by;
  }

  private segmentOf(chunk: Chunk): number {
    if (typeof chunk === 'string' || this.slab === undefined || chunk.buffer !== this.slab.buffer) return -1;
    return Math.floor(chunk.byteOffset / SEGMENT_BYTES);
  }
}
