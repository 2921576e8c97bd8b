import { type Chunk, type HeadHolders, nextPowerOfTwo } from './chunk.js';

const INITIAL_ENTRIES = 64;
/** A log this long or longer goes back to INITIAL_ENTRIES once only its newest entry is left. */
const SHRINK_ENTRIES = 1024;

/**
 * The event heads every subscriber shares, in the order they happened, each with a count of the queue items that
 * still hold it. A subscriber's queue holds a run of consecutive events as one slot, the run's position here and its
 * length (queue.ts), instead of a slot per event: with a hundred subscribers falling thousands of events behind
 * under a flood, their queues' slots were some 8 bytes of V8's heap per subscriber and event, lived long enough to be
 * promoted, and left the old generation megabytes larger right after the flood (bench/memory-flood.ts). Here an
 * event costs one slot however many subscribers wait for it.
 *
 * Positions count up from 0 for the hub's life. Entries are let go of in order, from the oldest, once no queue
 * holds them; the newest is kept until the next append, since the event being fanned out may still be pushed to
 * more subscribers. When the log is full (a subscriber `maxEntries` events behind), `append` keeps nothing and
 * queues hold that event's head in a slot of their own, as before: the log bounds nothing and drops nothing.
 */
export class EventLog {
  private heads: (Chunk | undefined)[];
  /** Per entry, the queue items holding it. */
  private refs: Int32Array;
  /** Positions count up for the hub's life, past 2^31, so an entry's index is its position modulo the size, not a mask. */
  private size: number;
  /** Position of the oldest entry kept. */
  private first = 0;
  /** Position the next append takes. */
  private end = 0;
  /** The newest entry's head while it can still be pushed (undefined when the log was full). */
  private newest: Chunk | undefined;

  constructor(
    readonly maxEntries: number,
    private readonly holders?: HeadHolders,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 2) throw new RangeError('maxEntries must be an integer of at least 2');
    const size = Math.min(INITIAL_ENTRIES, nextPowerOfTwo(maxEntries));
    this.heads = new Array<Chunk | undefined>(size).fill(undefined);
    this.refs = new Int32Array(size);
    this.size = size;
  }

  /** Entries kept (for tests and the bench). */
  get length(): number {
    return this.end - this.first;
  }

  /** Adds the head of the event now being fanned out; queues then find it with `positionOf`. */
  append(head: Chunk): void {
    // The previous newest entry can no longer be pushed: let it go now if nobody holds it (or all sent it).
    this.newest = undefined;
    this.collect();
    if (this.end - this.first === this.heads.length && !this.grow()) return;
    const i = this.end % this.size;
    this.heads[i] = head;
    this.refs[i] = 0;
    this.holders?.retain(head);
    this.end++;
    this.newest = head;
  }

  /** The position of `head` when it is the newest entry, else -1. */
  positionOf(head: Chunk): number {
    return this.newest !== undefined && head === this.newest ? this.end - 1 : -1;
  }

  at(position: number): Chunk {
    return this.heads[position % this.size] as Chunk;
  }

  /** One more queue item holds the entry at `position`. */
  retain(position: number): void {
    const i = position % this.size;
    this.refs[i] = (this.refs[i] as number) + 1;
  }

  /** A queue item let go of the entry at `position`. */
  release(position: number): void {
    const i = position % this.size;
    this.refs[i] = (this.refs[i] as number) - 1;
    if (position === this.first) this.collect();
  }

  /** Lets go of the oldest entries no queue holds, up to (not including) the newest while it can still be pushed. */
  private collect(): void {
    const last = this.newest === undefined ? this.end : this.end - 1;
    while (this.first < last && this.refs[this.first % this.size] === 0) {
      const i = this.first % this.size;
      this.holders?.release(this.heads[i] as Chunk);
      this.heads[i] = undefined;
      this.first++;
    }
    if (this.end - this.first <= 1 && this.heads.length >= SHRINK_ENTRIES) this.rebuild(INITIAL_ENTRIES);
  }

  private grow(): boolean {
    if (this.heads.length >= this.maxEntries) return false;
    this.rebuild(Math.min(this.heads.length * 2, nextPowerOfTwo(this.maxEntries)));
    return true;
  }

  /** New arrays of `size` entries holding what is kept (positions stay; their index is position modulo size). */
  private rebuild(size: number): void {
    const heads = new Array<Chunk | undefined>(size).fill(undefined);
    const refs = new Int32Array(size);
    for (let p = this.first; p < this.end; p++) {
      heads[p % size] = this.heads[p % this.size];
      refs[p % size] = this.refs[p % this.size] as number;
    }
    this.heads = heads;
    this.refs = refs;
    this.size = size;
  }
}
