/** Retry delays after failures: the first, doubling up to the longest. */
export interface BackoffOptions {
  /** First retry delay after a failure. */
  readonly initialMs: number;
  /** Longest retry delay. */
  readonly maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 60_000 };

/** Exponential backoff: initial, 2x, 4x ... capped at max. */
export function backoffDelay(failures: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(options.maxMs, options.initialMs * 2 ** Math.max(0, failures - 1));
}

/**
 * The retry state of one thing that can fail again and again (a connection, a write): every retry delay in hearth
 * comes from here. `fail()` counts a failure and gives the wait before the next try; `succeed()` starts over.
 */
export class Backoff {
  private count = 0;

  constructor(readonly options: BackoffOptions = DEFAULT_BACKOFF) {}

  /** Failures since the last success. */
  get failures(): number {
    return this.count;
  }

  /** Counts a failure; returns how long to wait before the next try. */
  fail(): number {
    this.count++;
    return backoffDelay(this.count, this.options);
  }

  /** The wait the next failure will get: for a client that arms its retry timer before it reports the failure (mqtt.js). */
  get nextDelay(): number {
    return backoffDelay(this.count + 1, this.options);
  }

  succeed(): void {
    this.count = 0;
  }
}
