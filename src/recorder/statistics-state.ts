// The long-term statistics' shared state: the statistics known, the open period's trackers, rows not yet written.
import { join } from 'node:path';
import type { Core } from '../core/core.js';
import type { Logger } from '../core/log.js';
import type { OpenAppendFile } from '../storage/journal.js';
import { WriteGuard } from '../storage/write-guard.js';
import type { StatRecord } from './statistics-file.js';
import { TrackerTable } from './trackers.js';

export const STATISTICS_OWNER = 'statistics';
export const SHORT_S = 300;
export const HOUR_S = 3600;

export type Kind = 'mean' | 'sum';

export interface MetaEntry {
  readonly id: string;
  readonly kind: Kind;
  unit: string | null;
  name: string | null;
  unitClass: string | null;
  /** `total` (a reset through last_reset) or `total_increasing` (a drop is a reset); null for measurements. */
  stateClass: string;
}

export interface StatisticsOptions {
  readonly core: Core;
  readonly dataDir: string;
  readonly log: Logger;
  /** How long 5-minute rows are kept (the recorder's purge_keep_days); hourly rows are kept for good. */
  readonly keepDays: number;
  /** The hub's time zone offsets, for day, week and month rollups. */
  readonly offsetSeconds?: (utcSeconds: number) => number;
  /** False in tests that call rollover() after moving the clock. */
  readonly timers?: boolean;
  readonly openFile?: OpenAppendFile;
}

/** What the statistics' parts (periods, files, reading) share. */
export class StatisticsState {
  readonly stats = { writes: 0, failedWrites: 0, droppedRows: 0, backwardsClock: 0 };
  readonly dir: string;
  readonly metas: MetaEntry[] = [];
  readonly metaIndex = new Map<string, number>();
  readonly trackers = new TrackerTable();
  /** The open 5-minute period's start (seconds). */
  periodS = -1;
  /** Closed 5-minute rows of the open hour, and rows not yet written. */
  hourRows: StatRecord[] = [];
  pendingShort: StatRecord[] = [];
  pendingHourly: StatRecord[] = [];
  hourlyCount = 0;
  readonly shortCounts = new Map<string, number>();
  /** Each total's last stored hourly row at start, where its running sum continues from. */
  lastTotals = new Map<number, StatRecord>();
  readonly guard: WriteGuard;
  writing: Promise<void> = Promise.resolve();
  backwardsLogged = false;
  /** A statistic was added or its unit or name changed since meta.json was written. */
  metaDirty = false;

  constructor(readonly options: StatisticsOptions) {
    this.dir = join(options.dataDir, 'recorder', 'statistics');
    this.guard = new WriteGuard(options.log, 'statistics');
  }

  nowS(): number {
    return this.options.core.clock.now() / 1_000_000;
  }

  periodOf(s: number): number {
    return Math.floor(s / SHORT_S) * SHORT_S;
  }

  addMeta(m: MetaEntry): number {
    const index = this.metas.length;
    this.metas.push(m);
    this.metaIndex.set(m.id, index);
    return index;
  }
}
