// Changes to matter.js's own code in hearth/matter.cjs (scripts/bundle-matter.mjs), by what they save: the heap of each
// bridged endpoint, what matter.js takes as it loads, the work of each report. Two may change one file, never the same
// text. The build fails when matter.js no longer has the text a change replaces.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ENDPOINT_PATCHES } from './matter-patches-endpoint.mjs';
import { LOAD_PATCHES } from './matter-patches-load.mjs';
import { REPORT_PATCHES } from './matter-patches-report.mjs';
import { STUB_PATCHES } from './matter-stubs.mjs';

export const MATTER_PATCHES = [...ENDPOINT_PATCHES, ...LOAD_PATCHES, ...REPORT_PATCHES, ...STUB_PATCHES];

/** esbuild plugin: MATTER_PATCHES applied to matter.js's files as they are read. */
export const matterPatches = () => ({
  name: 'matter-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@matter[\\/]/ }, async (args) => {
      const patches = MATTER_PATCHES.filter((p) => args.path.endsWith(join('@matter', p.file)));
      if (patches.length === 0) return undefined;
      let text = await readFile(args.path, 'utf8');
      for (const p of patches) {
        if (!text.includes(p.from)) throw new Error(`@matter/${p.file} no longer has ${JSON.stringify(p.from)}: see MATTER_PATCHES`);
        text = text.replace(p.from, p.to);
      }
      return { contents: text, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});
