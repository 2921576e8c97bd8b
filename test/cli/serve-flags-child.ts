/**
 * Child of serve-flags.test.ts, run with the unit's heap flags: sets serve's V8 flags as `hearth serve` does (which
 * loads Node's modules with those flags at their defaults meanwhile), then allocates short-lived objects. Prints what
 * the heap looks like after: the last line is JSON.
 */
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { setServeV8Flags } from '../../src/cli/serve-flags.js';

const limitBefore = getHeapStatistics().heap_size_limit;
setServeV8Flags(process.execArgv);
let keep: unknown[] = [];
for (let i = 0; i < 300_000; i++) {
  keep.push({ i, s: `x${i}` });
  if (keep.length > 5_000) keep = [];
}
const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(
  `${JSON.stringify({
    gc: typeof (globalThis as { gc?: unknown }).gc,
    limitBefore,
    limitAfter: getHeapStatistics().heap_size_limit,
    newSpaceBytes: newSpace?.space_size ?? -1,
    kept: keep.length,
  })}\n`,
);
