import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';
import { COPIES_KEPT, type CopyTag, copiesOf, corruptName, pruneCopies } from './quarantine.js';
import { nodeFs, type StorageFs, syncDir } from './storage-fs.js';

export interface KeepCopyOptions {
  /** The bytes to keep when the owner has them in memory already (a journal); otherwise the file is copied. */
  readonly data?: Uint8Array;
  readonly tag?: CopyTag;
  /** At most this many copies of the file are kept (COPIES_KEPT); the oldest go first, before the new one is written. */
  readonly kept?: number;
  readonly at?: Date;
  readonly fs?: StorageFs;
}

/**
 * The one way a file is copied aside before anything cuts or rewrites it (the storage policy, data-file.ts):
 * `<name>.<tag>-<time>` beside it, written through a temp file and renamed, so a failure leaves no half copy and
 * no temp file; the copy and its directory entry are on disk before this resolves. Older copies beyond `kept`
 * are removed first (a crash loop must not fill the disk, and a full disk needs the room). Returns the copy's
 * path; throws when it cannot be written (then the caller must leave the file as it is).
 */
export async function keepCopy(path: string, options: KeepCopyOptions = {}): Promise<string> {
  const { tag = 'corrupt', kept = COPIES_KEPT, at = new Date(), fs = nodeFs } = options;
  await pruneCopies(path, tag, Math.max(0, kept - 1), fs);
  const copy = freeName(corruptName(path, at, tag), await copiesOf(path, tag, fs));
  if (options.data !== undefined) await writeFileAtomic(copy, options.data, 0o600, fs);
  else await copyFileDurably(path, copy);
  return copy;
}

/**
 * Two copies within a millisecond (tests, a crash loop on a fast machine) must not overwrite one another, and must
 * still sort by age: `<name>`, then `<name>-001`, `<name>-002` ...
 */
function freeName(name: string, taken: readonly string[]): string {
  const base = basename(name);
  let last = -1;
  for (const n of taken) {
    if (n === base) last = Math.max(last, 0);
    else if (n.startsWith(`${base}-`)) last = Math.max(last, Number(n.slice(base.length + 1)) || 0);
  }
  return last < 0 ? name : `${name}-${String(last + 1).padStart(3, '0')}`;
}

/** A copy made by the kernel, not read into memory (a day file can be tens of MB): temp file, fsync, rename, fsync of the directory. */
async function copyFileDurably(from: string, to: string): Promise<void> {
  const dir = dirname(to);
  const tmp = join(dir, `.${basename(to)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await copyFile(from, tmp, constants.COPYFILE_EXCL);
    const fh = await open(tmp, constants.O_RDONLY);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, to);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await syncDir(dir);
}
