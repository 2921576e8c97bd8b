import { constants } from 'node:fs';
import { copyFile, open } from 'node:fs/promises';
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

/**
 * Copies a damaged file to `<name>.corrupt-<time>` before its owner writes back what it could read, so no byte
 * of it is lost: the copy and its directory entry are on disk before this resolves. Returns the copy's path.
 */
export async function copyAside(path: string, at: Date = new Date()): Promise<string> {
  const copy = corruptName(path, at);
  await copyFile(path, copy, constants.COPYFILE_EXCL);
  const fh = await open(copy, constants.O_RDONLY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  await syncDir(dirname(copy));
  return copy;
}
