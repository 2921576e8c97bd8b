import { type FSWatcher, type Stats, statSync, watch } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Logger } from '../core/log.js';

/**
 * A data file that another process (the CLI: `hearth token`, `hearth unban`, `hearth user`) may replace while
 * the hub runs, and how the hub notices: a watch on the directory, and a stamp telling one version of the file
 * from another.
 */

/** One version of a file on disk: an atomic write makes a new inode, an in-place one a new size or time. */
export type FileStamp = string;

function stampOfStats(st: Stats): FileStamp {
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The file's stamp now; undefined when it does not exist or cannot be read (the caller keeps what it has). */
export function fileStampSync(path: string): FileStamp | undefined {
  try {
    return stampOfStats(statSync(path));
  } catch {
    return undefined;
  }
}

/** fileStampSync off the event loop. */
export async function fileStamp(path: string): Promise<FileStamp | undefined> {
  try {
    return stampOfStats(await stat(path));
  } catch {
    return undefined;
  }
}

/** How long a burst of events (a rename comes with a change, a write in several parts) must be quiet. */
const SETTLE_MS = 50;

export interface WatchedFileOptions {
  readonly log: Logger;
  /** What a user loses while the watch does not run, for the warning (e.g. "unbans need a restart"). */
  readonly withoutWatch: string;
}

/**
 * Watches `<dir>/<name>` through its directory (an atomic write replaces the file, which a watch on the file
 * itself would lose) and calls `changed` once the events for that name have been quiet for 50 ms. The watch
 * keeps no process alive. A directory that cannot be watched, or a watch that fails later, is logged once
 * with what that costs the user; the hub carries on.
 */
export class WatchedFile {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly changed: () => void,
    private readonly options: WatchedFileOptions,
  ) {}

  start(): void {
    if (this.watcher !== undefined) return;
    try {
      this.watcher = watch(this.dir, { persistent: false }, (_event, filename) => {
        if (filename !== this.name) return;
        if (this.timer !== undefined) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.changed();
        }, SETTLE_MS);
        this.timer.unref();
      });
      this.watcher.on('error', (err) => {
        this.options.log.warn({ err }, `stopped watching ${this.name}; ${this.options.withoutWatch}`);
        this.stop();
      });
    } catch (err) {
      this.options.log.warn({ err }, `cannot watch ${this.name}; ${this.options.withoutWatch}`);
    }
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
