import { type Chunk, type HeadHolders, nextPowerOfTwo } from './chunk.js';
import type { EventLog } from './event-log.js';

export type { Chunk, HeadHolders } from './chunk.js';

const INITIAL_CAPACITY = 16;
/** Distinct tails a ring refers to at once (their numbers are 16-bit); a ring never holds more items than this. */
const MAX_TAILS = 0xffff;
/** A drained ring forgets the tails it knew once there are more than this (subscriptions that ended, say). */
const KEEP_TAILS = 64;

/**
 * A FIFO of outbound messages in a power-of-two ring buffer (undici's FixedQueue idea: no per-item
 * allocation, O(1) push and shift). It grows by doubling up to a hard capacity and never beyond it; once
 * drained after a burst it drops back to a small array so an idle connection holds little.
 *
 * An item is a `head` and an optional `tail` that are sent back to back as one message: an event's JSON is
 * a head shared by every subscriber, and the tail is the subscriber's own `<id>}`. So a queued event costs
 * one slot of a JS array and two bytes, however large the event: a tail is stored as its number in a small table
 * of the tails the ring has seen (one per subscription of the connection), in a typed array off V8's heap. Under a
 * flood the rings of lagging subscribers grow to hundreds of slots; their arrays live long enough to be promoted,
 * and the ones replaced as they double are garbage in the old generation until a full collection, so every byte a
 * slot costs in V8's heap counts twice in the memory right after a burst (bench/memory-flood.ts).
 *
 * So the events of the shared log (event-log.ts) take no slot each: consecutive events for one subscription wait as
 * one slot, a run (its first event's log position and its length, in typed arrays), however far behind the
 * subscriber is. Other messages (results, entity diffs) take a slot each, in order with the runs.
 *
 * Every pushed item gets a sequence number, so a caller can later find an item that is still waiting and
 * replace it in place (entity diffs collapse this way) without scanning.
 */
export class MessageRing {
  private heads: (Chunk | undefined)[];
  /** Per slot: 0 for no tail, else 1 + the tail's index in `tails`. */
  private tailIds: Uint16Array;
  /** Per slot: 0 for one message whose head is in `heads`, else a run of this many events of the shared log. */
  private runs: Uint32Array;
  /** Per run slot: the log position of its first waiting event. */
  private runAt: Float64Array;
  /** Per slot: the sequence number of its first waiting message. */
  private seqs: Float64Array;
  private tails: Uint8Array[] = [];
  private tailIndex = new Map<Uint8Array, number>();
  /** The last tail looked up and its number: pushes come in runs from one subscription. */
  private lastTail: Uint8Array | undefined;
  private lastTailId = 0;
  private mask: number;
  private start = 0;
  /** Slots in use. */
  private slots = 0;
  /** Messages waiting (a run slot holds several). */
  private count = 0;
  private bytes = 0;
  /** Sequence number of the first waiting message. */
  private startSeq = 0;

  constructor(
    readonly maxCapacity: number,
    private readonly holders?: HeadHolders,
    private readonly log?: EventLog,
  ) {
    if (!Number.isInteger(maxCapacity) || maxCapacity < 1 || maxCapacity >= MAX_TAILS)
      throw new RangeError(`maxCapacity must be an integer from 1 to ${MAX_TAILS - 1}`);
    this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
    this.tailIds = new Uint16Array(INITIAL_CAPACITY);
    this.runs = new Uint32Array(INITIAL_CAPACITY);
    this.runAt = new Float64Array(INITIAL_CAPACITY);
    this.seqs = new Float64Array(INITIAL_CAPACITY);
    this.mask = INITIAL_CAPACITY - 1;
  }

  get length(): number {
    return this.count;
  }

  /** Total size of the waiting items (string length for text, which is its UTF-8 size for ASCII JSON). */
  get byteLength(): number {
    return this.bytes;
  }

  /** Slots the ring has room for before it grows. */
  get capacity(): number {
    return this.heads.length;
  }

