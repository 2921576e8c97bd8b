// Changes to matter.js's own code in hearth/matter.cjs (scripts/bundle-matter.mjs), by what they save: the heap of each
// bridged endpoint, what matter.js takes as it loads, the work of each report, the controller side it need not load
// (scripts/matter-stubs.mjs), the data model of the device types in files of their own (scripts/matter-model.mjs).
// Two may change one file, never the same text. The build fails when matter.js no longer has the text a change
// replaces.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { MODEL_PATCHES } from './matter-model.mjs';
import { ENDPOINT_PATCHES } from './matter-patches-endpoint.mjs';
import { LOAD_PATCHES } from './matter-patches-load.mjs';
import { REPORT_PATCHES } from './matter-patches-report.mjs';
import { STUB_PATCHES } from './matter-stubs.mjs';

export const MATTER_PATCHES = [...ENDPOINT_PATCHES, ...LOAD_PATCHES, ...REPORT_PATCHES, ...STUB_PATCHES, ...MODEL_PATCHES];

/** esbuild plugin: MATTER_PATCHES applied to matter.js's files as they are read. */
export const matterPatches = () => ({
  name: 'matter-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@matter[\\/]/ }, async (args) => {
      if (!MATTER_PATCHES.some((p) => args.path.endsWith(join('@matter', p.file)))) return undefined;
      return { contents: patched(args.path, await readFile(args.path, 'utf8')), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
});

/** `text`, the file of matter.js at `path`, with MATTER_PATCHES applied. */
export function patched(path, text) {
  let out = text;
  for (const p of MATTER_PATCHES.filter((p) => path.endsWith(join('@matter', p.file)))) {
    if (!out.includes(p.from)) throw new Error(`@matter/${p.file} no longer has ${JSON.stringify(p.from)}: see MATTER_PATCHES`);
    out = out.replace(p.from, p.to);
  }
  return out;
}
