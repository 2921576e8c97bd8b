// `npx hearth` from the repository root: npm does not link a package's own bin into its node_modules/.bin,
// so the build does it. The link leads to dist/hearth/cli.js, which stays in place from build to build
// (scripts/dist-builds.mjs), so it is made once; when it is, a new link is renamed over the old one.
import { mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export function linkBin(root) {
  const link = join(root, 'node_modules', '.bin', 'hearth');
  const target = relative(dirname(link), join(root, 'dist', 'hearth', 'cli.js'));
  let now;
  try {
    now = readlinkSync(link);
  } catch {}
  if (now === target) return;
  mkdirSync(dirname(link), { recursive: true });
  const temp = `${link}.${process.pid}.tmp`;
  rmSync(temp, { force: true });
  symlinkSync(target, temp);
  renameSync(temp, link);
}
