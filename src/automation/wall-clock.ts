import type { Micros } from '../core/clock.js';
import type { TimerSet } from './timer-set.js';
import type { TriggerEnv } from './trigger-info.js';

/**
 * A wall-clock target is re-checked at least this often, so a clock corrected by NTP (a Pi without an
 * RTC boots with a wrong one) moves the trigger with it.
 */
const RECHECK_MS = 60_000;
/** A timer that wakes within this much of its target counts as on time. */
const ON_TIME_US = 1_000_000;
/** When `next` finds nothing (a sun event near a pole), it asks again an hour later. */
const RETRY_MS = 3_600_000;

/**
 * Calls `fire` at each instant `next` gives, on the hub's clock: the time, time_pattern and sun triggers.
 * The next target is counted from the last one, so a clock that stands still cannot fire twice.
 */
export function scheduleWallClock(
  env: TriggerEnv,
  timers: TimerSet,
  next: (afterUs: Micros) => Micros | undefined,
  fire: () => void,
): void {
  const { clock } = env.core;
  const armNext = (afterUs: Micros): void => {
    const target = next(afterUs);
    if (target !== undefined) arm(target);
    else timers.after(RETRY_MS, () => armNext(Math.max(afterUs, clock.now())));
  };
  const arm = (target: Micros): void => {
    const remainingMs = Math.max(0, (target - clock.now()) / 1000);
    const final = remainingMs <= RECHECK_MS;
    timers.after(final ? remainingMs : RECHECK_MS, () => {
      const now = clock.now();
      if (!final || target - now > ON_TIME_US) {
        arm(target);
        return;
      }
      fire();
      armNext(Math.max(target, now));
    });
  };
  armNext(clock.now());
}
