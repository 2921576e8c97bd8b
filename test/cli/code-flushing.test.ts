import t from 'tap';
import { runTsChild } from '../helpers/child-env.js';

interface Seen {
  readonly set: boolean;
  readonly compiled: boolean;
  readonly majors: number;
  /** Whether each function's code was given back after three full collections. */
  readonly interpreted: boolean;
  readonly baseline: boolean;
}

/** Runs code-flushing-child.ts with extra Node flags; resolves with what it saw of V8's code flushing. */
async function run(nodeFlags: readonly string[] = []): Promise<Seen> {
  return JSON.parse(await runTsChild('test/cli/code-flushing-child.ts', ['--allow-natives-syntax', ...nodeFlags])) as Seen;
}

t.test('code the hub ran once is given back after a few full collections, baseline code too', async (t) => {
  const { majors, ...seen } = await run();
  t.ok(majors >= 3, `three full collections ran (${majors})`);
  t.same(seen, { set: true, compiled: true, interpreted: true, baseline: true });
});

t.test('code-flushing flags given to node are left as the user set them', async (t) => {
  // V8's defaults: bytecode kept through six collections, baseline code kept for good.
  for (const flag of ['--bytecode-old-age=5', '--no-flush-bytecode']) {
    const { majors, ...seen } = await run([flag]);
    t.ok(majors >= 3, `${flag}: three full collections ran (${majors})`);
    t.same(seen, { set: false, compiled: true, interpreted: false, baseline: false }, flag);
  }
});
