import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import type { Component } from '../core/component.js';
import type { Logger } from '../core/log.js';
import { loopBusySincePrevious } from '../util/loop-busy.js';
import { type Scheduler, timersScheduler } from '../util/scheduler.js';

/**
 * Gives the JS heap back after a burst. V8 grows its old generation in steps of at least 8 MB and frees the
 * pages only after a full collection; the memory reducer that would do that on an idle process only starts
 * once committed memory has grown by 10 MB since its last run. So a flood of state changes to a hundred
 * dashboards left a Pi hub some 8-10 MB larger for good (bench/RESULTS.md, the flood). When the committed heap
 * has grown by GROWTH_BYTES over its floor, stopped growing, and the event loop has been quiet for a check, one
 * compacting full collection gives the empty pages back; at most one per MIN_GAP_CHECKS checks, never in the middle
 * of a burst, and only when its pause, estimated from the last one's, stays within the project's 50 ms for holding the
 * loop: a collection of the whole heap in one pause takes about 2.5 ms per MB of it on a PC (47 ms for a
 * 1,000-entity hub's 17 MB, 91 to 133 ms for a Matter bridge's 33 to 43 MB), a few times that on a Pi. A larger heap
 * is left to V8, whose own full collections mark incrementally, in steps of a few ms.
 *
 * Needs Node's --expose-gc (the systemd unit and `make run` pass it); without it, this does nothing and the
 * heap is left to V8.
 */

const MB = 1024 * 1024;
const CHECK_MS = 5000;
/**
 * 1 MB rather than 2: an idle 1,000-entity hub grows by about that in 30 s (its sensors' reports, the recorder's
 * commit), so a trim comes about every 30 s instead of every minute, and the idle RSS a minute after a flood went
 * from 70-72 to 67 MB (bench/RESULTS.md). Each one is a full collection of the live heap (10-15 ms on a PC).
 */
const GROWTH_BYTES = 1 * MB;
/** Share of a check's 5 s the event loop may have been busy for it to count as quiet. */
const QUIET_LOOP = 0.25;
/** At most one collection every 30 s. */
const MIN_GAP_CHECKS = 6;
/** The longest a collection here may hold the event loop (the project's rule for any one task). */
const PAUSE_BUDGET_MS = 50;
/**
 * A compacting full collection's pause per MB of committed heap until one has been timed here: on the bench machine
 * (2 cores, shared) 1.9 to 3.4 ms, the most for a Matter bridge's heap (`--expose-gc` timed from a preload:
 * docs/performance.md, "Matter state-change latency").
 */
const INITIAL_MS_PER_MB = 2.5;
/**
 * Each trim passed over brings an estimate above the initial one this much closer to it: a collection timed while
 * the machine was busy with something else does not switch trims off for good.
 */
const ESTIMATE_DECAY = 0.9;

export interface HeapTrimOptions {
  readonly log: Logger;
  /** A full collection: `globalThis.gc` when Node runs with --expose-gc; undefined leaves the heap to V8. */
  readonly gc: (() => void) | undefined;
  /** The committed JS heap, in bytes. */
  readonly heapBytes?: () => number;
  /** The share of the time since the previous call that the event loop was busy, 0 to 1. */
  readonly loopBusy?: () => number;
  readonly scheduler?: Scheduler;
  /** Milliseconds, for timing a collection (performance.now). */
  readonly now?: () => number;
  /** The pause per MB of committed heap to expect until a collection has been timed (INITIAL_MS_PER_MB). */
  readonly pauseMsPerMb?: number;
}

/**
 * A full collection that also compacts, through `gc` as --expose-gc defines it; undefined without that flag.
 * V8 compacts only the pages its heuristics pick, and after a flood that left most of the freed pages in
 * place (22.4 -> 21.4 MB); compacting every page gives them back (22.4 -> 17.7 MB). The flag is set for this
 * one collection only: V8 reads it when a collection starts, and its own collections keep their usual cost.
 */
export function exposedGc(): (() => void) | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  if (typeof gc !== 'function') return undefined;
  return () => {
    setFlagsFromString('--compact-on-every-full-gc');
    try {
      gc();
    } finally {
      setFlagsFromString('--no-compact-on-every-full-gc');
    }
  };
}

function committedHeap(): number {
  return getHeapStatistics().total_heap_size;
}

export class HeapTrim implements Component {
  readonly name = 'heap_trim';
  readonly optional = true;
  private readonly heapBytes: () => number;
  private readonly loopBusy: () => number;
  private readonly scheduler: Scheduler;
  /** The committed heap after the last collection here, or the least seen since (V8's own collections). */
  private floor = Number.POSITIVE_INFINITY;
  private checksSinceTrim = MIN_GAP_CHECKS;
  /** The previous check's reading. */
  private previous = Number.POSITIVE_INFINITY;
  private timer: unknown;
  private running = false;
  private readonly now: () => number;
  private readonly initialMsPerMb: number;
  /** The last collection's pause per MB of the heap it collected (the initial estimate before one). */
  private msPerMb: number;

  constructor(private readonly options: HeapTrimOptions) {
    this.now = options.now ?? (() => performance.now());
    this.initialMsPerMb = options.pauseMsPerMb ?? INITIAL_MS_PER_MB;
    this.msPerMb = this.initialMsPerMb;
    this.heapBytes = options.heapBytes ?? committedHeap;
    this.loopBusy = options.loopBusy ?? loopBusySincePrevious();
    this.scheduler = options.scheduler ?? timersScheduler((err) => options.log.error({ err }, 'heap trim check failed'));
  }

  async start(): Promise<void> {
    if (this.options.gc === undefined) {
      this.options.log.debug('node runs without --expose-gc: the heap is left to V8 after bursts');
      return;
    }
    this.running = true;
    this.loopBusy();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.scheduler.clear(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = this.scheduler.timeout(() => {
      try {
        this.check();
      } finally {
        this.schedule();
      }
    }, CHECK_MS);
  }

  private check(): void {
    const gc = this.options.gc;
    const busy = this.loopBusy();
    const heap = this.heapBytes();
    // A heap still growing is a burst still going on (a flood at 1,000 changes/s keeps a PC's loop only 20 %
    // busy): collecting then would take its live data for the floor. A heap that stopped growing is idle garbage.
    const settled = heap <= this.previous;
    this.previous = heap;
    if (heap < this.floor) this.floor = heap;
    this.checksSinceTrim++;
    if (gc === undefined || !settled || busy > QUIET_LOOP || heap < this.floor + GROWTH_BYTES || this.checksSinceTrim < MIN_GAP_CHECKS)
      return;
    const estimateMs = (this.msPerMb * heap) / MB;
    if (estimateMs > PAUSE_BUDGET_MS) {
      // Left to V8; looked at again in 30 s, with an estimate a little nearer the initial one.
      if (this.msPerMb > this.initialMsPerMb) this.msPerMb = Math.max(this.initialMsPerMb, this.msPerMb * ESTIMATE_DECAY);
      this.checksSinceTrim = 0;
      this.options.log.debug(
        { heapMb: Math.round(heap / MB), estimateMs: Math.round(estimateMs) },
        'heap left to V8: collecting it would hold the loop too long',
      );
      return;
    }
    const t0 = this.now();
    gc();
    const ms = this.now() - t0;
    this.msPerMb = (ms * MB) / heap;
    this.floor = this.heapBytes();
    this.previous = this.floor;
    this.checksSinceTrim = 0;
    this.options.log.debug(
      { heapMb: Math.round(heap / MB), afterMb: Math.round(this.floor / MB), ms: Math.round(ms) },
      'heap given back after a burst',
    );
  }
}
