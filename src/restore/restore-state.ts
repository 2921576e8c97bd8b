// The restore state component: stored states shown while their drivers start, re-applied, and changes kept.
import type { Component } from '../core/component.js';
import { type Context, createContext } from '../core/context.js';
import { type Entity, type EntityRestoreHook, UNAVAILABLE, UNKNOWN } from '../core/entities.js';
import type { FirstReportHook } from '../core/entity.js';
import type { HubEvent } from '../core/event-bus.js';
import { type JsonObject, jsonEqual } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { type Attributes, State } from '../core/state.js';
import { Backoff } from '../util/backoff.js';
import { RestoreDisk } from './restore-disk.js';
import { applyStoredState, isRestorable, restoresItself } from './restore-policy.js';
import type { RestoreStateOptions, RestoreStateStats, StoredState } from './restore-types.js';

export type { RestoreStateOptions, RestoreStateStats, StoredState, WriteResult } from './restore-types.js';

/** The owner key of the store's listeners. */
export const RESTORE_STATE_OWNER = 'restore_state';
export const DEFAULT_FLUSH_WINDOW_MS = 5000;
/**
 * A device's own reports (a sensor-driven switch, a relay toggled at the wall) are written within this: the
 * device tells its state again after a restart, and a flood of them must not cost a page every 5 s.
 */
export const DEFAULT_REPORT_WINDOW_MS = 60_000;
/** The hub's driver start deadline: an entity its driver has not reported by then is `unavailable`. */
export const DEFAULT_REPORT_DEADLINE_MS = 10_000;
const MAX_RETRY_MS = 60_000;

/**
 * Keeps the last state of every restorable entity and brings it back after a restart (Home Assistant's
 * RestoreEntity). A long-lived component: storage starts first and stops last.
 *
 * Writes: changes are coalesced in memory and written within the flush window as ONE journal record of the
 * entities that changed (a few hundred bytes, whatever the number of entities); the journal is folded into
 * an atomically written snapshot only when it outgrows a few times the snapshot. Nothing is written while
 * nothing changes. Disk errors are logged once; the store serves from memory and retries, and the write
 * after a failure is a compaction, so a partly appended record never sits in the middle of the journal.
 *
 * Restoring: an entity with a stored state shows it, with `restored: true`, from the moment it is added
 * until its driver first reports; the stored state is then re-applied through the entity's platform
 * (applyStoredState). An entity whose driver has not reported within the report deadline is `unavailable`.
 * The re-apply runs right after the first report is written, and what it changes before it first waits
 * reaches listeners with that report as one change (StateTable.coalesce): a helper's default, or a driver's
 * report of a device the restore switches at once, is stale the moment it is written, so the recorder, the
 * WebSocket API and automations see the restored state follow the shown one, with nothing in between. A
 * device that answers later (a radio round trip) was in its reported state meanwhile, and that is published.
 */
export class RestoreState implements EntityRestoreHook, Component {
  readonly name = RESTORE_STATE_OWNER;
  readonly stats: RestoreStateStats = { appends: 0, compactions: 0, failedWrites: 0, droppedTailBytes: 0 };
  private readonly flushWindowMs: number;
  private readonly reportWindowMs: number;
  private readonly reportDeadlineMs: number;
  private readonly disk: RestoreDisk;
  /** The last state of every restorable entity, loaded at start and kept current. */
  private readonly stored = new Map<string, StoredState>();
  /**
   * Changed since the last write: the state as reported (turned into a StoredState only when written, so a
   * flood of changes costs a Map.set each), or a StoredState a failed write left for the next one.
   */
  private dirty = new Map<string, State | StoredState>();
  /** Entities shown with their stored state, waiting for their driver's first report. */
  private readonly awaiting = new Map<string, { entity: Entity; stored: StoredState; timer: NodeJS.Timeout | undefined }>();
  private flushTimer: NodeJS.Timeout | undefined;
  /** The window the pending flush timer was set for, and when (core clock, µs) it fires. */
  private timerWindowMs = Number.POSITIVE_INFINITY;
  private dueAtUs = Number.POSITIVE_INFINITY;
  private readonly retryBackoff: Backoff;
  private writing: Promise<void> = Promise.resolve();
  private running = false;

  constructor(private readonly options: RestoreStateOptions) {
    this.flushWindowMs = options.flushWindowS === undefined ? DEFAULT_FLUSH_WINDOW_MS : options.flushWindowS * 1000;
    this.reportWindowMs = Math.max(
      this.flushWindowMs,
      options.reportWindowS === undefined ? DEFAULT_REPORT_WINDOW_MS : options.reportWindowS * 1000,
    );
    this.reportDeadlineMs = options.reportDeadlineMs ?? DEFAULT_REPORT_DEADLINE_MS;
    this.retryBackoff = new Backoff({ initialMs: this.flushWindowMs, maxMs: MAX_RETRY_MS });
    this.disk = new RestoreDisk(options, this.stats, this.stored);
  }

