import { setV8FlagsUnlessGiven } from './v8-flags.js';

/**
 * Stops V8 from allocating objects straight into the old generation when their allocation site's objects
 * have survived a young collection ("allocation-site pretenuring").
 *
 * Under a burst of state changes, a state object and its attributes live until the next change of their
 * entity: tens of milliseconds, about one young collection (--max-semi-space-size=1 collects every 70 ms or so
 * at 1,000 changes a second). V8 saw them survive and pretenured their sites, so every later state went
 * straight to the old generation, and was garbage there until the next full collection, which V8 starts only
 * after 8 MB of growth. Without pretenuring they die young, as they are. Objects that really live long are
 * still promoted after surviving two young collections.
 *
 * Measured (bench/memory-flood.ts, 1,000 entities, 100 WebSocket clients, 1,000 changes/s for 10 s): the old
 * generation grew 2.3 MB during the flood instead of 3.8 MB; RSS right after it 65.6-66.1 MB instead of
 * 66.5-67.7. REST throughput did not change.
 *
 * Set at run time (v8-flags.ts says why); the flag given on node's command line, either way, is left as the
 * user set it.
 */
export function stopPretenuring(execArgv: readonly string[]): boolean {
  return setV8FlagsUnlessGiven(execArgv, PRETENURING_FLAG, ['--no-allocation-site-pretenuring']);
}

/** V8 accepts - or _ in its flags. */
const PRETENURING_FLAG = /^--(no[-_])?allocation[-_]site[-_]pretenuring(=|$)/;
