import { flushIdleCode } from './code-flushing.js';
import { stopPretenuring } from './pretenuring.js';
import { turnOptimizerOff } from './start-up-compiler.js';

/**
 * The V8 flags `hearth serve` runs with for good (code-flushing.ts, pretenuring.ts say why each), unless node's
 * command line chose otherwise. Set by serve itself, and in the built hub also by its launcher (launch.ts) before it
 * compiles the hub, with the start-up's hold on the optimizer (start-up-compiler.ts): V8 accepts a code cache only
 * under the flags it was made with, and the cache is made while all of these are set (code-cache.ts).
 */
export function setLaunchV8Flags(execArgv: readonly string[], nodeOptions: string | undefined): void {
  setServeV8Flags(execArgv);
  turnOptimizerOff(execArgv, nodeOptions);
}

/** The flags serve keeps for good (the optimizer's hold is serve's own: start-up-compiler.ts). */
export function setServeV8Flags(execArgv: readonly string[]): void {
  // Code the hub has stopped running (its start-up) is given back after two full collections.
  flushIdleCode(execArgv);
  // Short-lived states under a burst die young instead of being allocated old.
  stopPretenuring(execArgv);
}