  /** Creates and starts the store. */
  static async open(options: RestoreStateOptions): Promise<RestoreState> {
    const store = new RestoreState(options);
    await store.start();
    return store;
  }

  /** The stored state of an entity (what a restart would bring back). */
  get(entityId: string): StoredState | undefined {
    const pending = this.dirty.get(entityId);
    return pending === undefined ? this.stored.get(entityId) : this.materialize(entityId, pending);
  }

  get size(): number {
    return this.stored.size;
  }

  async start(): Promise<void> {
    try {
      await this.disk.load();
    } catch (err) {
      // An unreadable data dir must not keep the hub from starting: nothing is restored, changes are kept in memory.
      this.options.log.error({ err }, 'restore state could not be read; starting without it');
    }
    // Loading cut off a damaged journal's tail already (or, when it could not, appends go after it and are read).
    if (!(await this.disk.openJournal())) this.disk.needsCompaction = true;
    const { core } = this.options;
    core.bus.on(RESTORE_STATE_OWNER, 'state_changed', (event) => this.onStateChanged(event));
    core.entities.setRestoreHook(this);
    this.running = true;
    // Entities added before the store started (none when storage starts first) are restored as they report.
    for (const entity of core.entities.all()) this.added(entity);
  }

  /** Writes what is pending (the last changes before the hub stopped) and closes the journal. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    const { core } = this.options;
    core.bus.removeOwner(RESTORE_STATE_OWNER);
    core.entities.setRestoreHook(undefined);
    for (const { entity, timer } of this.awaiting.values()) {
      clearTimeout(timer);
      entity.awaitFirstReport(undefined);
    }
    this.awaiting.clear();
    this.clearFlushTimer();
    await this.flush();
    await this.disk.close();
  }

  /** Writes the pending changes now (the flush window's timer calls this); resolves when they are written or failed. */
  flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writeOnce());
    return this.writing;
  }

  /** Flushes when the pending changes' window has passed on the core clock (the benchmark's simulated hour). */
  flushIfDue(): Promise<void> | undefined {
    return this.options.core.clock.now() >= this.dueAtUs ? this.flush() : undefined;
  }

  // --- Entities hook ---------------------------------------------------------------------------------

  added(entity: Entity): void {
    if (entity.detached || !isRestorable(entity)) return;
    const stored = this.stored.get(entity.id);
    if (stored === undefined || this.awaiting.has(entity.id)) return;
    const timer = setTimeout(() => this.reportDeadlinePassed(entity), this.reportDeadlineMs);
    timer.unref();
    this.awaiting.set(entity.id, { entity, stored, timer });
    entity.awaitFirstReport(this.firstReport);
    // Home Assistant's ATTR_RESTORED: the last known state, marked, until the device answers.
    this.options.core.states.set(entity.id, stored.state, { ...entity.fixed, ...stored.attributes, restored: true });
  }

  removed(entity: Entity): void {
    entity.awaitFirstReport(undefined);
    const waiting = this.awaiting.get(entity.id);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    this.awaiting.delete(entity.id);
  }

  /** The first report of an entity shown with its stored state (Entity.awaitFirstReport). */
  private readonly firstReport: FirstReportHook = {
    // A platform that restores itself (a helper) may start `unknown` (an input_text without `initial`): that is its
    // first report. A driver's `unknown` is not: it waits for the device to tell a value.
    answers: (entity, state) => state !== UNAVAILABLE && (state !== UNKNOWN || restoresItself(entity)),
    restore: (entity) => {
      const waiting = this.awaiting.get(entity.id);
      if (waiting === undefined || waiting.entity !== entity) return;
      clearTimeout(waiting.timer);
      this.awaiting.delete(entity.id);
      // The device answers, so the stored state goes back to it.
      void this.reapply(entity, waiting.stored);
    },
  };

  /** The driver never reported: the device is missing, so the entity says so (a later report still restores it). */
  private reportDeadlinePassed(entity: Entity): void {
    const waiting = this.awaiting.get(entity.id);
    if (waiting === undefined) return;
    waiting.timer = undefined;
    if (this.options.core.entities.get(entity.id) === entity) entity.markUnavailable();
  }

  // --- Recording -------------------------------------------------------------------------------------

  private onStateChanged(event: HubEvent<'state_changed'>): void {
    const { entity_id: id, new_state: next } = event.data;
    if (next === null) return; // Removed: the stored state stays for when the entity comes back.
    const { core } = this.options;
    const entity = core.entities.get(id);
    if (entity === undefined || !isRestorable(entity)) return;
    // Nothing a user set: no value, the stored state shown (known by its mark, not by when it is delivered), or
    // anything written before the device answered.
    if (next.state === UNAVAILABLE || next.state === UNKNOWN || next.attributes.restored === true) return;
    if (this.awaiting.size > 0 && this.awaiting.has(id)) return;
    // Outputs driven to their safe state while the hub stops are not what the user set.
    if (core.runState === 'STOPPING' || core.runState === 'STOPPED') return;
    // What a user or an automation asked for gets the short window; a device's own report the long one.
    const asked = next.context.user_id !== null || entity.followsCall(next.context) || restoresItself(entity);
    this.record(next, asked ? this.flushWindowMs : this.reportWindowMs);
  }

  private record(state: State, windowMs: number): void {
    this.dirty.set(state.entity_id, state);
    this.scheduleFlush(windowMs);
  }

  /** Makes sure a flush happens within `windowMs`: a change with a shorter window moves a pending flush earlier. */
  private scheduleFlush(windowMs: number): void {
    // The hot path (a flood of reports while their flush is pending) is this one comparison.
    if (!this.running || windowMs >= this.timerWindowMs) return;
    const now = this.options.core.clock.now();
    const due = now + windowMs * 1000;
    if (due >= this.dueAtUs) return;
    clearTimeout(this.flushTimer);
    this.timerWindowMs = windowMs;
    this.dueAtUs = due;
    if (this.options.timers === false) return;
    this.flushTimer = setTimeout(() => {
      this.clearFlushTimer();
      void this.flush();
    }, windowMs);
  }

  private clearFlushTimer(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.timerWindowMs = Number.POSITIVE_INFINITY;
    this.dueAtUs = Number.POSITIVE_INFINITY;
  }

  private async reapply(entity: Entity, stored: StoredState): Promise<void> {
    const { core, log } = this.options;
    const context: Context = createContext(core.clock.now());
    try {
      await applyStoredState(core, entity, { state: stored.state, attributes: stored.attributes as JsonObject }, context);
    } catch (err) {
      log.warn({ err, entity_id: entity.id }, `could not restore ${entity.id} to its last state`);
    }
    // Whatever the device does now is the state to keep.
    const now = core.states.get(entity.id);
    if (now !== undefined && now.state !== UNAVAILABLE && now.state !== UNKNOWN && this.running) {
      this.record(now, this.flushWindowMs);
    }
  }

  /** What is kept of a reported state (and `stored` from now on): the state and the attributes that are not fixed. */
  private materialize(id: string, pending: State | StoredState): StoredState {
    if (!(pending instanceof State)) return pending;
    const fixed = this.options.core.entities.get(id)?.fixed ?? {};
    const own: Record<string, Attributes[string]> = {};
    for (const [key, value] of Object.entries(pending.attributes)) {
      // Fixed attributes (capabilities, friendly_name) come from the driver again; storing them would only cost bytes.
      if (Object.hasOwn(fixed, key) && jsonEqual(fixed[key], value)) continue;
      if (key === 'restored') continue;
      setOwn(own, key, value);
    }
    const entry: StoredState = { state: pending.state, attributes: own, at: Math.floor(pending.lastUpdatedUs / 1000) };
    this.stored.set(id, entry);
    this.dirty.set(id, entry);
    return entry;
  }

  /** Takes the changes since the last write, as StoredStates. */
  private takeDirty(): Map<string, StoredState> {
    const batch = new Map<string, StoredState>();
    for (const [id, pending] of this.dirty) batch.set(id, this.materialize(id, pending));
    this.dirty = new Map();
    // Everything pending goes with this write: the next change starts a new window.
    this.clearFlushTimer();
    return batch;
  }

  // --- Disk ------------------------------------------------------------------------------------------

  private async writeOnce(): Promise<void> {
    if (this.dirty.size === 0 && !this.disk.needsCompaction) return;
    if (!(await this.disk.ready())) {
      this.failed(this.takeDirty());
      return;
    }
    const batch = this.takeDirty();
    const kind = await this.disk.write(batch);
    if (kind !== undefined) {
      this.retryBackoff.succeed();
      this.options.onWrite?.({ kind, changes: batch });
      return;
    }
    this.failed(batch);
  }

  /** A write failed: keep its batch for the next attempt (under anything that changed since) and retry later. */
  private failed(batch: Map<string, StoredState>): void {
    this.stats.failedWrites++;
    this.options.onWrite?.({ kind: 'failed', changes: batch });
    for (const [id, entry] of batch) if (!this.dirty.has(id)) this.dirty.set(id, entry);
    this.disk.needsCompaction = true;
    if (this.running && this.flushTimer === undefined) {
      this.scheduleFlush(this.retryBackoff.fail());
    }
  }
}
