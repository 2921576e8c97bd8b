import { setFlagsFromString } from 'node:v8';
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

/**
 * The flags serve keeps for good (the optimizer's hold is serve's own: start-up-compiler.ts). Node's own modules the
 * hub uses are loaded first (loadNodeModules).
 */
export function setServeV8Flags(execArgv: readonly string[]): void {
  loadNodeModules(execArgv);
  // Code the hub has stopped running (its start-up) is given back after two full collections.
  flushIdleCode(execArgv);
  // Short-lived states under a burst die young instead of being allocated old.
  stopPretenuring(execArgv);
}

/**
 * Node's own modules a hub loads before it serves. Node compiles each from the code cache built into it, which V8
 * takes only under the flags it was made with (it checks a hash of all of them): once a V8 flag differs from its
 * default, every one of Node's modules loaded after is compiled from its source, about three times the work (some
 * 90 modules in a demo start: bench/RESULTS.md, Startup). So they are loaded before hearth sets its flags, and with
 * the heap's flags of node's command line (HEAP_FLAGS, the unit's) at their defaults meanwhile. A module missing here
 * costs only that time; one the hub does not use (with its configuration) costs its loading.
 */
const NODE_MODULES = [
  'node:crypto',
  'node:fs/promises',
  'node:stream',
  'node:zlib',
  'node:net',
  'node:os',
  'node:vm',
  'node:module',
  'node:v8',
  'node:perf_hooks',
  'node:diagnostics_channel',
  'node:assert',
  'node:worker_threads',
  'node:util',
  'node:process',
] as const;

/**
 * V8 flags that size the heap or give the script gc(), each with its default: V8 reads them when it makes the heap and
 * the context, long done when hearth runs, so setting them afterwards changes nothing but the hash
 * (test/cli/serve-flags.test.ts: the heap keeps the sizes and gc() the unit asked for). Only the `--flag=value` and
 * bare forms are recognised; any other spelling leaves them as given (and Node's modules compiled from source).
 */
const HEAP_FLAGS: readonly (readonly [RegExp, string])[] = [
  [/^--max[-_]semi[-_]space[-_]size=\d+$/, '--max-semi-space-size=0'],
  [/^--max[-_]old[-_]space[-_]size=\d+$/, '--max-old-space-size=0'],
  [/^--expose[-_]gc$/, '--no-expose-gc'],
];

let nodeModulesLoaded = false;

function loadNodeModules(execArgv: readonly string[]): void {
  if (nodeModulesLoaded) return;
  nodeModulesLoaded = true;
  const given = [...execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  const heap = given.flatMap((arg) => HEAP_FLAGS.filter(([flag]) => flag.test(arg)).map(([, reset]) => [arg, reset] as const));
  for (const [, reset] of heap) setFlagsFromString(reset);
  try {
    for (const id of NODE_MODULES) process.getBuiltinModule(id);
    // Loaded on first use (by the command line's parsing).
    void process.getBuiltinModule('node:util').parseArgs;
    // What systemd's notifications are sent with (systemd-notify.ts), from the first watchdog ping on.
    if (process.env.NOTIFY_SOCKET) process.getBuiltinModule('node:child_process');
  } finally {
    for (const [arg] of heap) setFlagsFromString(arg);
  }
}
