import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/util/paths.js';

/** Every .ts file under `dir` (a path from the package root), as paths from the root. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(packageRoot(), dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}
