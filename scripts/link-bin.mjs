// `npx hearth` from the repository root: npm does not link a package's own bin into its node_modules/.bin,
// so the build does it. The link leads to dist/hearth/cli.js, which stays in place from build to build
// (scripts/dist-builds.mjs), so it is made once.
import { mkdirSync, readlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { replaceLink } from './dist-builds.mjs';

export function linkBin(root) {
  const link = join(root, 'node_modules', '.bin', 'hearth');
  const target = relative(dirname(link), join(root, 'dist', 'hearth', 'cli.js'));
  let now;
  try {
    now = readlinkSync(link);
  } catch {}
  if (now === target) return;
  mkdirSync(dirname(link), { recursive: true });
  replaceLink(link, target);
}
