// What a write under a directory would change, for the Matter bridge's tests.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file under a directory with its size and mtime: what a write would change. */
export async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    files.set(path.slice(dir.length + 1), `${info.size} ${info.mtimeMs}`);
  }
  return files;
}
