/** A message, or the shared first part of one: JSON text, or its UTF-8 bytes. */
export type Chunk = string | Uint8Array;

const INITIAL_CAPACITY = 16;
/** Distinct tails a ring refers to at once (their numbers are 16-bit); a ring never holds more items than this. */
const MAX_TAILS = 0xffff;
/** A drained ring forgets the tails it knew once there are more than this (subscriptions that ended, say). */
const KEEP_TAILS = 64;

/** Told when a head enters or leaves the ring (a HeadSlab counts who holds its bytes). */
export interface HeadHolders {
  retain(head: Chunk): void;
  release(head: Chunk): void;
}

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
 * Every pushed item gets a sequence number, so a caller can later find an item that is still waiting and
 * replace it in place (entity diffs collapse this way) without scanning.
 */
export class MessageRing {
  private heads: (Chunk | undefined)[];
  /** Per slot: 0 for no tail, else 1 + the tail's index in `tails`. */
  private tailIds: Uint16Array;
  private tails: Uint8Array[] = [];
  private tailIndex = new Map<Uint8Array, number>();
  /** The last tail looked up and its number: pushes come in runs from one subscription. */
  private lastTail: Uint8Array | undefined;
  private lastTailId = 0;
  private mask: number;
  private start = 0;
  private count = 0;
  private bytes = 0;
  /** Sequence number of the item at `start`. */
  private startSeq = 0;

  constructor(
    readonly maxCapacity: number,
    private readonly holders?: HeadHolders,
  ) {
    if (!Number.isInteger(maxCapacity) || maxCapacity < 1 || maxCapacity >= MAX_TAILS)
      throw new RangeError(`maxCapacity must be an integer from 1 to ${MAX_TAILS - 1}`);
    this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
    this.tailIds = new Uint16Array(INITIAL_CAPACITY);
    this.mask = INITIAL_CAPACITY - 1;
  }

  get length(): number {
    return this.count;
  }

  /** Total size of the waiting items (string length for text, which is its UTF-8 size for ASCII JSON). */
  get byteLength(): number {
    return this.bytes;
  }

  get capacity(): number {
    return this.heads.length;
  }

  /** Appends an item and returns its sequence number, or -1 when the ring is at its hard capacity. */
  push(head: Chunk, tail?: Uint8Array): number {
    if (this.count >= this.maxCapacity) return -1;
    if (this.count === this.heads.length) this.grow();
    const i = (this.start + this.count) & this.mask;
    this.heads[i] = head;
    this.tailIds[i] = this.tailId(tail);
    this.holders?.retain(head);
    this.count++;
    this.bytes += head.length + (tail === undefined ? 0 : tail.length);
    return this.startSeq + this.count - 1;
  }

  /** The first item's head, or undefined when empty. */
  firstHead(): Chunk | undefined {
    return this.count === 0 ? undefined : this.heads[this.start];
  }

  firstTail(): Uint8Array | undefined {
    return this.count === 0 ? undefined : this.tailAt(this.start);
  }

  /** Size of the first item (0 when empty). */
  firstSize(): number {
    if (this.count === 0) return 0;
    const tail = this.tailAt(this.start);
    return (this.heads[this.start] as Chunk).length + (tail === undefined ? 0 : tail.length);
  }

  /** Removes the first item. */
  shift(): void {
    if (this.count === 0) return;
    this.bytes -= this.firstSize();
    this.holders?.release(this.heads[this.start] as Chunk);
    this.heads[this.start] = undefined;
    this.start = (this.start + 1) & this.mask;
    this.count--;
    this.startSeq++;
    if (this.count === 0) this.reset();
  }

  /** Whether the item with this sequence number is still waiting. */
  isWaiting(seq: number): boolean {
    return seq >= this.startSeq && seq < this.startSeq + this.count;
  }

  /** Replaces a waiting item; false when it has already left. */
  replace(seq: number, head: Chunk, tail?: Uint8Array): boolean {
    if (!this.isWaiting(seq)) return false;
    const i = (this.start + (seq - this.startSeq)) & this.mask;
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
    if (holders !== undefined) for (let k = 0; k < this.count; k++) holders.release(this.heads[(this.start + k) & this.mask] as Chunk);
    this.heads.fill(undefined);
    this.startSeq += this.count;
    this.count = 0;
    this.bytes = 0;
    this.reset();
  }

  private grow(): void {
    const next = Math.min(this.heads.length * 2, nextPowerOfTwo(this.maxCapacity));
    const heads = new Array<Chunk | undefined>(next).fill(undefined);
    const tailIds = new Uint16Array(next);
    for (let k = 0; k < this.count; k++) {
      const i = (this.start + k) & this.mask;
      heads[k] = this.heads[i];
      tailIds[k] = this.tailIds[i] as number;
    }
    this.heads = heads;
    this.tailIds = tailIds;
    this.mask = next - 1;
    this.start = 0;
  }

  /** Called when empty: start again at index 0, and give back a large array and a long table of tails. */
  private reset(): void {
    this.start = 0;
    if (this.heads.length > 1024) {
      this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
      this.tailIds = new Uint16Array(INITIAL_CAPACITY);
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
    for (let k = 0; k < this.count; k++) {
      const i = (this.start + k) & this.mask;
      const id = this.tailIds[i] as number;
      if (id !== 0) this.tailIds[i] = this.tailId(old[id - 1]);
    }
  }
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
