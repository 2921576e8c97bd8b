/** A message, or the shared first part of one: JSON text, or its UTF-8 bytes. */
export type Chunk = string | Uint8Array;

const INITIAL_CAPACITY = 16;

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
 * two array slots, however large the event.
 *
 * Every pushed item gets a sequence number, so a caller can later find an item that is still waiting and
 * replace it in place (entity diffs collapse this way) without scanning.
 */
export class MessageRing {
  private heads: (Chunk | undefined)[];
  private tails: (Uint8Array | undefined)[];
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
    if (!Number.isInteger(maxCapacity) || maxCapacity < 1) throw new RangeError('maxCapacity must be a positive integer');
    this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
    this.tails = new Array<Uint8Array | undefined>(INITIAL_CAPACITY).fill(undefined);
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
    this.tails[i] = tail;
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
    return this.count === 0 ? undefined : this.tails[this.start];
  }

  /** Size of the first item (0 when empty). */
  firstSize(): number {
    if (this.count === 0) return 0;
    const tail = this.tails[this.start];
    return (this.heads[this.start] as Chunk).length + (tail === undefined ? 0 : tail.length);
  }

  /** Removes the first item. */
  shift(): void {
    if (this.count === 0) return;
    this.bytes -= this.firstSize();
    this.holders?.release(this.heads[this.start] as Chunk);
    this.heads[this.start] = undefined;
    this.tails[this.start] = undefined;
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
    const oldTail = this.tails[i];
    this.bytes += head.length + (tail === undefined ? 0 : tail.length);
    this.bytes -= (this.heads[i] as Chunk).length + (oldTail === undefined ? 0 : oldTail.length);
    this.holders?.retain(head);
    this.holders?.release(this.heads[i] as Chunk);
    this.heads[i] = head;
    this.tails[i] = tail;
    return true;
  }

  clear(): void {
    const holders = this.holders;
    if (holders !== undefined) for (let k = 0; k < this.count; k++) holders.release(this.heads[(this.start + k) & this.mask] as Chunk);
    this.heads.fill(undefined);
    this.tails.fill(undefined);
    this.startSeq += this.count;
    this.count = 0;
    this.bytes = 0;
    this.reset();
  }

  private grow(): void {
    const next = Math.min(this.heads.length * 2, nextPowerOfTwo(this.maxCapacity));
    const heads = new Array<Chunk | undefined>(next).fill(undefined);
    const tails = new Array<Uint8Array | undefined>(next).fill(undefined);
    for (let k = 0; k < this.count; k++) {
      const i = (this.start + k) & this.mask;
      heads[k] = this.heads[i];
      tails[k] = this.tails[i];
    }
    this.heads = heads;
    this.tails = tails;
    this.mask = next - 1;
    this.start = 0;
  }

  /** Called when empty: start again at index 0, and give back a large array. */
  private reset(): void {
    this.start = 0;
    if (this.heads.length > 1024) {
      this.heads = new Array<Chunk | undefined>(INITIAL_CAPACITY).fill(undefined);
      this.tails = new Array<Uint8Array | undefined>(INITIAL_CAPACITY).fill(undefined);
      this.mask = INITIAL_CAPACITY - 1;
    }
  }
}

function nextPowerOfTwo(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}
