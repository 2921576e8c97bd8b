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
