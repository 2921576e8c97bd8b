import { EventLog } from './event-log.js';
import { FrameBuilder } from './frame-builder.js';
import { HeadSlab } from './head-slab.js';
import { DEFAULT_WS_LIMITS, type WsLimits } from './limits.js';
import { type Chunk, MessageRing } from './queue.js';

/**
 * Bytes one flush hands a socket inside its cork: uWS's cork buffer is 16 KB (LoopData::CORK_BUFFER_SIZE),
 * less room for the frames' headers.
 */
export const CORK_BYTES = 15 * 1024;

/** The part of a uWS WebSocket the outbox drives (a fake one in unit tests). */
export interface FrameSink {
  /** uWS: 1 sent, 0 sent but buffered (backpressure), 2 dropped. */
  send(message: Chunk, isBinary?: boolean): number;
  getBufferedAmount(): number;
  cork(cb: () => void): unknown;
}

/** Why a client was dropped for being slow; the text follows Home Assistant's log lines. */
export interface SlowConsumer {
  readonly reason: string;
  readonly pending: number;
  readonly pendingBytes: number;
}

export interface OutboxHooks {
  /** The client cannot keep up; the connection must close (the outbox accepts nothing more). */
  onSlowConsumer(info: SlowConsumer): void;
  /** Everything waiting went out: what points into the queue (collapsible diffs) is stale now. */
  onDrained(): void;
}

/**
 * Runs due flushes for every outbox that has something to send: on the next turn of the event loop, but
 * no sooner than `minIntervalMs` after the previous run. A lone event goes out at once; a steady stream is
 * sent in batches, so a client costs one write (and with coalescing one frame) per interval rather than
 * one per event. It also holds the one FrameBuilder all outboxes share, the slab their shared heads are in, and the
 * log of the events they share.
 */
export class FlushScheduler {
  readonly frames = new FrameBuilder();
  readonly heads = new HeadSlab();
  /** The events every subscriber's queue shares (as long as the slowest may fall behind before it is dropped). */
  readonly log: EventLog;
  private due: Outbox[] = [];
  private spare: Outbox[] = [];
  private armed = false;
  private immediate: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastRun = Number.NEGATIVE_INFINITY;
  private readonly run = (): void => {
    this.armed = false;
    this.immediate = undefined;
    this.timer = undefined;
    this.lastRun = performance.now();
    const due = this.due;
    this.due = this.spare;
    this.spare = due;
    for (let i = 0; i < due.length; i++) (due[i] as Outbox).flush();
    due.length = 0;
  };

  constructor(
    private readonly minIntervalMs = 0,
    maxPending = DEFAULT_WS_LIMITS.maxPending,
  ) {
    this.log = new EventLog(maxPending, this.heads);
  }

  schedule(outbox: Outbox): void {
    this.due.push(outbox);
    if (this.armed) return;
    this.armed = true;
    const wait = this.lastRun + this.minIntervalMs - performance.now();
    if (wait <= 0) this.immediate = setImmediate(this.run);
    else this.timer = setTimeout(this.run, wait);
  }

  stop(): void {
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.immediate = undefined;
    this.timer = undefined;
    this.armed = false;
    this.due.length = 0;
  }
}

/**
 * One connection's outbound side: a bounded queue in front of uWS, flushed once per tick inside a cork.
 *
 * Frames go to uWS only while its backpressure buffer is under `sendHighWater`; after that they wait here
 * until uWS reports `drain`. So a slow reader costs at most the high-water mark in native memory, and the
 * rest is bounded by message count and bytes. Like Home Assistant, a queue that stays at `pendingPeak` or
 * more for `pendingPeakMs`, or reaches `maxPending` (or `maxPendingBytes`), drops the client.
 */
