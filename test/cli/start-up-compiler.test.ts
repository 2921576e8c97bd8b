import { execFile } from 'node:child_process';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

const CHILD_DEADLINE_MS = 30_000;

/** Runs compiler-hold-child.ts with extra Node flags; resolves with what it saw of V8's optimizer. */
function run(mode: 'serving' | 'deadline', nodeFlags: readonly string[] = []): Promise<{ held: boolean; after: boolean }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--allow-natives-syntax', ...nodeFlags, '--import', 'tsx', 'test/cli/compiler-hold-child.ts', mode],
      { cwd: packageRoot(), env: withoutCoverage(process.env), timeout: CHILD_DEADLINE_MS },
      (err, stdout, stderr) => {
        if (err !== null) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as { held: boolean; after: boolean });
      },
    );
  });
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
