import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's optimizing compiler (TurboFan) off while the hub starts, and turns it on once the hub serves.
 *
 * TurboFan compiles on V8's helper thread into zone memory that it mallocs and frees job by job. During start-up
 * those blocks land in glibc's main arena between allocations that live on (modules, uWS, entity tables), and
 * the holes they leave cannot go back to the system: glibc returns only the top of its heap. With a thousand
 * entities that was 2 MB of free holes for the life of the process (`malloc_stats` through gdb, 0.4 s after the
 * start), and RSS 2 MB higher (bench/RESULTS.md). The same jobs after start-up find few long-lived allocations
 * around them: their blocks are freed at the top of the heap and returned. (Under load, a burst of compiles can
 * still leave holes: after a flood of state changes, malloc is about 1.5 MB higher than before it.)
 *
 * Start-up runs in V8's interpreter and baseline compiler meanwhile: the demo hub (ready in about 200 ms) and a
 * thousand entities (about 300 ms) start no slower, three thousand 60 ms slower. Ten thousand entities need the
 * optimizer: 2.0 s instead of 1.3 s held until ready, 1.9 s with the hold ended at MAX_HOLD_MS, past which a
 * start is large enough that its memory is not the point. Node flags that already set the optimizer (--jitless,
 * --no-opt and its spellings, --max-opt) are left alone: turning TurboFan on after them would undo what the
 * user asked for, and under --jitless it could not work at all.
 */
export function holdOptimizingCompiler(execArgv: readonly string[], nodeOptions: string | undefined, maxHoldMs = MAX_HOLD_MS): () => void {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  if (given.some((flag) => OPTIMIZER_FLAG.test(flag))) return () => {};
  setFlagsFromString('--no-turbofan');
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    clearTimeout(timer);
    setFlagsFromString('--turbofan');
  };
  const timer = setTimeout(release, maxHoldMs);
  timer.unref();
  return release;
}

const MAX_HOLD_MS = 500;

/** Node or V8 flags that decide about the optimizing compiler themselves (V8 accepts - or _ in its flags). */
const OPTIMIZER_FLAG = /^--(jitless|no[-_]opt|opt|no[-_]turbofan|turbofan|max[-_]opt)(=|$)/;
