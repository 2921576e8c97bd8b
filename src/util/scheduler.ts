import { Timers } from './timers.js';

/**
 * Timers that run on the hub's clock (helpers' timers; the Zigbee driver's reconnect backoff, availability checks
 * and daily backup). The hub passes `timersScheduler`; tests pass a manual one that fires due callbacks when they
 * move a ManualClock, so no test sleeps.
 */
export interface Scheduler {
  timeout(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  /** Clears every timer; later calls to `timeout` do nothing. */
  stopAll(): void;
}

export function timersScheduler(onError: (err: unknown) => void): Scheduler {
  const timers = new Timers(onError);
  return {
    timeout: (fn, ms) => timers.timeout(fn, ms),
    clear: (handle) => timers.clear(handle as NodeJS.Timeout | undefined),
    stopAll: () => timers.stopAll(),
  };
}

/**
 * A view of `parent` for one part of the hub: its `stopAll` clears only the timers set through it (and stops it
 * setting more), so a part that stops, or is started again after a failure, never clears another part's timers.
 */
export function scopedScheduler(parent: Scheduler): Scheduler {
  const live = new Set<unknown>();
  let stopped = false;
  return {
    timeout(fn, ms) {
      if (stopped) return undefined;
      const handle = parent.timeout(() => {
        live.delete(handle);
        fn();
      }, ms);
      if (handle !== undefined) live.add(handle);
      return handle;
    },
    clear(handle) {
      live.delete(handle);
      parent.clear(handle);
    },
    stopAll() {
      stopped = true;
      for (const handle of live) parent.clear(handle);
      live.clear();
    },
  };
}
