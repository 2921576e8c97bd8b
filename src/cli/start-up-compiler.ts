import { setFlagsFromString } from 'node:v8';
import { loopBusySincePrevious } from '../util/loop-busy.js';

/**
 * Keeps V8's optimizing compiler (TurboFan) off while the hub starts, and turns it on once the hub serves and its
 * loop has gone quiet.
 *
 * TurboFan compiles on V8's helper thread into zone memory that it mallocs and frees job by job. During start-up
 * those blocks land in glibc's main arena between allocations that live on (modules, uWS, entity tables), and
 * the holes they leave cannot go back to the system: glibc returns only the top of its heap. With a thousand
 * entities that was 2 MB of free holes for the life of the process (`malloc_stats` through gdb, 0.4 s after the
 * start), and RSS 2 MB higher (bench/RESULTS.md). The same jobs after start-up find few long-lived allocations
 * around them: their blocks are freed at the top of the heap and returned. (The systemd unit has glibc map blocks
 * of 8 KB and more on their own, which takes the compiler's larger segments out of the heap; its smaller
 * allocations still left some 1.5 MB more anonymous memory without the hold.)
 *
 * The hold lasts through the first work components do once the hub serves (the MQTT announce of every entity
 * left the same holes when it came right after an early release: +6.1 MB over a hub without mqtt instead of
 * +4.4), so it ends when the serving hub's loop is first quiet, or MAX_HOLD_MS after the start at the latest.
 *
 * Start-up runs in V8's interpreter and baseline compiler meanwhile: the demo hub (ready in about 200 ms) and a
 * thousand entities (about 300 ms) start no slower, three thousand 75 ms slower (670 ms). Ten thousand entities
 * need the optimizer: 2.0 s instead of 1.3 s, a start large enough that its memory is not the point. Node flags
 * that already set the optimizer (--jitless, --no-opt and its spellings, --max-opt) are left alone: turning
 * TurboFan on after them would undo what the user asked for, and under --jitless it could not work at all.
 */
export function holdOptimizingCompiler(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  maxHoldMs = MAX_HOLD_MS,
  beforeRelease: () => void = () => {},
): CompilerHold {
  if (!turnOptimizerOff(execArgv, nodeOptions)) return { serving: () => {}, released: Promise.resolve() };
  let held = true;
  let watch: NodeJS.Timeout | undefined;
  let resolveReleased = (): void => {};
  const released = new Promise<void>((resolve) => {
    resolveReleased = resolve;
  });
  const release = (): void => {
    if (!held) return;
    held = false;
    clearTimeout(deadline);
    clearInterval(watch);
    beforeRelease();
    setFlagsFromString('--turbofan');
    resolveReleased();
  };
  const deadline = setTimeout(release, maxHoldMs);
  deadline.unref();
  // Serving: the start-up burst ends once the loop is quiet for a check (a component's first work, such as the
  // MQTT announce of every entity, runs right after the hub serves and leaves the same holes).
  const serving = (): void => {
    if (!held || watch !== undefined) return;
    const loopBusy = loopBusySincePrevious();
    watch = setInterval(() => {
      if (loopBusy() < QUIET_LOOP) release();
    }, CHECK_MS);
    watch.unref();
  };
  return { serving, released };
}

/**
 * Turns TurboFan off unless node's flags already decide about the optimizer; whether it did. The built hub's launcher
 * calls it too, before it compiles the hub (src/cli/serve-flags.ts).
 */
export function turnOptimizerOff(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  if (given.some((flag) => OPTIMIZER_FLAG.test(flag))) return false;
  setFlagsFromString('--no-turbofan');
  return true;
}

export interface CompilerHold {
  /** The hub serves: the hold ends once its loop has been quiet for a check. */
  serving(): void;
  /** Resolves when the optimizer is on again (at once when Node's flags already decided about it). */
  readonly released: Promise<void>;
}

/** The hold ends here at the latest, counted from the start. */
const MAX_HOLD_MS = 1000;
/** How often a serving hub's loop is looked at, and the share of that time it may be busy to count as quiet. */
const CHECK_MS = 50;
const QUIET_LOOP = 0.25;

/** Node or V8 flags that decide about the optimizing compiler themselves (V8 accepts - or _ in its flags). */
const OPTIMIZER_FLAG = /^--(jitless|no[-_]opt|opt|no[-_]turbofan|turbofan|max[-_]opt)(=|$)/;
