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
