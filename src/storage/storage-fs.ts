import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * The file-system calls the storage layer makes, behind one small interface: the real one is node:fs, and the
 * power-cut tests (test/storage/power-cut.test.ts) pass a simulated disk that loses what was not synced.
 */
export interface StorageHandle {
  /** Writes `data` from `offset` on at the file's position (its end with O_APPEND); may write less than asked. */
  write(data: Uint8Array, offset: number): Promise<{ bytesWritten: number }>;
  sync(): Promise<void>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  chmod(mode: number): Promise<void>;
  close(): Promise<void>;
}

export interface StorageFs {
  open(path: string, flags: number, mode?: number): Promise<StorageHandle>;
  readFile(path: string): Promise<Buffer>;
  readdir(dir: string): Promise<string[]>;
  /** mkdir -p; resolves with the first directory it created, undefined when all existed (as node's recursive mkdir). */
  mkdirs(dir: string, mode: number): Promise<string | undefined>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

export const nodeFs: StorageFs = {
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  readFile: (path) => fsp.readFile(path),
  readdir: (dir) => fsp.readdir(dir),
  mkdirs: (dir, mode) => fsp.mkdir(dir, { recursive: true, mode }),
  rename: (from, to) => fsp.rename(from, to),
  unlink: (path) => fsp.unlink(path),
};

/** Errors of file systems that cannot fsync a directory (some FUSE and network ones): nothing more can be done there. */
const NO_DIR_SYNC = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP']);

/**
 * Makes a directory's entries durable: after a file in it is created, renamed or removed, its name survives a
 * power cut only once the directory itself is fsynced (the file's own fsync does not cover its name).
 * Call it with the directory's path after the create or rename.
 */
export async function syncDir(dir: string, fs: StorageFs = nodeFs): Promise<void> {
  const dh = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await dh.sync();
  } catch (err) {
    if (!NO_DIR_SYNC.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
  } finally {
    await dh.close();
  }
}

/** mkdir -p whose new directories survive a power cut: the parent of each directory it created is synced. */
export async function makeDir(dir: string, mode = 0o700, fs: StorageFs = nodeFs): Promise<void> {
  const first = await fs.mkdirs(dir, mode);
  if (first === undefined) return;
  const top = resolve(first);
  for (let created = resolve(dir); ; created = dirname(created)) {
    await syncDir(dirname(created), fs);
    if (created === top || dirname(created) === created) return;
  }
}
