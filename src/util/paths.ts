import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The package's root folder, found from this file whether it runs from src/ (tests), dist/src/ or the bundle in
 * dist/hearth/ (built): the nearest folder whose package.json is hearth's. The bundle's own folder has a package.json
 * too, one that only marks its files CommonJS (scripts/bundle.mjs), and is passed over.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!isHearthPackage(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the hearth package root');
    dir = up;
  }
  root = dir;
  return dir;
}

function isHearthPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'hearth';
  } catch {
    return false;
  }
}
