import { performance } from 'node:perf_hooks';

/**
 * A reader of how busy the event loop was: each call gives the share of the time since the previous call (the
 * first since this was made) that the loop spent running callbacks, 0 to 1 (Node's event loop utilization).
 */
export function loopBusySincePrevious(): () => number {
  let previous = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, previous).utilization;
    previous = now;
    return share;
  };
}
