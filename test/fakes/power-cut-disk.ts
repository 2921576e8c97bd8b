import { constants } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { StorageFs, StorageHandle } from '../../src/storage/storage-fs.js';

/** What every call raises once the power is gone. */
export class PowerCut extends Error {
  readonly code = 'EPOWERCUT';
  constructor() {
    super('the power went off');
  }
}

function errno(code: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated, '${path}'`), { code });
}

interface Inode {
  /** What the running process sees. */
  data: Buffer;
  /** What the last fsync made durable. */
  synced: Buffer;
  /** What the file held at each offset before it was last truncated: what a block freed by a truncate may still hold. */
  stale: Buffer;
}

type DirOp = { readonly kind: 'link'; readonly path: string; readonly ino: number } | { readonly kind: 'unlink'; readonly path: string };

/** One possible state of the disk after a power cut: names and contents. */
export type DiskImage = ReadonlyMap<string, Buffer>;

/**
 * A disk in memory that forgets what a power cut may forget, for testing the storage layer at every byte a
 * write can be cut at. Each byte written and each other change (create, rename, unlink, truncate, fsync) is
 * one step; after `budget` steps the power goes: the write in flight keeps only its first bytes and every
 * call after that raises PowerCut.
 *
 * `images()` lists what the disk may hold after the cut, the worst a journaling file system allows:
 * - directory changes (create, rename, unlink) are durable in order, up to any point after the last fsync of
 *   their directory (metadata journals commit in order; an fsync of the directory commits its changes);
 * - each file holds its last fsynced content, or everything written since, or its new length with the bytes
 *   written since the fsync zeroed (the size reached the disk, the data did not), or stale (blocks freed by a
 *   truncate and given back with their old bytes).
 */
export class PowerCutDisk implements StorageFs {
  /** Steps left before the power goes; Infinity: never. */
  budget = Number.POSITIVE_INFINITY;
  /** Steps taken so far (a run with no cut measures an operation's steps). */
  steps = 0;
  private off = false;
  private readonly inodes = new Map<number, Inode>();
  private nextIno = 1;
  private names = new Map<string, number>();
  private durableNames = new Map<string, number>();
  private pending: DirOp[] = [];
  private readonly dirs = new Set<string>();

  constructor(dirs: readonly string[], image: DiskImage = new Map()) {
    for (const dir of dirs) this.addDir(dir);
    for (const [path, data] of image) {
      const ino = this.nextIno++;
      this.inodes.set(ino, { data: Buffer.from(data), synced: Buffer.from(data), stale: Buffer.from(data) });
      this.names.set(path, ino);
      this.durableNames.set(path, ino);
    }
  }

  get poweredOff(): boolean {
    return this.off;
  }

  /** A new disk booted from an image (the same directories). */
  restart(image: DiskImage): PowerCutDisk {
    return new PowerCutDisk([...this.dirs], image);
  }

  /** The files the running process sees. */
  view(): DiskImage {
    return new Map([...this.names].map(([path, ino]) => [path, (this.inodes.get(ino) as Inode).data]));
  }

  /** Every state the disk may be found in after the power goes now (deduplicated). */
  images(): DiskImage[] {
    const out = new Map<string, DiskImage>();
    for (let k = 0; k <= this.pending.length; k++) {
      const names = new Map(this.durableNames);
      for (const op of this.pending.slice(0, k)) {
        if (op.kind === 'link') names.set(op.path, op.ino);
        else names.delete(op.path);
      }
      const entries = [...names];
      const choices = entries.map(([, ino]) => contentsOf(this.inodes.get(ino) as Inode));
      // Every combination of each file's possible contents.
      const pick = (i: number, acc: [string, Buffer][]): void => {
        if (i === entries.length) {
          const image = new Map(acc);
          out.set(keyOf(image), image);
          return;
        }
        for (const content of choices[i] as Buffer[]) pick(i + 1, [...acc, [(entries[i] as [string, number])[0], content]]);
      };
      pick(0, []);
    }
    return [...out.values()];
  }

  // --- StorageFs ---------------------------------------------------------------------------------------

  async open(path: string, flags: number, _mode?: number): Promise<StorageHandle> {
    if (this.dirs.has(path)) {
      this.live();
      return this.dirHandle(path);
    }
    if (!this.dirs.has(dirname(path))) throw errno('ENOENT', path);
    let ino = this.names.get(path);
    if (ino !== undefined && flags & constants.O_CREAT && flags & constants.O_EXCL) throw errno('EEXIST', path);
    if (ino === undefined) {
      if (!(flags & constants.O_CREAT)) throw errno('ENOENT', path);
      this.spend(1);
      ino = this.nextIno++;
      this.inodes.set(ino, { data: Buffer.alloc(0), synced: Buffer.alloc(0), stale: Buffer.alloc(0) });
      this.link(path, ino);
    } else this.live();
    if (flags & constants.O_TRUNC) this.truncateInode(ino, 0);
    return this.fileHandle(ino);
  }

  async readFile(path: string): Promise<Buffer> {
    this.live();
    const ino = this.names.get(path);
    if (ino === undefined) throw errno(this.dirs.has(path) ? 'EISDIR' : 'ENOENT', path);
    return Buffer.from((this.inodes.get(ino) as Inode).data);
  }

  async readdir(dir: string): Promise<string[]> {
    this.live();
    if (!this.dirs.has(dir)) throw errno('ENOENT', dir);
    return [...this.names.keys()].filter((p) => dirname(p) === dir).map((p) => basename(p));
  }

  async mkdirs(dir: string, _mode: number): Promise<string | undefined> {
    this.live();
    if (this.dirs.has(dir)) return undefined;
    // Directories are made at construction in these tests; one made here is durable at once.
    let first = dir;
    for (let d = dir; !this.dirs.has(d) && dirname(d) !== d; d = dirname(d)) first = d;
    this.addDir(dir);
    return first;
  }

  async rename(from: string, to: string): Promise<void> {
    const ino = this.names.get(from);
    if (ino === undefined) throw errno('ENOENT', from);
    this.spend(1);
    // One journal transaction: the new name and the old one go together.
    this.names.delete(from);
    this.names.set(to, ino);
    this.pending.push({ kind: 'link', path: to, ino }, { kind: 'unlink', path: from });
  }

  async unlink(path: string): Promise<void> {
    if (!this.names.has(path)) throw errno('ENOENT', path);
    this.spend(1);
    this.names.delete(path);
    this.pending.push({ kind: 'unlink', path });
  }

  // --- inside ------------------------------------------------------------------------------------------

  private addDir(dir: string): void {
    for (let d = dir; !this.dirs.has(d); d = dirname(d)) {
      this.dirs.add(d);
      if (dirname(d) === d) break;
    }
  }

  private live(): void {
    if (this.off) throw new PowerCut();
  }

  /** Takes `n` steps; returns how many were taken before the power went (then the caller raises PowerCut). */
  private take(n: number): number {
    this.live();
    const taken = Math.min(n, this.budget);
    this.budget -= taken;
    this.steps += taken;
    if (taken < n) this.off = true;
    return taken;
  }

  private spend(n: number): void {
    this.take(n);
    this.live();
  }

  private link(path: string, ino: number): void {
    this.names.set(path, ino);
    this.pending.push({ kind: 'link', path, ino });
  }

  private syncDir(dir: string): void {
    this.spend(1);
    // Ops commit in order: everything up to this directory's last change.
    let last = -1;
    this.pending.forEach((op, i) => {
      if (dirname(op.path) === dir) last = i;
    });
    for (const op of this.pending.splice(0, last + 1)) {
      if (op.kind === 'link') this.durableNames.set(op.path, op.ino);
      else this.durableNames.delete(op.path);
    }
  }

  private truncateInode(ino: number, length: number): void {
    const inode = this.inodes.get(ino) as Inode;
    this.spend(1);
    // The blocks cut off keep their bytes until reused.
    if (inode.data.length >= inode.stale.length) inode.stale = Buffer.from(inode.data);
    else inode.data.copy(inode.stale, 0);
    const data = Buffer.alloc(length);
    inode.data.copy(data, 0, 0, length);
    inode.data = data;
  }

  private dirHandle(dir: string): StorageHandle {
    const no = async () => {
      throw errno('EISDIR', dir);
    };
    return {
      write: no,
      truncate: no,
      chmod: async () => {},
      sync: async () => this.syncDir(dir),
      datasync: async () => this.syncDir(dir),
      close: async () => {},
    };
  }

  private fileHandle(ino: number): StorageHandle {
    const inode = this.inodes.get(ino) as Inode;
    const sync = async () => {
      this.spend(1);
      inode.synced = Buffer.from(inode.data);
    };
    return {
      write: async (data, offset) => {
        const want = data.length - offset;
        const n = this.take(want);
        inode.data = Buffer.concat([inode.data, data.subarray(offset, offset + n)]);
        this.live();
        return { bytesWritten: n };
      },
      truncate: async (length) => this.truncateInode(ino, length),
      sync,
      datasync: sync,
      chmod: async () => {
        this.live();
      },
      close: async () => {},
    };
  }
}

/** A file's possible contents after a power cut (see PowerCutDisk). */
function contentsOf(inode: Inode): Buffer[] {
  const { data, synced, stale } = inode;
  let common = 0;
  while (common < data.length && common < synced.length && data[common] === synced[common]) common++;
  const zeroed = Buffer.alloc(data.length);
  data.copy(zeroed, 0, 0, common);
  const old = Buffer.from(zeroed);
  if (stale.length > common) stale.copy(old, common, common, Math.min(stale.length, data.length));
  const unique = new Map<string, Buffer>();
  for (const content of [synced, data, zeroed, old]) unique.set(content.toString('hex'), content);
  return [...unique.values()];
}

function keyOf(image: DiskImage): string {
  return [...image]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, data]) => `${path}:${data.toString('hex')}`)
    .join('|');
}
