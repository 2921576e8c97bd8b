// The recorder component: the facade over recording, the journal, sealing, housekeeping and reading.
import type { Micros } from '../core/clock.js';
import type { Component } from '../core/component.js';
import { makeDir } from '../storage/storage-fs.js';
import { scanDays } from './day-scan.js';
import { housekeeping, purge } from './housekeeping.js';
import { entitiesDuring, forEachEvent, oldestUs, visitSeries } from './reading.js';
import { commit, openJournal, replayJournal } from './recorder-journal.js';
import { RECORDER_OWNER, type RecorderOptions, RecorderState, type RecorderStats } from './recorder-state.js';
import { ChangeRecorder } from './recording.js';
import { seal } from './sealing.js';
import { removeTempFiles } from './segments.js';
import type { EventVisitor, HistoryReader, StateVisitor } from './types.js';

export { DEFAULT_MEMORY_BUDGET_BYTES, RECORDER_OWNER, type RecorderOptions, type RecorderStats } from './recorder-state.js';

/**
 * The recorder: every state change of the included entities and every event, kept for `purge_keep_days`.
 *
 * Three tiers, so that the disk sees few, small writes: the current hour in memory, encoded a few bytes a
 * point (src/recorder/series.ts); a write-ahead journal appended every `commit_interval` with what came since
 * (one deflated record, so a power cut loses at most that window; src/recorder/recorder-journal.ts); and day
 * files of sealed, deflated chunks, appended once an hour (src/recorder/sealing.ts) and rewritten once per
 * finished day with one chunk per entity (src/recorder/housekeeping.ts). Queries read memory and the few
 * chunks they need, synchronously (src/recorder/reading.ts). The parts share one RecorderState.
 */
export class Recorder implements Component, HistoryReader {
  readonly name = RECORDER_OWNER;
  readonly owner = RECORDER_OWNER;
  readonly stats: RecorderStats;
  private readonly state: RecorderState;
  private readonly recording: ChangeRecorder;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RecorderOptions) {
    this.state = new RecorderState(options, () => void this.commit());
    this.stats = this.state.stats;
    this.recording = new ChangeRecorder(this.state);
  }

  // --- Component -------------------------------------------------------------------------------------

  async start(): Promise<void> {
    const { core, log } = this.options;
    const s = this.state;
    try {
      await makeDir(s.dir);
      await removeTempFiles(s.dir);
      const scan = await scanDays(s.dir, log);
      for (const [day, file] of scan.days) s.days.set(day, file);
      for (const ref of scan.refs) s.refsOf(ref.entityId).push(ref);
      for (const list of s.refs.values()) list.sort((a, b) => a.firstMs - b.firstMs);
      s.epoch = scan.sealedEpoch + 1;
      s.diskEpoch = scan.sealedEpoch;
      await replayJournal(s, scan.sealedEpoch);
    } catch (err) {
      log.error({ err }, 'history could not be read; recording from now on');
    }
    // Loading cut off a damaged journal's tail already (or, when it could not, appends go after it and are read).
    await openJournal(s);
    core.bus.on(RECORDER_OWNER, 'state_changed', (event) => this.recording.onStateChanged(event));
    core.bus.on(RECORDER_OWNER, '*', (event) => this.recording.onEvent(event));
    s.running = true;
    if (this.options.timers !== false) {
      this.timer = setInterval(() => void this.tick(), this.options.config.commitIntervalS * 1000);
      this.timer.unref();
    }
    void this.housekeeping();
  }

  /** Writes what is buffered to the journal and closes it. */
  async stop(): Promise<void> {
    const s = this.state;
    if (!s.running) return;
    s.running = false;
    this.options.core.bus.removeOwner(RECORDER_OWNER);
    clearInterval(this.timer);
    clearTimeout(s.retryTimer);
    await this.commit();
    await s.writing;
    await s.journal?.close().catch(() => {});
    s.journal = undefined;
  }

  /** Resolves when the writes under way (commits, seals) are done. */
  settled(): Promise<void> {
    return this.state.writing;
  }

  /** The commit timer: seal when the hour is over, else append what came since the last commit. */
  tick(): Promise<void> {
    const s = this.state;
    const hour = s.hourOf(s.nowMs());
    return hour !== s.hotHour && s.hot.size > 0 ? this.seal() : this.commit();
  }

  // --- Recording and writes --------------------------------------------------------------------------

  /** Whether the recorder keeps this entity's changes. */
  records(entityId: string): boolean {
    return this.recording.records(entityId);
  }

  /** Bytes the recorder holds for history: the hot tier, chunks waiting for the disk, the read cache. */
  memoryBytes(): number {
    return this.state.memoryBytes();
  }

  /** Appends everything since the last commit to the journal (one record); resolves when written or failed. */
  commit(): Promise<void> {
    return commit(this.state);
  }

  /** Seals the hour (or, `early`, the hot tier grown past its mark): its chunks go to the day files, and the journal starts over. */
  seal(early = false): Promise<void> {
    return seal(this.state, early);
  }

  /** Checks the chunks found at start (once), purges days past retention and compacts finished days; one at a time, in the background. */
  housekeeping(): Promise<void> {
    return housekeeping(this.state);
  }

  /** Drops the day files older than purge_keep_days (with the copies kept of them). */
  purge(): Promise<void> {
    return purge(this.state);
  }

  // --- Reading ---------------------------------------------------------------------------------------

  oldestUs(): Micros {
    return oldestUs(this.state);
  }

  forEachState(entityId: string, startUs: Micros, endUs: Micros, initial: boolean, visit: StateVisitor): number {
    return visitSeries(this.state, entityId, startUs, endUs, initial, visit);
  }

  forEachEvent(startUs: Micros, endUs: Micros, visit: EventVisitor): void {
    forEachEvent(this.state, startUs, endUs, visit);
  }

  entitiesDuring(startUs: Micros, endUs: Micros): string[] {
    return entitiesDuring(this.state, startUs, endUs);
  }
}
