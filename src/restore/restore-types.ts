// The restore state's public types: what is stored of an entity, the store's options, write results and figures.
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import type { Attributes } from '../core/state.js';
import type { OpenAppendFile } from '../storage/journal.js';

/** What is kept of one entity: its state, the attributes that are not fixed, and when it was last written. */
export interface StoredState {
  readonly state: string;
  readonly attributes: Attributes;
  /** Epoch ms of the change, for expiry. */
  readonly at: number;
}

export interface RestoreStateOptions {
  readonly core: Core;
  readonly dataDir: string;
  readonly log: Logger;
  /** How long a change may wait to be written (coalescing every change in between); `hub: restore_flush_s`. */
  readonly flushWindowS?: number;
  /** The same for changes no service call asked for (a device's own reports); `hub: restore_report_flush_s`. */
  readonly reportWindowS?: number;
  /** false: no flush timers; the caller drives writes with flushIfDue() on a manual clock (the benchmark). */
  readonly timers?: boolean;
  /** How long an entity shown as restored waits for its driver's first report before it is `unavailable`. */
  readonly reportDeadlineMs?: number;
  /** The journal's file operations (tests inject a full disk). */
  readonly openJournal?: OpenAppendFile;
  /** The snapshot's atomic write (tests inject a full disk). */
  readonly writeSnapshot?: (path: string, data: string) => Promise<void>;
  /** Journal size below which it is never compacted (tests and the benchmark make it small). */
  readonly compactMinBytes?: number;
  /** Called after every write attempt with what it was and the entity ids it carried (tests, benchmark). */
  readonly onWrite?: (result: WriteResult) => void;
}

export interface WriteResult {
  readonly kind: 'append' | 'compaction' | 'failed';
  /** The changes the write carried: the last state of each entity that changed since the previous write. */
  readonly changes: ReadonlyMap<string, StoredState>;
}

/** Disk figures, for the benchmark and the fault-injection tests. */
export interface RestoreStateStats {
  appends: number;
  compactions: number;
  failedWrites: number;
  /** Bytes of the journal dropped at start: damaged records and a torn tail. */
  droppedTailBytes: number;
}
