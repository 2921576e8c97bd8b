// `npm run build`: tsc type-checks and compiles src/ and drivers/, esbuild bundles that (scripts/bundle.mjs),
// both into a fresh directory under dist/.builds, which then becomes dist/current with one rename(2)
// (scripts/dist-builds.mjs): a hub or a `hearth` command started meanwhile sees the previous build, whole,
// and a failed build leaves it in place.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';
import { newBuildDir, pruneBuilds, publish } from './dist-builds.mjs';
import { linkBin } from './link-bin.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const buildDir = newBuildDir(dist);
try {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--outDir', buildDir], { stdio: 'inherit' });
  if (compiled.status !== 0) throw new Error(`tsc failed (${compiled.signal ?? `exit ${compiled.status}`})`);
  await bundle(buildDir);
} catch (err) {
  rmSync(buildDir, { recursive: true, force: true });
  console.error(`build: ${err.message}; dist/ is left as it was`);
  process.exit(1);
}
const previous = publish(dist, buildDir);
pruneBuilds(dist, new Set([basename(buildDir), ...(previous === undefined ? [] : [previous])]));
linkBin(root);
