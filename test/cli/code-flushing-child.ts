/**
 * Child of code-flushing.test.ts, run with --allow-natives-syntax: sets the flags as `hearth serve` does, runs
 * two functions once (one of them compiled to baseline code), lets V8 run three full collections of its own,
 * and prints whether each function's code was given back (the function is lazy again, as before its first call).
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { flushIdleCode } from '../../src/cli/code-flushing.js';

// The natives syntax only parses with --allow-natives-syntax, so it is compiled here rather than written out.
const optimizationStatus = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
const compileBaseline = new Function('f', 'return %CompileBaseline(f)') as (f: unknown) => void;
/** V8's OptimizationStatus::kIsLazy: the function has no code (never compiled, or flushed). */
const LAZY = 1 << 18;
/** V8's OptimizationStatus::kBaseline. */
const BASELINE = 1 << 15;
/** Three full collections: past the two after which hearth's flags flush, short of V8's default six. */
const MAJORS = 3;
/** Allocation rounds, each some 10 MB of objects that live into the old generation: a bound, never reached. */
const MAX_ROUNDS = 2000;

function interpreted(x: number): number {
  return x * 2 + 1;
}
function baseline(x: number): number {
  return x * 3 + 1;
}

const set = flushIdleCode(process.execArgv);
interpreted(1);
baseline(1);
compileBaseline(baseline);
const compiled = (optimizationStatus(interpreted) & LAZY) === 0 && (optimizationStatus(baseline) & BASELINE) !== 0;

/** A gc entry: Node puts the collection's kind in `detail`, which the PerformanceEntry type does not declare. */
type GcEntry = PerformanceEntry & { readonly detail: { readonly kind: number } };

// V8's own full collections, not gc(): a dozen gc() calls flushed nothing when tried.
let majors = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries() as GcEntry[]) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
});
observer.observe({ entryTypes: ['gc'] });
const live: object[][] = [];
for (let round = 0; majors < MAJORS && round < MAX_ROUNDS; round++) {
  live.push(Array.from({ length: 100_000 }, (_, i) => ({ i })));
  if (live.length > 2) live.shift();
  // The observer reports between turns of the loop.
  await new Promise((resolve) => setImmediate(resolve));
}
observer.disconnect();
const flushed = (f: unknown): boolean => (optimizationStatus(f) & LAZY) !== 0;
process.stdout.write(`${JSON.stringify({ set, compiled, majors, interpreted: flushed(interpreted), baseline: flushed(baseline) })}\n`);