  /** Slots in use: fewer than `length` when events of the shared log wait as runs. */
  get slotCount(): number {
    return this.slots;
  }

  /** Appends an item and returns its sequence number, or -1 when the ring is at its hard capacity. */
  push(head: Chunk, tail?: Uint8Array): number {
    if (this.count >= this.maxCapacity) return -1;
    const seq = this.startSeq + this.count;
    const tailId = this.tailId(tail);
    const at = this.log === undefined ? -1 : this.log.positionOf(head);
    if (at >= 0) {
      // The next event of a run waiting for the same subscription: the run grows, no slot is added.
      const last = (this.start + this.slots - 1) & this.mask;
      if (
        this.slots > 0 &&
        this.runs[last] !== 0 &&
        this.tailIds[last] === tailId &&
        (this.runAt[last] as number) + (this.runs[last] as number) === at
      ) {
        this.runs[last] = (this.runs[last] as number) + 1;
      } else {
        const i = this.addSlot(undefined, tailId, seq);
        this.runs[i] = 1;
        this.runAt[i] = at;
      }
      (this.log as EventLog).retain(at);
    } else {
      this.addSlot(head, tailId, seq);
      this.holders?.retain(head);
    }
    this.count++;
    this.bytes += head.length + (tail === undefined ? 0 : tail.length);
    return seq;
  }

  /** The first item's head, or undefined when empty. */
  firstHead(): Chunk | undefined {
    if (this.count === 0) return undefined;
    const i = this.start;
    return this.runs[i] === 0 ? this.heads[i] : (this.log as EventLog).at(this.runAt[i] as number);
  }

  firstTail(): Uint8Array | undefined {
    return this.count === 0 ? undefined : this.tailAt(this.start);
  }

  /** Size of the first item (0 when empty). */
  firstSize(): number {
    if (this.count === 0) return 0;
    const tail = this.tailAt(this.start);
    return (this.firstHead() as Chunk).length + (tail === undefined ? 0 : tail.length);
  }

  /** Removes the first item. */
  shift(): void {
    if (this.count === 0) return;
    this.bytes -= this.firstSize();
    const i = this.start;
    const run = this.runs[i] as number;
    this.count--;
    this.startSeq++;
    if (run === 0) {
      this.holders?.release(this.heads[i] as Chunk);
      this.heads[i] = undefined;
      this.dropFirstSlot();
    } else {
      const at = this.runAt[i] as number;
      if (run === 1) this.dropFirstSlot();
      else {
        this.runs[i] = run - 1;
        this.runAt[i] = at + 1;
        this.seqs[i] = this.startSeq;
      }
      (this.log as EventLog).release(at);
    }
    if (this.count === 0) this.reset();
  }

  /** Whether the item with this sequence number is still waiting. */
  isWaiting(seq: number): boolean {
    return seq >= this.startSeq && seq < this.startSeq + this.count;
  }

  /** Replaces a waiting item; false when it has already left (or is an event of the shared log, never replaced). */
  replace(seq: number, head: Chunk, tail?: Uint8Array): boolean {
    if (!this.isWaiting(seq)) return false;
    const i = this.slotOf(seq);
    if (this.runs[i] !== 0) return false;
    const oldTail = this.tailAt(i);
    this.bytes += head.length + (tail === undefined ? 0 : tail.length);
    this.bytes -= (this.heads[i] as Chunk).length + (oldTail === undefined ? 0 : oldTail.length);
    this.holders?.retain(head);
    this.holders?.release(this.heads[i] as Chunk);
    this.heads[i] = head;
    this.tailIds[i] = this.tailId(tail);
    return true;
  }

  clear(): void {
    const holders = this.holders;
    for (let k = 0; k < this.slots; k++) {
      const i = (this.start + k) & this.mask;
      const run = this.runs[i] as number;
      if (run === 0) holders?.release(this.heads[i] as Chunk);
      else for (let n = 0; n < run; n++) (this.log as EventLog).release((this.runAt[i] as number) + n);
    }
    this.heads.fill(undefined);
    this.runs.fill(0);
    this.startSeq += this.count;
    this.count = 0;
    this.slots = 0;
    this.bytes = 0;
    this.reset();
  }

