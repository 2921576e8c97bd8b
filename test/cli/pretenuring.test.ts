import { execFile } from 'node:child_process';
import t from 'tap';
import { packageRoot } from '../../src/util/paths.js';
import { withoutCoverage } from '../helpers/child-env.js';

const CHILD_DEADLINE_MS = 30_000;

interface Seen {
  readonly set: boolean;
  /** Allocation sites V8 decided to pretenure, from its own trace. */
  readonly tenured: number;
}

/** Runs pretenuring-child.ts with V8's pretenuring trace and extra Node flags. */
function run(nodeFlags: readonly string[] = []): Promise<Seen> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        '--max-semi-space-size=1',
        '--trace-pretenuring',
        '--trace-pretenuring-statistics',
        ...nodeFlags,
        '--import',
        'tsx',
        'test/cli/pretenuring-child.ts',
      ],
      { cwd: packageRoot(), env: withoutCoverage(process.env), timeout: CHILD_DEADLINE_MS, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err !== null) {
          reject(new Error(`${err.message}\n${stderr}`));
          return;
        }
        const lines = stdout.trimEnd().split('\n');
        const { set } = JSON.parse(lines.at(-1) ?? '{}') as { set: boolean };
        resolve({ set, tenured: lines.filter((line) => line.includes('=> tenure')).length });
      },
    );
  });
}

t.test('objects that live through one young collection are not allocated old', async (t) => {
  t.same(await run(), { set: true, tenured: 0 });
});

t.test('the pretenuring flag given to node is left as the user set it', async (t) => {
  // The same allocations with V8's default: it pretenures their sites.
  const seen = await run(['--allocation-site-pretenuring']);
  t.equal(seen.set, false);
  t.ok(seen.tenured > 0, `V8 pretenured ${seen.tenured} allocation sites`);
  t.same(await run(['--no-allocation-site-pretenuring']), { set: false, tenured: 0 });
});