export class Outbox {
  /** Send several waiting messages as one JSON array frame (the client enabled `coalesce_messages`). */
  coalesce = false;
  private readonly ring: MessageRing;
  private scheduled = false;
  private closed = false;
  private peakTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: FrameSink,
    private readonly limits: WsLimits,
    private readonly scheduler: FlushScheduler,
    private readonly hooks: OutboxHooks,
  ) {
    this.ring = new MessageRing(limits.maxPending, scheduler.heads, scheduler.log);
  }

  get pending(): number {
    return this.ring.length;
  }

  get pendingBytes(): number {
    return this.ring.byteLength;
  }

  /**
   * Queues a message, given whole or as a shared head and this client's tail. Returns its sequence
   * number, or -1 when the outbox is closed or the client was dropped.
   */
  push(head: Chunk, tail?: Uint8Array): number {
    if (this.closed) return -1;
    const ring = this.ring;
    if (ring.length >= this.limits.maxPending) {
      this.drop(`Client unable to keep up with pending messages. Reached ${this.limits.maxPending} pending messages`);
      return -1;
    }
    const size = head.length + (tail === undefined ? 0 : tail.length);
    if (ring.length > 0 && ring.byteLength + size > this.limits.maxPendingBytes) {
      this.drop(`Client unable to keep up with pending messages. Reached ${this.limits.maxPendingBytes} pending bytes`);
      return -1;
    }
    const seq = ring.push(head, tail);
    if (ring.length >= this.limits.pendingPeak && this.peakTimer === undefined) this.startPeakTimer();
    if (!this.scheduled) {
      this.scheduled = true;
      this.scheduler.schedule(this);
    }
    return seq;
  }

  isWaiting(seq: number): boolean {
    return this.ring.isWaiting(seq);
  }

  /** Replaces a message that has not gone out yet; false when it has. */
  replace(seq: number, head: Chunk, tail?: Uint8Array): boolean {
    return !this.closed && this.ring.replace(seq, head, tail);
  }

  /** uWS drained some of its buffer: carry on if it is under the high-water mark again. */
  onDrain(): void {
    if (!this.scheduled && this.ring.length > 0) this.flush();
  }

  /** Stops everything: nothing more is accepted or sent, and the queue is freed. */
  close(): void {
    this.closed = true;
    this.clearPeakTimer();
    this.ring.clear();
  }

  /** Hands waiting frames to uWS, up to the high-water mark. */
  flush(): void {
    this.scheduled = false;
    if (this.closed || this.ring.length === 0) return;
    // Anything beyond the high-water mark waits for `drain`, which calls flush again.
    if (this.sink.getBufferedAmount() >= this.limits.sendHighWater) return;
    this.sink.cork(this.writeFrames);
    if (this.closed) return;
    if (this.ring.length < this.limits.pendingPeak) this.clearPeakTimer();
    if (this.ring.length === 0) this.hooks.onDrained();
  }

  private readonly writeFrames = (): void => {
    const ring = this.ring;
    const frames = this.scheduler.frames;
    const { sendHighWater, maxFrameMessages, maxFrameBytes } = this.limits;
    let corked = 0;
    while (ring.length > 0 && !this.closed) {
      // What does not fit uWS's cork buffer is copied into a malloc'd buffer of the socket's own: under a
      // flood, a hundred of those left glibc's heap fragmented and grown for good. So a backlog of small
      // messages leaves in cork-sized turns, the rest on the next turn of the loop. A message larger than
      // the cork buffer takes that path anyway and goes at once, as before.
      const size = ring.firstSize();
      if (corked > 0 && corked + size > CORK_BYTES && size <= CORK_BYTES) {
        this.scheduled = true;
        this.scheduler.schedule(this);
        return;
      }
      const head = ring.firstHead() as Chunk;
      const tail = ring.firstTail();
      let status: number;
      if (this.coalesce && ring.length > 1 && ring.firstSize() < maxFrameBytes) {
        // Home Assistant's coalesced form: a JSON array of the waiting messages in one frame. A message
        // that would push the frame past maxFrameBytes waits for the next frame.
        frames.reset();
        frames.open();
        frames.append(head, tail);
        ring.shift();
        let n = 1;
        while (n < maxFrameMessages && ring.length > 0 && frames.length + ring.firstSize() < maxFrameBytes) {
          frames.comma();
          frames.append(ring.firstHead() as Chunk, ring.firstTail());
          ring.shift();
          n++;
        }
        frames.close();
        corked += frames.length;
        status = this.sink.send(frames.view(), false);
      } else if (tail === undefined) {
        corked += size;
        ring.shift();
        status = this.sink.send(head, false);
      } else {
        frames.reset();
        frames.append(head, tail);
        ring.shift();
        corked += frames.length;
        status = this.sink.send(frames.view(), false);
      }
      // isBinary is false throughout: every message is JSON text. 2 = dropped: closeOnBackpressureLimit is
      // closing the socket.
      if (status === 2) return;
      if (this.sink.getBufferedAmount() >= sendHighWater) return;
    }
  };

  private drop(reason: string): void {
    const info: SlowConsumer = { reason, pending: this.ring.length, pendingBytes: this.ring.byteLength };
    this.close();
    this.hooks.onSlowConsumer(info);
  }

  private startPeakTimer(): void {
    const { pendingPeak, pendingPeakMs } = this.limits;
    this.peakTimer = setTimeout(() => {
      this.peakTimer = undefined;
      if (this.closed || this.ring.length < pendingPeak) return;
      this.drop(`Client unable to keep up with pending messages. Stayed over ${pendingPeak} for ${pendingPeakMs / 1000} seconds`);
    }, pendingPeakMs);
    // A slow client must not keep the process alive on its own.
    this.peakTimer.unref();
  }

  private clearPeakTimer(): void {
    if (this.peakTimer !== undefined) clearTimeout(this.peakTimer);
    this.peakTimer = undefined;
  }
}
