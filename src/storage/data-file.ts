import { readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from '../core/log.js';
import { Backoff, type BackoffOptions } from '../util/backoff.js';
import { readTextIfPresent, writeFileAtomic } from './atomic-file.js';
import { keepCopy } from './keep-copy.js';
import { quarantine } from './quarantine.js';
import { WriteGuard } from './write-guard.js';

export { corruptName, quarantine } from './quarantine.js';
export { writeFailureCause } from './write-guard.js';

/**
 * The storage policy every file under the data directory follows:
 * - read-or-quarantine: a file that does not parse or has the wrong shape is renamed to
 *   `<name>.corrupt-<time>`, logged once as an error naming both names, and its owner starts empty;
 *   a file of records of which only some are damaged (a YAML store cut in its last entry) is copied to that
 *   name instead, and its owner keeps the whole records and writes them back;
 * - write-with-retry: atomic writes; when the disk is full, read-only or failing, one error is logged,
 *   the owner's memory stays the truth, and the latest content is written again with backoff (without
 *   waiting for another change) until it works, which is logged once too.
 */

/** Writes a file atomically; tests pass one that fails or counts. */
export type WriteFile = (path: string, data: string) => Promise<void>;

/** How long to wait before writing again after a failure: `initialMs`, doubling up to `maxMs`. */
export type RetryPolicy = BackoffOptions;

export const DEFAULT_RETRY: RetryPolicy = { initialMs: 5000, maxMs: 5 * 60 * 1000 };

/** Temp files younger than this may belong to a write in progress (the CLI's), so they are left alone. */
const STALE_TEMP_MS = 10_000;

export type DataLoad<T> =
  | { readonly status: 'missing' }
  | { readonly status: 'ok'; readonly value: T }
  /** The file did not parse or had the wrong shape; it was moved aside (or could not be, then `movedTo` is undefined). */
  | { readonly status: 'corrupt'; readonly movedTo: string | undefined }
  /** Some records were damaged: `value` holds the whole ones, the file was copied to `copiedTo`; the owner writes `value` back. */
  | { readonly status: 'salvaged'; readonly value: T; readonly copiedTo: string };

/**
 * What a parser returns for a file whose records are whole but for some: the whole ones (`value`), what was
 * wrong with the others (`problem`, naming each) and what the owner keeps, for the log ("2 bans are kept").
 */
export class Salvaged<T> {
  constructor(
    readonly value: T,
    readonly problem: string,
    readonly kept: string,
  ) {}
}

export interface ReadOptions<T> {
  readonly log: Logger;
  /**
   * Turns the file's text into its content; throws an Error saying what is wrong when it cannot, or returns
   * Salvaged when it could read only some of the records.
   */
  readonly parse: (text: string) => T | Salvaged<T>;
  /** What the file is, for the log: "registry file", "auth file". */
  readonly label: string;
  /** What the owner does instead, for the log: "starting with an empty registry". */
  readonly fallback: string;
}

/**
 * Reads a data file. Missing is not an error. A file that does not parse is moved aside (one error log
 * naming the file, the new name and the problem); one the parser could read only in part (Salvaged) is copied
 * aside, with one error naming the file, the copy and the damaged records. Unfinished temp files of this file's atomic writes (a
 * power cut between write and rename) are never read, and removed. Other read errors (EACCES, EIO) throw.
 */
export async function readDataFile<T>(path: string, options: ReadOptions<T>): Promise<DataLoad<T>> {
  await removeStaleTemps(path, options.log);
  const text = await readTextIfPresent(path);
  if (text === undefined) return { status: 'missing' };
  let value: T | Salvaged<T>;
  try {
    value = options.parse(text);
  } catch (err) {
    return moveAside(path, err instanceof Error ? err.message : String(err), options);
  }
  if (!(value instanceof Salvaged)) return { status: 'ok', value };
  let copiedTo: string;
  try {
    copiedTo = await keepCopy(path);
  } catch (copyErr) {
    // Without a copy the owner must not write the rest back: the file goes aside whole, as one that does not parse.
    const code = (copyErr as NodeJS.ErrnoException).code ?? String(copyErr);
    return moveAside(path, `${value.problem}; it could not be copied aside (${code})`, options);
  }
  options.log.error(
    { path, copiedTo, problem: value.problem },
    `${options.label} was damaged: ${path} (${value.problem}); a copy of it is kept at ${copiedTo}; ${value.kept}`,
  );
  return { status: 'salvaged', value: value.value, copiedTo };
}

/** The policy for a file that does not parse: renamed aside, one error naming both names, the owner starts empty. */
async function moveAside<T>(path: string, problem: string, options: ReadOptions<T>): Promise<DataLoad<T>> {
  let movedTo: string | undefined;
  let moveError = '';
  try {
    movedTo = await quarantine(path);
  } catch (renameErr) {
    moveError = ` and could not be moved aside (${(renameErr as NodeJS.ErrnoException).code ?? String(renameErr)})`;
  }
  const where = movedTo === undefined ? moveError : `; moved aside to ${movedTo}`;
  options.log.error({ path, movedTo, problem }, `${options.label} was corrupt: ${path} (${problem})${where}; ${options.fallback}`);
  return { status: 'corrupt', movedTo };
}

/** A JSON parser for `readDataFile` that also checks the shape. */
export function jsonOf<T>(isShape: (value: unknown) => value is T, shape: string): (text: string) => T {
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`not JSON: ${(err as Error).message}`);
    }
    if (!isShape(value)) throw new Error(`not ${shape}`);
    return value;
  };
}

