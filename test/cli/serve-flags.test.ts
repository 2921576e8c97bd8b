import t from 'tap';
import { runTsChild } from '../helpers/child-env.js';

/**
 * serve loads Node's own modules with the heap's flags of node's command line at V8's defaults for a moment
 * (src/cli/serve-flags.ts: so V8 takes Node's built-in code cache): the heap stays as the command line sized it.
 */
t.test("the unit's heap flags still hold after serve's flags are set", async (t) => {
  const stdout = await runTsChild('test/cli/serve-flags-child.ts', ['--max-semi-space-size=1', '--max-old-space-size=192', '--expose-gc']);
  const seen = JSON.parse(stdout.trimEnd().split('\n').at(-1) ?? '{}') as {
    gc: string;
    limitBefore: number;
    limitAfter: number;
    newSpaceBytes: number;
  };
  t.equal(seen.gc, 'function', 'gc() is still there (--expose-gc)');
  t.equal(seen.limitAfter, seen.limitBefore, 'the old generation keeps its limit');
  t.ok(seen.limitAfter < 256 * 1024 * 1024, `the heap limit is the one asked for (${seen.limitAfter} bytes)`);
  // Two semi-spaces of at most 1 MB each (V8's default lets them grow to 16 MB under this allocation).
  t.ok(seen.newSpaceBytes > 0 && seen.newSpaceBytes <= 2 * 1024 * 1024, `the young generation stays small (${seen.newSpaceBytes} bytes)`);
});
