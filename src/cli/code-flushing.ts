import { setV8FlagsUnlessGiven } from './v8-flags.js';

/**
 * Lets V8 give back the compiled code of functions the hub no longer runs once they have gone unused through
 * two full collections rather than six, their baseline (Sparkplug) code as well as their bytecode.
 *
 * Much of a hub's code runs once: reading the configuration, setting up components, creating entities. By
 * default V8 keeps a function's bytecode until it has gone unused through six full collections, and its
 * baseline code for good. An idle hub has few full collections of V8's own (those its heap trim starts with
 * gc() flushed no code when tried), so that code stayed in the heap for minutes, and the baseline part for the
 * life of the process. What the hub runs all the time is never flushed; a function flushed and called again is
 * compiled again from its source when called, as at start-up.
 *
 * Measured (bench/RESULTS.md, 1,000 entities and 100 WebSocket clients): settled, 0.9-1.5 MB less anonymous
 * memory; a minute after a flood of state changes, 63.1-63.7 MB instead of 64.5-65.0. REST throughput and
 * start-up times did not change.
 *
 * Set at run time (v8-flags.ts says why); flags about code flushing given on node's command line are left as
 * the user set them.
 */
export function flushIdleCode(execArgv: readonly string[]): boolean {
  return setV8FlagsUnlessGiven(execArgv, FLUSH_FLAG, FLAGS);
}

const FLAGS = ['--bytecode-old-age=1', '--flush-baseline-code'];

/** V8 flags that decide about code flushing themselves (V8 accepts - or _ in its flags). */
const FLUSH_FLAG = /^--(bytecode[-_]old[-_]age|(no[-_])?flush[-_]bytecode|(no[-_])?flush[-_]baseline[-_]code|stress[-_]flush[-_]code)(=|$)/;