/** The temp files `writeFileAtomic` makes for `path` are `.<name>.<random>.tmp` beside it. */
async function removeStaleTemps(path: string, log: Logger): Promise<void> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const temp = join(dir, name);
    try {
      if (now - (await stat(temp)).mtimeMs < STALE_TEMP_MS) continue;
      await unlink(temp);
      log.info({ path: temp }, `removed ${temp}, an unfinished write of ${path} (the power went off while writing it)`);
    } catch {
      // Gone already, or not ours to remove: either way it is never read.
    }
  }
}

/**
 * A small file made once and kept after (a bridge's pairing code, the hub's id): what it holds, or, when it is missing
 * or unreadable (moved aside by readDataFile), `make()`'s value, written there as JSON. A failed write throws, unless
 * `writeMayFail`: then the value serves this run and the next start makes another.
 */
export async function readOrCreate<T>(
  path: string,
  options: ReadOptions<T> & { readonly make: () => T; readonly writeMayFail?: boolean },
): Promise<T> {
  const loaded = await readDataFile(path, options);
  if (loaded.status === 'ok') return loaded.value;
  const value = options.make();
  const file = new DataFile({ path, log: options.log, label: options.label, render: () => `${JSON.stringify(value)}\n` });
  const saved = file.save();
  await (options.writeMayFail === true ? saved.catch(() => {}) : saved);
  await file.stop();
  return value;
}

export interface DataFileOptions {
  readonly path: string;
  readonly log: Logger;
  /** The content to write, rendered when a write starts (so a retry writes the latest); undefined when the disk already has it. */
  readonly render: () => string | undefined;
  /** Called after `content` reached the disk. */
  readonly onWritten?: (content: string) => void;
  /** What the file is, for the log. */
  readonly label: string;
  /** File mode; 0600 unless told. */
  readonly mode?: number;
  readonly writeFile?: WriteFile;
  /**
   * Long-running owners (the hub) keep their memory as the truth and write again later; `false` for one-shot
   * commands (the CLI), which must see the failure instead of exiting with the change unsaved.
   */
  readonly retry?: RetryPolicy | false;
}

/**
 * One data file's writer. Writes never interleave and never queue: each write renders the latest content,
 * so any number of changes during a write or an outage cost one write afterwards.
 */
export class DataFile {
  readonly path: string;
  private chain: Promise<void> = Promise.resolve();
  private dirty = false;
  /** The last error while writes fail; cleared by the first write that works. */
  private lastError: unknown;
  /** Logs the first failure of a run and the write that ends it, as every store does. */
  private readonly guard: WriteGuard;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private stopped = false;
  private readonly write: WriteFile;

  constructor(private readonly options: DataFileOptions) {
    this.path = options.path;
    const mode = options.mode ?? 0o600;
    this.write = options.writeFile ?? ((path, data) => writeFileAtomic(path, data, mode));
    this.guard = new WriteGuard(options.log, `${options.label} ${options.path}`);
    this.backoff = new Backoff(options.retry || DEFAULT_RETRY);
  }

  /** True while the disk refuses writes and the latest content lives only in memory. */
  get failing(): boolean {
    return this.guard.failing;
  }

  /**
   * Writes the current content. Resolves once it (or newer) is on disk; rejects when that write failed.
   * While writes fail, the content waits for the next retry and this rejects at once with the last error.
   */
  save(): Promise<void> {
    this.dirty = true;
    if (this.retryTimer !== undefined && this.guard.failing) return Promise.reject(this.lastError);
    return this.enqueue();
  }

  /** Resolves when no write is in flight. */
  async settled(): Promise<void> {
    await this.chain.catch(() => {});
  }

  /** Writes now what waits on a retry (or a save in flight) and resolves when no write is in flight. */
  async flush(): Promise<void> {
    if (this.retryTimer !== undefined) {
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.enqueue().catch(() => {});
    }
    await this.settled();
  }

  /** On stop: one last try for content still waiting on a retry, then no more timers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.flush();
  }

  private enqueue(): Promise<void> {
    this.chain = this.chain.catch(() => {}).then(() => this.attempt());
    return this.chain;
  }

  private async attempt(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    const content = this.options.render();
    if (content !== undefined) {
      try {
        await this.write(this.path, content);
      } catch (err) {
        this.dirty = true;
        this.failed(err);
        throw err;
      }
      this.options.onWritten?.(content);
    }
    this.recovered();
  }

  private failed(error: unknown): void {
    const { retry = DEFAULT_RETRY } = this.options;
    if (retry === false) return;
    this.lastError = error;
    const delayMs = this.backoff.fail();
    this.guard.failed(error, `keeping it in memory and trying again every ${seconds(retry.initialMs)} to ${seconds(retry.maxMs)}`);
    if (this.stopped || this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.enqueue().catch(() => {});
    }, delayMs);
    this.retryTimer.unref();
  }

  private recovered(): void {
    if (!this.guard.failing) return;
    this.backoff.succeed();
    this.lastError = undefined;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.guard.succeeded();
  }
}

function seconds(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
