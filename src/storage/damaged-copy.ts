import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { fileTime } from './quarantine.js';
import { nodeFs, type StorageFs } from './storage-fs.js';

/** Copies kept per file: a crash loop that finds the same damage at every start must not fill the disk. */
export const DAMAGED_COPIES_KEPT = 2;

/** `<name>.damaged-<ISO time with : and . replaced by ->` beside the file. */
export function damagedName(path: string, at: Date = new Date()): string {
  return `${path}.damaged-${fileTime(at)}`;
}

/**
 * Keeps the bytes of a damaged file beside it, as `<name>.damaged-<time>` (written atomically), before its owner
 * cuts or rewrites it: whatever the repair dropped can still be looked at. At most DAMAGED_COPIES_KEPT copies are
 * kept per file; older ones are removed first. Returns the copy's path; throws when it cannot be written (then
 * the caller must leave the file as it is).
 */
export async function keepDamagedCopy(path: string, data: Uint8Array, at: Date = new Date(), fs: StorageFs = nodeFs): Promise<string> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.damaged-`;
  const older = (await fs.readdir(dir).catch(() => [])).filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp')).sort();
  // Oldest first: the names sort by time.
  for (const name of older.slice(0, Math.max(0, older.length - (DAMAGED_COPIES_KEPT - 1)))) {
    await fs.unlink(join(dir, name)).catch(() => {});
  }
  let copy = damagedName(path, at);
  // Two repairs within a millisecond (tests, a crash loop on a fast machine) must not overwrite the first copy.
  for (let n = 1; older.includes(basename(copy)); n++) copy = `${damagedName(path, at)}-${n}`;
  await writeFileAtomic(copy, data, 0o600, fs);
  return copy;
}