  private addSlot(head: Chunk | undefined, tailId: number, seq: number): number {
    if (this.slots === this.heads.length) this.grow();
    const i = (this.start + this.slots) & this.mask;
    this.heads[i] = head;
    this.tailIds[i] = tailId;
    this.runs[i] = 0;
    this.seqs[i] = seq;
    this.slots++;
    return i;
  }

  private dropFirstSlot(): void {
    this.runs[this.start] = 0;
    this.start = (this.start + 1) & this.mask;
    this.slots--;
  }

  /** The slot holding the waiting message `seq`: slots are in sequence order, so a binary search. */
  private slotOf(seq: number): number {
    let lo = 0;
    let hi = this.slots - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.seqs[(this.start + mid) & this.mask] as number) <= seq) lo = mid;
      else hi = mid - 1;
    }
    return (this.start + lo) & this.mask;
  }

  private grow(): void {
    const next = Math.min(this.heads.length * 2, nextPowerOfTwo(this.maxCapacity));
    const heads = new Array<Chunk | undefined>(next).fill(undefined);
    const tailIds = new Uint16Array(next);
    const runs = new Uint32Array(next);
    const runAt = new Float64Array(next);
    const seqs = new Float64Array(next);
    for (let k = 0; k < this.slots; k++) {
      const i = (this.start + k) & this.mask;
      heads[k] = this.heads[i];
      tailIds[k] = this.tailIds[i] as number;
      runs[k] = this.runs[i] as number;
      runAt[k] = this.runAt[i] as number;
      seqs[k] = this.seqs[i] as number;
    }
    this.heads = heads;
    this.tailIds = tailIds;
    this.runs = runs;
    this.runAt = runAt;
    this.seqs = seqs;
    this.mask = next - 1;
    this.start = 0;
  }

  /** Called when empty: start again at index 0, and give back large arrays and a long table of tails. */
  private reset(): void {
    this.start = 0;
    if (this.heads.length > 1024) {
      this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
      this.tailIds = new Uint16Array(INITIAL_CAPACITY);
      this.runs = new Uint32Array(INITIAL_CAPACITY);
      this.runAt = new Float64Array(INITIAL_CAPACITY);
      this.seqs = new Float64Array(INITIAL_CAPACITY);
      this.mask = INITIAL_CAPACITY - 1;
    }
    if (this.tails.length > KEEP_TAILS) this.forgetTails();
  }

  private tailAt(i: number): Uint8Array | undefined {
    const id = this.tailIds[i] as number;
    return id === 0 ? undefined : this.tails[id - 1];
  }

  /** The number of `tail` in the table (0: none), added when new. */
  private tailId(tail: Uint8Array | undefined): number {
    if (tail === undefined) return 0;
    if (tail === this.lastTail) return this.lastTailId;
    let id = this.tailIndex.get(tail);
    if (id === undefined) {
      // Full only when the ring never drained while subscriptions came and went: keep the tails still waiting.
      if (this.tails.length >= MAX_TAILS - 1) this.compactTails();
      this.tails.push(tail);
      id = this.tails.length;
      this.tailIndex.set(tail, id);
    }
    this.lastTail = tail;
    this.lastTailId = id;
    return id;
  }

  private forgetTails(): void {
    this.tails = [];
    this.tailIndex = new Map();
    this.lastTail = undefined;
    this.lastTailId = 0;
  }

  /** Renumbers the tails of the waiting items (at most maxCapacity of them, so fewer than MAX_TAILS). */
  private compactTails(): void {
    const old = this.tails;
    this.forgetTails();
    for (let k = 0; k < this.slots; k++) {
      const i = (this.start + k) & this.mask;
      const id = this.tailIds[i] as number;
      if (id !== 0) this.tailIds[i] = this.tailId(old[id - 1]);
    }
  }
}
