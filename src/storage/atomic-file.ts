import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { quarantine } from './quarantine.js';

/**
 * Writes a file so that a power cut leaves either the old or the new content, never a torn one:
 * temp file in the same directory, fsync, rename over the target, fsync the directory.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await fh.writeFile(data);
    await fh.chmod(mode);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  const dh = await open(dir, constants.O_RDONLY);
  try {
    await dh.sync();
  } finally {
    await dh.close();
  }
}

export type JsonLoad<T> =
  | { readonly status: 'missing' }
  | { readonly status: 'ok'; readonly value: T }
  /** The file was not valid JSON; it was renamed aside so the hub can start clean. */
  | { readonly status: 'corrupt'; readonly movedTo: string };

/** A file's text, or undefined when it does not exist; other read errors (EACCES, EIO) throw. */
export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Reads a JSON file; a corrupt one is renamed to `<name>.corrupt-<time>` (see data-file.ts for the whole policy). */
export async function readJsonFile<T>(path: string): Promise<JsonLoad<T>> {
  const text = await readTextIfPresent(path);
  if (text === undefined) return { status: 'missing' };
  try {
    return { status: 'ok', value: JSON.parse(text) as T };
  } catch {
    return { status: 'corrupt', movedTo: await quarantine(path) };
  }
}
