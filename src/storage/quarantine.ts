import { rename } from 'node:fs/promises';
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
