import type { Scheduler } from '../util/scheduler.js';

/** A timer of a TimerSet (a Node timeout, or a Scheduler's handle). */
export type TimerHandle = unknown;

/** Node's own timers, for a TimerSet without a Scheduler. */
const NODE_TIMERS: Pick<Scheduler, 'timeout' | 'clear'> = {
  timeout: (fn, ms) => setTimeout(fn, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout | undefined),
};

/**
 * Timeouts owned by one trigger attachment or run, cleared together, so nothing fires after its owner
 * stopped. A callback that throws is reported, never allowed to escape into the event loop. With a
 * Scheduler (the hub's; a manual one in tests) they run on the hub's clock.
 */
export class TimerSet {
  private readonly active = new Set<TimerHandle>();
  private closed = false;
  private readonly timers: Pick<Scheduler, 'timeout' | 'clear'>;

  constructor(
    private readonly onError: (err: unknown) => void,
    scheduler?: Scheduler,
  ) {
    this.timers = scheduler ?? NODE_TIMERS;
  }

  after(ms: number, fn: () => void): TimerHandle {
    if (this.closed) return undefined;
    const t = this.timers.timeout(() => {
      this.active.delete(t);
      try {
        fn();
      } catch (err) {
        this.onError(err);
      }
    }, ms);
    this.active.add(t);
    return t;
  }

  cancel(t: TimerHandle): void {
    if (t === undefined) return;
    this.timers.clear(t);
    this.active.delete(t);
  }

  /** Clears every timer; later calls to after() do nothing. */
  close(): void {
    this.closed = true;
    for (const t of this.active) this.timers.clear(t);
    this.active.clear();
  }
}

/** A one-off timeout on the Scheduler when there is one, else Node's; returns its cancel. */
export function timeoutOn(scheduler: Scheduler | undefined, ms: number, fn: () => void): () => void {
  const timers = scheduler ?? NODE_TIMERS;
  const handle = timers.timeout(fn, ms);
  return () => timers.clear(handle);
}
