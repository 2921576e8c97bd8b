import { execFile } from 'node:child_process';
import { mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../src/core/log.js';
import { writeFileAtomic } from '../../src/storage/atomic-file.js';
import { formatLogMessage } from '../../src/util/log-bounds.js';
import type { LogEntry } from '../helpers/logger.js';

const run = promisify(execFile);

export interface Teardown {
  teardown(fn: () => unknown): void;
}

/** `<name>.corrupt-<ISO time with : and . as ->`, anchored. */
export function corruptPattern(name: string): RegExp {
  return new RegExp(`^${name.replace(/\./g, '\\.')}\\.corrupt-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z$`);
}

export async function tempDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-durability-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Resolves when `check()` holds, checked now and after every event `subscribe` reports; rejects after `ms` saying what was awaited. */
function waitFor(subscribe: (wake: () => void) => () => void, check: () => boolean, what: string, ms: number): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    const off = subscribe(() => {
      if (!check()) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/** A logger that keeps entries (message and fields) and lets a test wait for one. */
export interface WatchedLogger extends Logger {
  readonly entries: (LogEntry & { readonly fields: Record<string, unknown> })[];
  /** Entries of a level whose message matches. */
  matching(level: string, msg: RegExp): LogEntry[];
  /** Waits until `count` entries (1 unless told) of the level match. */
  until(level: string, msg: RegExp, ms?: number, count?: number): Promise<void>;
}

export function watchedLogger(): WatchedLogger {
  const wakers = new Set<() => void>();
  const entries: WatchedLogger['entries'] = [];
  const at =
    (level: string) =>
    (a: object | string, b?: string, ...values: unknown[]): void => {
      entries.push({
        level,
        msg: typeof a === 'string' ? a : formatLogMessage(b ?? '', values),
        fields: typeof a === 'string' ? {} : (a as Record<string, unknown>),
      });
      for (const wake of [...wakers]) wake();
    };
  const matching = (level: string, msg: RegExp): LogEntry[] => entries.filter((e) => e.level === level && msg.test(e.msg));
  const log: WatchedLogger = {
    entries,
    matching,
    until: (level, msg, ms = 5000, count = 1) =>
      waitFor(
        (wake) => {
          wakers.add(wake);
          return () => wakers.delete(wake);
        },
        () => matching(level, msg).length >= count,
        `${count} ${level} log(s) matching ${msg}`,
        ms,
      ),
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => log,
  };
  return log;
}

/** An error as fs raises it. */
export function errnoError(code: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: simulated, write '...'`);
  err.code = code;
  return err;
}

/**
 * A disk for the stores' `writeFile` option: writes through to real files, or fails with the given errno
 * while `failWith` is set. Records each attempt, so a test sees what was written and when.
 */
export class FlakyDisk {
  failWith: string | undefined;
  readonly attempts: { readonly path: string; readonly data: string; readonly ok: boolean; readonly at: number }[] = [];
  private readonly wakers = new Set<() => void>();

  readonly writeFile = async (path: string, data: string): Promise<void> => {
    const failWith = this.failWith;
    try {
      if (failWith !== undefined) throw errnoError(failWith);
      await writeFileAtomic(path, data);
      this.attempts.push({ path, data, ok: true, at: Date.now() });
    } catch (err) {
      this.attempts.push({ path, data, ok: false, at: Date.now() });
      throw err;
    } finally {
      for (const wake of [...this.wakers]) wake();
    }
  };

  get written(): string[] {
    return this.attempts.filter((a) => a.ok).map((a) => a.data);
  }

  get failed(): number {
    return this.attempts.filter((a) => !a.ok).length;
  }

  /** Waits until `check()` holds after some attempt. */
  until(check: () => boolean, what: string, ms = 5000): Promise<void> {
    return waitFor(
      (wake) => {
        this.wakers.add(wake);
        return () => this.wakers.delete(wake);
      },
      check,
      what,
      ms,
    );
  }
}

/** A tiny tmpfs (root only; undefined where mounting is not allowed, as in CI): a disk that really fills up or turns read-only. */
export interface SmallDisk {
  readonly dir: string;
  remount(options: 'ro' | 'rw'): Promise<void>;
}

export async function smallDisk(t: Teardown, sizeKb = 64): Promise<SmallDisk | undefined> {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'hearth-tmpfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], { timeout: 10_000 });
  } catch {
    await rmdir(dir).catch(() => {});
    return undefined;
  }
  t.teardown(async () => {
    await run('umount', [dir], { timeout: 10_000 }).catch(() => run('umount', ['-l', dir]));
    await rmdir(dir).catch(() => {});
  });
  return {
    dir,
    remount: async (options) => {
      await run('mount', ['-o', `remount,${options}`, dir], { timeout: 10_000 });
    },
  };
}
