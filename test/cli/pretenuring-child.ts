/**
 * Child of pretenuring.test.ts: stops pretenuring as `hearth serve` does, then allocates objects that each live
 * through one young collection and die before the next (a ring of recent ones, as a burst keeps each entity's latest
 * state), the pattern V8 pretenured the hub's states for. V8 traces every pretenuring decision it takes from then on
 * to stdout (--trace-pretenuring, set here: a decision on a site of the loader, taken while tsx and node load this
 * file under a busy machine, is not this test's); the last line is this child's JSON.
 */
import { setFlagsFromString } from 'node:v8';
import { stopPretenuring } from '../../src/cli/pretenuring.js';

/** Objects kept alive at a time: fewer than one young generation of 1 MB holds, more than 85 % of one's worth. */
const RING = 20_000;
const ALLOCATIONS = 2_000_000;

interface Reading {
  readonly at: number;
  readonly nested: { readonly at: number };
  readonly pair: readonly number[];
}

// A literal with nested literals: V8 tracks allocation sites (and so can pretenure) for these.
function reading(i: number): Reading {
  return { at: i, nested: { at: i }, pair: [i, i] };
}

const set = stopPretenuring(process.execArgv);
setFlagsFromString('--trace-pretenuring');
setFlagsFromString('--trace-pretenuring-statistics');
const ring = new Array<Reading | undefined>(RING).fill(undefined);
for (let i = 0; i < ALLOCATIONS; i++) ring[i % RING] = reading(i);
process.stdout.write(`${JSON.stringify({ set, kept: ring.length })}\n`);
