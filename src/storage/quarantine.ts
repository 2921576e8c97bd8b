import { dirname } from 'node:path';
import { isoFromMillis } from '../core/clock.js';
import { nodeFs, type StorageFs, syncDir } from './storage-fs.js';

/** `<ISO time with : and . replaced by ->`, for names beside a file: sorts by time. */
export function fileTime(at: Date = new Date()): string {
  return isoFromMillis(at.getTime()).replace(/[:.]/g, '-');
}

/** The name a corrupt file is moved to: `<path>.corrupt-<ISO time with : and . replaced by ->`. */
export function corruptName(path: string, at: Date = new Date()): string {
  return `${path}.corrupt-${fileTime(at)}`;
}

/** Moves a file that does not parse aside as `<name>.corrupt-<time>`, so its owner can start clean; returns the new path. */
export async function quarantine(path: string, at: Date = new Date(), fs: StorageFs = nodeFs): Promise<string> {
  const movedTo = corruptName(path, at);
  await fs.rename(path, movedTo);
  // Without this a power cut could bring the corrupt file back under its name (to be moved aside again at the next
  // start): the move is done either way, so a directory that cannot be synced does not make it fail.
  await syncDir(dirname(path), fs).catch(() => {});
  return movedTo;
}
