import { constants } from 'node:fs';
import { copyFile, open, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { corruptName, quarantine } from '../storage/quarantine.js';
import { syncDir } from '../storage/storage-fs.js';

/**
 * Copies of damaged day files, `<day>.seg.corrupt-<time>`: one is made before anything cuts a file or rewrites
 * it without a damaged part, so that what a reader could not use is still there for a person or a later fix.
 * At most MAX_COPIES per day file (the oldest go), and none past the day's retention.
 */
export const MAX_COPIES = 3;

/** Copies `path` aside, durably, before it is cut; returns the copy's path. */
export async function keepCopy(path: string): Promise<string> {
  const to = corruptName(path);
  await copyFile(path, to, constants.COPYFILE_EXCL);
  const fh = await open(to, constants.O_RDONLY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  await syncDir(dirname(path));
  await pruneCopies(path);
  return to;
}

/** Moves `path` aside whole (nothing in it could be read); returns where it went. */
export async function moveAside(path: string): Promise<string> {
  const to = await quarantine(path);
  await syncDir(dirname(path));
  await pruneCopies(path);
  return to;
}

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

async function pruneCopies(path: string): Promise<void> {
  const prefix = `${basename(path)}.corrupt-`;
  const dir = dirname(path);
  // The names end in an ISO time: sorted by name is sorted by age.
  const copies = (await readdir(dir)).filter((n) => n.startsWith(prefix)).sort();
  for (const old of copies.slice(0, Math.max(0, copies.length - MAX_COPIES))) await unlink(join(dir, old)).catch(() => {});
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
