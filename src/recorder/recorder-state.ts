// The recorder's shared state: the hot tier, sealed chunks, day files, the journal's position and the write chain.
import { join } from 'node:path';
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import type { AppendFile, OpenAppendFile } from '../storage/journal.js';
import { WriteGuard } from '../storage/write-guard.js';
import { Backoff } from '../util/backoff.js';
import { HistoryBudget } from './budget.js';
import { ChunkCache } from './chunk-cache.js';
import type { ChunkRef, DayFile } from './segments.js';
import { SeriesWriter } from './series.js';
import type { RecorderConfig } from './types.js';

export const RECORDER_OWNER = 'recorder';
/** The series the recorder keeps events in (not an entity id: it has no dot). */
export const EVENTS = '@events';
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** In memory: the unsealed hour, chunks not yet written and the read cache; the rule is src/recorder/budget.ts. */
export const DEFAULT_MEMORY_BUDGET_BYTES = 8 * 1024 * 1024;
/** Inflated chunks kept for repeated queries (a dashboard re-asking the same day). */
const CACHE_BYTES = 2 * 1024 * 1024;
const MAX_RETRY_MS = 5 * 60_000;

export interface RecorderOptions {
  readonly core: Core;
  readonly dataDir: string;
  readonly log: Logger;
  readonly config: RecorderConfig;
  /** The journal's file operations (tests inject a full disk). */
  readonly openJournal?: OpenAppendFile;
  /** Day-file appends (tests inject a full disk). */
  readonly openDayFile?: OpenAppendFile;
  /** False in tests that drive commit() and seal() by hand. */
  readonly timers?: boolean;
  readonly memoryBudgetBytes?: number;
  /** Called after each write attempt (tests, benchmark). */
  readonly onWrite?: (kind: 'commit' | 'seal' | 'compaction' | 'failed') => void;
}

export interface RecorderStats {
  commits: number;
  seals: number;
  compactions: number;
  failedWrites: number;
  droppedPoints: number;
  /** Bytes of the journal dropped at start: damaged records and a torn tail. */
  droppedTailBytes: number;
}

/** A series being recorded, and how much of it the journal already has. */
export interface HotSeries {
  readonly writer: SeriesWriter;
  committedBytes: number;
  committedStates: number;
  committedAttrs: number;
  committedUsers: number;
}

export function newHot(): HotSeries {
  return { writer: new SeriesWriter(), committedBytes: 0, committedStates: 0, committedAttrs: 0, committedUsers: 0 };
}

/** What the recorder's parts (recording, journal, sealing, housekeeping, reading) share. */
export class RecorderState {
  readonly stats: RecorderStats = { commits: 0, seals: 0, compactions: 0, failedWrites: 0, droppedPoints: 0, droppedTailBytes: 0 };
  readonly dir: string;
  hot = new Map<string, HotSeries>();
  /** What the hot tier holds, kept as changes come (summing every series per change would cost O(entities)). */
  hotBytes = 0;
  /** Of which encoded points. */
  hotBody = 0;
  pendingBytes = 0;
  sealQueued = false;
  /** The hour (ms) the hot tier belongs to; sealed when the clock leaves it. */
  hotHour = -1;
  /** Sealed chunks per series, oldest first. */
  readonly refs = new Map<string, ChunkRef[]>();
  readonly days = new Map<string, DayFile>();
  /** Sealed but not yet on disk (the disk refuses writes), oldest first. */
  pending: ChunkRef[] = [];
  pendingEpoch = 0;
  /** The journal's records carry the epoch they belong to; a seal that reaches the disk records its epoch. */
  epoch = 1;
  /** The highest epoch the day files hold. */
  diskEpoch = 0;
  journal: AppendFile | undefined;
  journalBytes = 0;
  /** The salt of the journal's generation appends continue (src/storage/journal.ts); undefined: the next append starts one. */
  journalSalt: number | undefined;
  readonly guard: WriteGuard;
  readonly cache = new ChunkCache(CACHE_BYTES);
  retryTimer: NodeJS.Timeout | undefined;
  readonly retryBackoff: Backoff;
  writing: Promise<void> = Promise.resolve();
  running = false;
  readonly budget: HistoryBudget;
  /** The purge and compaction under way, if any (one at a time). */
  housekeeping: Promise<void> | undefined;
  /** Housekeeping asked for while it ran (a seal, the clock a day on): it runs once more after. */
  housekeepingAgain: Promise<void> | undefined;
  /** The chunks read at start have had their checksums checked (the first housekeeping does it). */
  checked = false;

  /** `retry`: what a failed write schedules (the recorder's commit, which writes what is pending too). */
  constructor(
    readonly options: RecorderOptions,
    private readonly retry: () => void,
  ) {
    this.dir = join(options.dataDir, 'recorder');
    this.guard = new WriteGuard(options.log, 'history');
    this.budget = new HistoryBudget(options.memoryBudgetBytes ?? DEFAULT_MEMORY_BUDGET_BYTES, options.log);
    this.retryBackoff = new Backoff({ initialMs: options.config.commitIntervalS * 1000, maxMs: MAX_RETRY_MS });
  }

  nowMs(): number {
    return Math.floor(this.options.core.clock.now() / 1000);
  }

  hourOf(ms: number): number {
    return ms - (ms % HOUR_MS);
  }

  refsOf(id: string): ChunkRef[] {
    let list = this.refs.get(id);
    if (list === undefined) {
      list = [];
      this.refs.set(id, list);
    }
    return list;
  }

  /** Bytes the recorder holds for history: the hot tier, chunks waiting for the disk, the read cache. */
  memoryBytes(): number {
    return this.hotBytes + this.pendingBytes + this.cache.bytes;
  }

  /** Recounts the bytes of chunks sealed in memory that wait for the disk, after the list changed. */
  recountPending(): void {
    let n = 0;
    for (const ref of this.pending) n += ref.length;
    this.pendingBytes = n;
  }

  failed(): void {
    this.stats.failedWrites++;
    this.options.onWrite?.('failed');
    if (!this.running || this.retryTimer !== undefined) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.retry();
    }, this.retryBackoff.fail());
    this.retryTimer.unref();
  }

  succeeded(kind: 'commit' | 'seal' | 'compaction'): void {
    this.retryBackoff.succeed();
    this.options.onWrite?.(kind);
  }
}
