import { constants } from 'node:fs';
import { copyFile, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isoFromMillis } from '../core/clock.js';

/** The name a corrupt file is moved to: `<path>.corrupt-<ISO time with : and . replaced by ->`. */
export function corruptName(path: string, at: Date = new Date()): string {
  return `${path}.corrupt-${isoFromMillis(at.getTime()).replace(/[:.]/g, '-')}`;
}

/** Moves a file that does not parse aside as `<name>.corrupt-<time>`, so its owner can start clean; returns the new path. */
export async function quarantine(path: string, at: Date = new Date()): Promise<string> {
  const movedTo = corruptName(path, at);
  await rename(path, movedTo);
  return movedTo;
}

/**
 * Copies a damaged file to `<name>.corrupt-<time>` before its owner writes back what it could read, so no byte
 * of it is lost: the copy and its directory entry are on disk before this resolves. Returns the copy's path.
 */
export async function copyAside(path: string, at: Date = new Date()): Promise<string> {
  const copy = corruptName(path, at);
  await copyFile(path, copy, constants.COPYFILE_EXCL);
  for (const [target, flags] of [
    [copy, constants.O_RDONLY],
    [dirname(copy), constants.O_RDONLY],
  ] as const) {
    const fh = await open(target, flags);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }
  return copy;
}
