// `npx hearth` from the repository root: npm does not link a package's own bin into its node_modules/.bin,
// so the build does it (and makes the entry point executable).
import { chmodSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'dist', 'hearth', 'cli.js');
const link = join(root, 'node_modules', '.bin', 'hearth');
chmodSync(target, 0o755);
mkdirSync(dirname(link), { recursive: true });
rmSync(link, { force: true });
symlinkSync(relative(dirname(link), target), link);
