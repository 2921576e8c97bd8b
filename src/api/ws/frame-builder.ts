import type { Chunk } from './queue.js';

const INITIAL_BYTES = 64 * 1024;
/** A builder that grew past this for one big frame gives the memory back afterwards. */
const KEEP_BYTES = 1024 * 1024;
/** Text heads remembered with their bytes: a burst's events, each going to every subscriber. */
const RECENT_TEXTS = 16;
/** Larger texts are encoded each time rather than cached, so the cache holds at most 16 x 16 KB. */
const RECENT_MAX_BYTES = 16 * 1024;
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
  /** The last few text heads encoded, and their bytes (a small fixed cache; see appendText). */
  private readonly recentText: (string | undefined)[] = new Array<string | undefined>(RECENT_TEXTS).fill(undefined);
  private readonly recentBytes: Buffer[] = Array.from({ length: RECENT_TEXTS }, () => Buffer.allocUnsafeSlow(2048));
  /** Each cached head's bytes as a view of their exact length, made once when cached: copying a part of a
   * Buffer (`copy` with an end) makes a new view at every call, a hundred per event for a hundred subscribers. */
  private readonly recentViews: (Uint8Array | undefined)[] = new Array<Uint8Array | undefined>(RECENT_TEXTS).fill(undefined);
  private nextRecent = 0;
  /** The last view handed out, reused while the frame has the same buffer and length (every subscriber's
   * copy of one event, when their ids have as many digits). */
  private lastView: Uint8Array | undefined;
  private lastViewOf: Buffer | undefined;

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
      this.appendText(head);
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

  /**
   * A shared event head arrives as the same string object at every subscriber, one flush after another:
   * it is encoded once and copied from then on. Holding heads as strings rather than bytes keeps queued
   * events in V8's heap, where a collection frees them, instead of in malloc'd buffers that glibc keeps
   * after a burst.
   */
  private appendText(text: string): void {
    const keys = this.recentText;
    for (let i = 0; i < RECENT_TEXTS; i++) {
      // The same head is the same string object, so this is mostly a pointer comparison.
      if (keys[i] !== text) continue;
      const bytes = this.recentViews[i] as Uint8Array;
      this.ensure(bytes.length);
      this.buf.set(bytes, this.used);
      this.used += bytes.length;
      return;
    }
    // A UTF-16 code unit takes at most 3 UTF-8 bytes.
    this.ensure(text.length * 3);
    const start = this.used;
    const len = this.buf.write(text, start, 'utf8');
    this.used += len;
    if (len > RECENT_MAX_BYTES) return;
    const slot = this.nextRecent;
    this.nextRecent = (slot + 1) % RECENT_TEXTS;
    let bytes = this.recentBytes[slot] as Buffer;
    if (bytes.length < len) {
      bytes = Buffer.allocUnsafeSlow(Math.max(len, 2 * bytes.length));
      this.recentBytes[slot] = bytes;
    }
    this.buf.copy(bytes, 0, start, start + len);
    keys[slot] = text;
    this.recentViews[slot] = bytes.subarray(0, len);
  }

  /** The frame so far, as a view for uWS to copy (valid until the next reset). */
  view(): Uint8Array {
    const last = this.lastView;
    if (last !== undefined && this.lastViewOf === this.buf && last.length === this.used) return last;
    const view = this.buf.subarray(0, this.used);
    this.lastView = view;
    this.lastViewOf = this.buf;
    return view;
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
