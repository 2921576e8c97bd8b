/**
 * Child of start-up-compiler.test.ts, run with --allow-natives-syntax: holds the optimizing compiler as
 * `hearth serve` does, makes one function hot, and prints whether V8 optimized it while held and after.
 * argv[2]: `serving` (told that the hub serves, as serve does when ready) or `deadline` (never told: the hold's
 * own deadline ends it).
 */
import { holdOptimizingCompiler } from '../../src/cli/start-up-compiler.js';

// The natives syntax only parses with --allow-natives-syntax, so it is compiled here rather than written out.
const optimizationStatus = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
/** V8's OptimizationStatus::kOptimized. */
const OPTIMIZED = 16;
/** Batches of 1,000 calls: unheld, V8 optimizes this function within two or three of them. */
const BATCHES = 300;

function hot(x: number): number {
  let sum = 0;
  for (let i = 0; i < 100; i++) sum += x * i;
  return sum;
}

/** Calls `hot` batch after batch (yielding to the loop between them, where concurrent compiles finish). */
async function optimizedWithin(batches: number): Promise<boolean> {
  for (let b = 0; b < batches; b++) {
    for (let i = 0; i < 1000; i++) hot(i);
    if ((optimizationStatus(hot) & OPTIMIZED) !== 0) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

const mode = process.argv[2];
const hold = holdOptimizingCompiler(process.execArgv, process.env.NODE_OPTIONS, mode === 'deadline' ? 100 : 60_000);
// With the deadline, what happens before it is timing: only what comes after is looked at.
const held = mode === 'deadline' ? false : await optimizedWithin(BATCHES);
// Serving: the hold ends once the loop is quiet, which it is while this waits.
if (mode === 'serving') hold.serving();
// The hold's timers do not keep a process alive (a hub's own work does): this wait does.
const alive = setInterval(() => {}, 1000);
await hold.released;
clearInterval(alive);
const after = await optimizedWithin(BATCHES);
process.stdout.write(`${JSON.stringify({ held, after })}\n`);
