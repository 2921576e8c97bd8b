import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's root, where src/ and drivers/ are. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** Every .ts file under `dir` (a path from the repository root), as paths from the root. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}
