import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { quarantine } from './quarantine.js';
import { makeDir, nodeFs, type StorageFs, syncDir } from './storage-fs.js';

/**
 * Writes a file so that a power cut leaves either the old or the new content, never a torn one:
 * temp file in the same directory, fsync, rename over the target, fsync the directory (which makes the
 * rename durable; a directory this creates is made durable in its parent too).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600, fs: StorageFs = nodeFs): Promise<void> {
  const dir = dirname(path);
  await makeDir(dir, 0o700, fs);
  const tmp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const fh = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    for (let done = 0; done < bytes.length; ) done += (await fh.write(bytes, done)).bytesWritten;
    await fh.chmod(mode);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await fs.unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  try {
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.unlink(tmp).catch(() => {});
    throw err;
  }
  await syncDir(dir, fs);
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
