import t from 'tap';
import { runTsChild } from '../helpers/child-env.js';

interface Seen {
  readonly set: boolean;
  /** Allocation sites V8 decided to pretenure, from its own trace. */
  readonly tenured: number;
}

/** Runs pretenuring-child.ts (which traces V8's pretenuring once it has set the flag) with extra Node flags. */
async function run(nodeFlags: readonly string[] = []): Promise<Seen> {
  const stdout = await runTsChild('test/cli/pretenuring-child.ts', ['--max-semi-space-size=1', ...nodeFlags]);
  const lines = stdout.trimEnd().split('\n');
  const { set } = JSON.parse(lines.at(-1) ?? '{}') as { set: boolean };
  return { set, tenured: lines.filter((line) => line.includes('=> tenure')).length };
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
