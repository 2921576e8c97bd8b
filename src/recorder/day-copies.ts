import { constants } from 'node:fs';
import { open, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Copies of damaged day files, `<day>.seg.corrupt-<time>`: one is made (src/storage/keep-copy.ts keepCopy, or
 * quarantine when nothing in the file could be read) before anything cuts a file or rewrites it without a damaged
 * part, so that what a reader could not use is still there for a person or a later fix. At most COPIES_KEPT per
 * day file (the storage helpers remove the oldest), and none past the day's retention (here).
 */

/** Cuts a file to `length` bytes, durably. */
export async function cutFile(path: string, length: number): Promise<void> {
  const fh = await open(path, constants.O_RDWR);
  try {
    await fh.truncate(length);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

const COPY = /^(\d{4}-\d{2}-\d{2})\.seg\.corrupt-/;

/** Removes the copies of days before `cutoffDay` (retention). */
export function removeCopiesBefore(dir: string, cutoffDay: string): Promise<void> {
  return removeCopiesIf(dir, (day) => day < cutoffDay);
}

/** Removes the copies of one day (its file is purged). */
export function removeCopies(dir: string, day: string): Promise<void> {
  return removeCopiesIf(dir, (d) => d === day);
}

async function removeCopiesIf(dir: string, test: (day: string) => boolean): Promise<void> {
  for (const name of await readdir(dir)) {
    const day = COPY.exec(name)?.[1];
    if (day !== undefined && test(day)) await unlink(join(dir, name)).catch(() => {});
  }
}
