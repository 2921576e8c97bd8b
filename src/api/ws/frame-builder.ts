import type { Chunk } from './queue.js';

const INITIAL_BYTES = 64 * 1024;
/** A builder that grew past this for one big frame gives the memory back afterwards. */
const KEEP_BYTES = 1024 * 1024;
const OPEN = 0x5b; // [
const COMMA = 0x2c; // ,
const CLOSE = 0x5d; // ]

/**
 * Assembles one outbound frame in a reused buffer: a message from its shared head and per-subscriber tail,
 * or a coalesced `[m1,m2,...]`. uWS copies a frame's bytes during `send`, so one builder serves every
 * connection in turn and a flush allocates nothing but the view it hands to uWS.
 */
export class FrameBuilder {
  private buf = Buffer.allocUnsafe(INITIAL_BYTES);
  private used = 0;

  get length(): number {
    return this.used;
  }

  reset(): void {
    if (this.buf.length > KEEP_BYTES) this.buf = Buffer.allocUnsafe(INITIAL_BYTES);
    this.used = 0;
  }

  open(): void {
    this.byte(OPEN);
  }

  comma(): void {
    this.byte(COMMA);
  }

  close(): void {
    this.byte(CLOSE);
  }

  append(head: Chunk, tail: Uint8Array | undefined): void {
    if (typeof head === 'string') {
      // A UTF-16 code unit takes at most 3 UTF-8 bytes.
      this.ensure(head.length * 3);
      this.used += this.buf.write(head, this.used, 'utf8');
    } else {
      this.ensure(head.length);
      this.buf.set(head, this.used);
      this.used += head.length;
    }
    if (tail !== undefined) {
      this.ensure(tail.length);
      this.buf.set(tail, this.used);
      this.used += tail.length;
    }
  }

  /** The frame so far, as a view for uWS to copy (valid until the next reset). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.used);
  }

  private byte(b: number): void {
    this.ensure(1);
    this.buf[this.used++] = b;
  }

  private ensure(extra: number): void {
    const needed = this.used + extra;
    if (needed <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < needed) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }
}
