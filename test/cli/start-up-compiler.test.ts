import t from 'tap';
import { runTsChild } from '../helpers/child-env.js';

/** Runs compiler-hold-child.ts with extra Node flags; resolves with what it saw of V8's optimizer. */
async function run(mode: 'serving' | 'deadline', nodeFlags: readonly string[] = []): Promise<{ held: boolean; after: boolean }> {
  const stdout = await runTsChild('test/cli/compiler-hold-child.ts', ['--allow-natives-syntax', ...nodeFlags], [mode]);
  return JSON.parse(stdout) as { held: boolean; after: boolean };
}

t.test('nothing is optimized while the hub starts, and the optimizer works again once it serves and its loop is quiet', async (t) => {
  t.same(await run('serving'), { held: false, after: true });
});

t.test('a start that takes long gets the optimizer back at the hold deadline, without a release', async (t) => {
  t.equal((await run('deadline')).after, true);
});

t.test('Node flags that decide about the optimizer themselves are left as the user gave them', async (t) => {
  // --no-opt: the hold does nothing, and serving must not turn the optimizer on.
  t.same(await run('serving', ['--no-opt']), { held: false, after: false });
  // --max-opt=3 still allows TurboFan: it keeps working through the start.
  t.same(await run('serving', ['--max-opt=3']), { held: true, after: true });
});
