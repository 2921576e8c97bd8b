import { basename, dirname, join } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import { nodeFs, type StorageFs, syncDir } from './storage-fs.js';

/**
 * Copies kept aside per file (moved or copied, keep-copy.ts): a crash loop that finds the same damage at every
 * start must not fill the disk. The oldest go first.
 */
export const COPIES_KEPT = 3;

/**
 * How a copy is named: `corrupt` for a file moved or copied aside because it does not hold; `damaged` for a
 * journal's bytes kept before its good records are written back.
 */
export type CopyTag = 'corrupt' | 'damaged';

/** `<ISO time with : and . replaced by ->`, for names beside a file: sorts by time. */
export function fileTime(at: Date = new Date()): string {
  return isoFromMillis(at.getTime()).replace(/[:.]/g, '-');
}

/** The name a copy of `path` is kept under: `<path>.<tag>-<ISO time with : and . replaced by ->`. */
export function corruptName(path: string, at: Date = new Date(), tag: CopyTag = 'corrupt'): string {
  return `${path}.${tag}-${fileTime(at)}`;
}

/** The copies of `path` kept aside (their names, oldest first: the names end in the time). */
export async function copiesOf(path: string, tag: CopyTag, fs: StorageFs = nodeFs): Promise<string[]> {
  const prefix = `${basename(path)}.${tag}-`;
  return (await fs.readdir(dirname(path)).catch(() => [])).filter((n) => n.startsWith(prefix) && !n.endsWith('.tmp')).sort();
}

/** Removes the oldest copies of `path` until at most `kept` are left. */
export async function pruneCopies(path: string, tag: CopyTag, kept = COPIES_KEPT, fs: StorageFs = nodeFs): Promise<void> {
  const copies = await copiesOf(path, tag, fs);
  for (const old of copies.slice(0, Math.max(0, copies.length - kept))) await fs.unlink(join(dirname(path), old)).catch(() => {});
}

/**
 * Moves a file that does not parse aside as `<name>.corrupt-<time>`, so its owner can start clean; returns the new
 * path. At most COPIES_KEPT copies of a file stay aside.
 */
export async function quarantine(path: string, at: Date = new Date(), fs: StorageFs = nodeFs): Promise<string> {
  const movedTo = corruptName(path, at);
  await fs.rename(path, movedTo);
  // Without this a power cut could bring the corrupt file back under its name (to be moved aside again at the next
  // start): the move is done either way, so a directory that cannot be synced does not make it fail.
  await syncDir(dirname(path), fs).catch(() => {});
  await pruneCopies(path, 'corrupt', COPIES_KEPT, fs);
  return movedTo;
}
