import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Micros } from '../core/clock.js';
import type { Component } from '../core/component.js';
import type { Core } from '../core/core.js';
import type { HubEvent } from '../core/event-bus.js';
import type { Logger } from '../core/log.js';
import { ownValue } from '../core/own-keys.js';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { type OpenAppendFile, openAppendFile } from '../storage/journal.js';
import { WriteGuard } from '../storage/write-guard.js';
import { DAY_S, utcDayOf } from './day.js';
import { encodeRows, goodRows, lastRows, ROW_BYTES, readRows, type StatRecord } from './statistics-file.js';
import { rollup } from './statistics-rollup.js';
import { COVERED, INTEGRAL, MAX, MIN, SINCE, STATE, SUM, TrackerTable, VALUE } from './trackers.js';
import type { StatisticMeta, StatisticPeriod, StatisticRow, StatisticsReader } from './types.js';

export const STATISTICS_OWNER = 'statistics';
const SHORT_S = 300;
const HOUR_S = 3600;
/** Rows waiting for the disk (a full disk) beyond this are dropped, oldest first, and counted. */
const MAX_PENDING_ROWS = 50_000;

type Kind = 'mean' | 'sum';

interface MetaEntry {
  readonly id: string;
  readonly kind: Kind;
  unit: string | null;
  name: string | null;
  unitClass: string | null;
  /** `total` (a reset through last_reset) or `total_increasing` (a drop is a reset); null for measurements. */
  stateClass: string;
}

/** Device classes Home Assistant gives a unit class (sensor/const.py UNIT_CONVERTERS). */
const UNIT_CLASSES: Readonly<Record<string, string>> = {
  energy: 'energy',
  power: 'power',
  temperature: 'temperature',
  pressure: 'pressure',
  voltage: 'voltage',
  current: 'electric_current',
  gas: 'volume',
  water: 'volume',
  volume: 'volume',
  distance: 'distance',
  speed: 'speed',
  weight: 'mass',
  humidity: 'unitless',
  battery: 'unitless',
};

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

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

/**
 * Long-term statistics (Home Assistant's recorder statistics): for sensors with a `state_class`, 5-minute and
 * hourly rows of the time-weighted mean, min and max (measurements), or the last state and the running sum
 * of increases (totals; a drop of a `total_increasing` meter is a reset). Hourly rows are kept after the raw
 * history is purged. Rows are written once an hour, appended as fixed-size checked rows (a few KB an hour).
 */
export class Statistics implements Component, StatisticsReader {
  readonly name = STATISTICS_OWNER;
  readonly owner = STATISTICS_OWNER;
  readonly stats = { writes: 0, failedWrites: 0, droppedRows: 0, backwardsClock: 0 };
  private readonly dir: string;
  private readonly metas: MetaEntry[] = [];
  private readonly metaIndex = new Map<string, number>();
  private readonly trackers = new TrackerTable();
  /** The open 5-minute period's start (seconds). */
  private periodS = -1;
  /** Closed 5-minute rows of the open hour, and rows not yet written. */
  private hourRows: StatRecord[] = [];
  private pendingShort: StatRecord[] = [];
  private pendingHourly: StatRecord[] = [];
  private hourlyCount = 0;
  private readonly shortCounts = new Map<string, number>();
  /** Each total's last stored hourly row at start, where its running sum continues from. */
  private lastTotals = new Map<number, StatRecord>();
  private readonly guard: WriteGuard;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private backwardsLogged = false;
  /** A statistic was added or its unit or name changed since meta.json was written. */
  private metaDirty = false;

  constructor(private readonly options: StatisticsOptions) {
    this.dir = join(options.dataDir, 'recorder', 'statistics');
    this.guard = new WriteGuard(options.log, 'statistics');
  }

  async start(): Promise<void> {
    const { core, log } = this.options;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      const meta = await readJsonFile<MetaEntry[]>(join(this.dir, 'meta.json'));
      if (meta.status === 'corrupt') log.error({ movedTo: meta.movedTo }, 'statistics metadata was corrupt; moved aside, starting over');
      if (meta.status === 'ok' && Array.isArray(meta.value)) for (const m of meta.value) this.addMeta(m);
      this.hourlyCount = await this.checkedCount('hourly.bin');
      const totals = new Set(this.metas.flatMap((m, i) => (m.kind === 'sum' ? [i] : [])));
      this.lastTotals = lastRows(join(this.dir, 'hourly.bin'), this.hourlyCount, totals);
      for (const name of await readdir(this.dir)) {
        const day = /^short-(\d{4}-\d{2}-\d{2})\.bin$/.exec(name)?.[1];
        if (day !== undefined) this.shortCounts.set(day, await this.checkedCount(name));
      }
    } catch (err) {
      log.error({ err }, 'statistics could not be read; starting without them');
    }
    this.periodS = this.periodOf(this.nowS());
    core.bus.on(STATISTICS_OWNER, 'state_changed', (event) => this.onStateChanged(event));
    for (const state of core.states.statesArray()) this.observe(state.entity_id, state.state, state.attributes, this.nowS());
    if (this.options.timers !== false) this.schedule();
  }

  async stop(): Promise<void> {
    this.options.core.bus.removeOwner(STATISTICS_OWNER);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    await this.saveMeta();
  }

  /** Rows whose tail is torn by a power cut are cut off (the file is truncated to whole rows on the next append). */
  private async checkedCount(name: string): Promise<number> {
    const path = join(this.dir, name);
    const n = await goodRows(path);
    const size = await stat(path).then(
      (s) => s.size,
      () => 0,
    );
    if (size === n * ROW_BYTES) return n;
    const f = await (this.options.openFile ?? openAppendFile)(path);
    try {
      await f.truncate(n * ROW_BYTES);
    } finally {
      await f.close();
    }
    return n;
  }

  private nowS(): number {
    return this.options.core.clock.now() / 1_000_000;
  }

  private periodOf(s: number): number {
    return Math.floor(s / SHORT_S) * SHORT_S;
  }

  private schedule(): void {
    const next = (this.periodS + SHORT_S - this.nowS()) * 1000;
    this.timer = setTimeout(
      () => {
        void this.rollover();
        this.schedule();
      },
      Math.max(1000, next + 50),
    );
    this.timer.unref();
  }

  private addMeta(m: MetaEntry): number {
    const index = this.metas.length;
    this.metas.push(m);
    this.metaIndex.set(m.id, index);
    return index;
  }

  private onStateChanged(event: HubEvent<'state_changed'>): void {
    const s = event.data.new_state;
    if (s === null) return;
    this.observe(s.entity_id, s.state, s.attributes, s.lastUpdatedUs / 1_000_000);
  }

  private observe(entityId: string, state: string, attributes: Readonly<Record<string, unknown>>, atS: number): void {
    const stateClass = attributes.state_class;
    if (stateClass !== 'measurement' && stateClass !== 'total' && stateClass !== 'total_increasing') return;
    const trackers = this.trackers;
    let t = trackers.of(entityId);
    const value = state.trim() === '' ? Number.NaN : Number(state);
    if (t === undefined) {
      if (!Number.isFinite(value)) return;
      t = this.track(entityId, stateClass, attributes);
    }
    const meta = this.metas[trackers.meta(t)] as MetaEntry;
    const unit = typeof attributes.unit_of_measurement === 'string' ? attributes.unit_of_measurement : null;
    const name = typeof attributes.friendly_name === 'string' ? attributes.friendly_name : null;
    if (meta.unit !== unit || meta.name !== name) {
      meta.unit = unit;
      meta.name = name;
      this.metaDirty = true;
    }
    // A change at or after the open period's end belongs to the next one: close what it left first.
    if (atS >= this.periodS + SHORT_S) this.rollTo(atS);
    // A clock that went back: the change counts at the period's start (rows never go back in time).
    this.accumulate(t, Math.max(atS, this.periodS));
    if (meta.kind === 'mean') {
      trackers.set(t, VALUE, value);
      if (Number.isFinite(value)) {
        trackers.set(t, MIN, Math.min(trackers.get(t, MIN), value));
        trackers.set(t, MAX, Math.max(trackers.get(t, MAX), value));
      }
      return;
    }
    if (!Number.isFinite(value)) return;
    const lastReset = typeof attributes.last_reset === 'string' ? attributes.last_reset : null;
    const previous = trackers.get(t, STATE);
    trackers.set(t, STATE, value);
    const previousReset = trackers.lastReset(t);
    trackers.setLastReset(t, lastReset);
    if (Number.isNaN(previous)) return;
    const reset = meta.stateClass === 'total_increasing' ? value < previous : lastReset !== previousReset;
    trackers.set(t, SUM, trackers.get(t, SUM) + (reset ? Math.max(value, 0) : value - previous));
  }

  private track(entityId: string, stateClass: string, attributes: Readonly<Record<string, unknown>>): number {
    let meta = this.metaIndex.get(entityId);
    if (meta === undefined) {
      const deviceClass = typeof attributes.device_class === 'string' ? attributes.device_class : '';
      meta = this.addMeta({
        id: entityId,
        kind: stateClass === 'measurement' ? 'mean' : 'sum',
        unit: null,
        name: null,
        unitClass: ownValue(UNIT_CLASSES, deviceClass) ?? null,
        stateClass: stateClass === 'measurement' ? '' : stateClass,
      });
      this.metaDirty = true;
    }
    const t = this.trackers.add(entityId, meta, this.periodS);
    // A total continues from its last stored row after a restart: the first value is compared with it.
    const last = this.lastRow(meta);
    if (last !== undefined) {
      this.trackers.set(t, STATE, last.state);
      this.trackers.set(t, SUM, last.sum);
    }
    return t;
  }

  /** A total's last hourly row (its state and running sum), if any: written since start, else read at start. */
  private lastRow(meta: number): StatRecord | undefined {
    if ((this.metas[meta] as MetaEntry).kind !== 'sum') return undefined;
    for (let i = this.pendingHourly.length - 1; i >= 0; i--)
      if ((this.pendingHourly[i] as StatRecord).meta === meta) return this.pendingHourly[i];
    return this.lastTotals.get(meta);
  }

  private accumulate(t: number, at: number): void {
    const trackers = this.trackers;
    const since = trackers.get(t, SINCE);
    const value = trackers.get(t, VALUE);
    if (at > since && Number.isFinite(value)) {
      trackers.set(t, INTEGRAL, trackers.get(t, INTEGRAL) + value * (at - since));
      trackers.set(t, COVERED, trackers.get(t, COVERED) + (at - since));
    }
    trackers.set(t, SINCE, Math.max(since, at));
  }

  /** Closes every 5-minute period (and hour) the clock has left; the timer calls it, tests too. */
  rollover(): Promise<void> {
    this.rollTo(this.nowS());
    return this.writing;
  }

  private rollTo(now: number): void {
    if (now < this.periodS) {
      this.stats.backwardsClock++;
      if (!this.backwardsLogged) {
        this.backwardsLogged = true;
        this.options.log.warn('statistics: the clock went back; periods resume when it reaches the open one again');
      }
      return;
    }
    if (now - this.periodS > DAY_S) {
      // A clock set forward by a lot (a Pi without a real-time clock getting NTP after boot): no rows are made
      // up for the gap; the open period and hour are closed and counting resumes at the current period.
      const end = this.periodS + SHORT_S;
      for (let t = 0; t < this.trackers.size; t++) this.closePeriod(t, end);
      this.closeHour(end - (end % HOUR_S === 0 ? HOUR_S : end % HOUR_S));
      this.periodS = this.periodOf(now);
      for (let t = 0; t < this.trackers.size; t++) this.trackers.set(t, SINCE, this.periodS);
      this.options.log.warn({ skippedSeconds: Math.round(now - end) }, 'statistics: the clock jumped forward; no rows for the gap');
      return;
    }
    while (now >= this.periodS + SHORT_S) {
      const end = this.periodS + SHORT_S;
      for (let t = 0; t < this.trackers.size; t++) this.closePeriod(t, end);
      this.periodS = end;
      if (end % HOUR_S === 0) this.closeHour(end - HOUR_S);
    }
  }

  private closePeriod(t: number, end: number): void {
    this.accumulate(t, end);
    const trackers = this.trackers;
    const meta = trackers.meta(t);
    const startS = end - SHORT_S;
    if ((this.metas[meta] as MetaEntry).kind === 'mean') {
      const covered = trackers.get(t, COVERED);
      if (covered > 0) {
        this.hourRows.push({
          meta,
          startS,
          mean: trackers.get(t, INTEGRAL) / covered,
          min: trackers.get(t, MIN),
          max: trackers.get(t, MAX),
          state: Number.NaN,
          sum: Number.NaN,
        });
      }
      // The next period starts with the value in force.
      const value = trackers.get(t, VALUE);
      trackers.set(t, MIN, Number.isFinite(value) ? value : Number.POSITIVE_INFINITY);
      trackers.set(t, MAX, Number.isFinite(value) ? value : Number.NEGATIVE_INFINITY);
    } else {
      const state = trackers.get(t, STATE);
      if (Number.isFinite(state)) {
        this.hourRows.push({ meta, startS, mean: Number.NaN, min: Number.NaN, max: Number.NaN, state, sum: trackers.get(t, SUM) });
      }
    }
    trackers.set(t, INTEGRAL, 0);
    trackers.set(t, COVERED, 0);
    trackers.set(t, SINCE, end);
  }

  private closeHour(hourS: number): void {
    const short = this.hourRows;
    this.hourRows = [];
    const byMeta = new Map<number, StatRecord[]>();
    for (const r of short) {
      const list = byMeta.get(r.meta);
      if (list === undefined) byMeta.set(r.meta, [r]);
      else list.push(r);
    }
    const hourly: StatRecord[] = [];
    for (const [meta, rows] of byMeta) {
      const last = rows[rows.length - 1] as StatRecord;
      let mean = Number.NaN;
      let min = Number.NaN;
      let max = Number.NaN;
      if ((this.metas[meta] as MetaEntry).kind === 'mean') {
        mean = rows.reduce((a, r) => a + r.mean, 0) / rows.length;
        min = Math.min(...rows.map((r) => r.min));
        max = Math.max(...rows.map((r) => r.max));
      }
      hourly.push({ meta, startS: hourS, mean, min, max, state: last.state, sum: last.sum });
    }
    this.pendingShort.push(...short);
    this.pendingHourly.push(...hourly);
    this.bound();
    this.writing = this.writing.then(() => this.write());
  }

  private bound(): void {
    for (const list of [this.pendingShort, this.pendingHourly]) {
      const excess = list.length - MAX_PENDING_ROWS;
      if (excess > 0) {
        list.splice(0, excess);
        this.stats.droppedRows += excess;
      }
    }
  }

  /** Appends the pending rows (5-minute rows to their day's file, hourly rows to hourly.bin); purges old days. */
  private async write(): Promise<void> {
    if (!(await this.saveMeta())) return this.failed();
    const open = this.options.openFile ?? openAppendFile;
    const byDay = new Map<string, StatRecord[]>();
    for (const r of this.pendingShort) {
      const day = utcDayOf(r.startS * 1000);
      const list = byDay.get(day);
      if (list === undefined) byDay.set(day, [r]);
      else list.push(r);
    }
    const appendTo = async (name: string, rows: StatRecord[], count: number): Promise<boolean> =>
      this.guard.run(async () => {
        const f = await open(join(this.dir, name));
        try {
          await f.append(encodeRows(rows));
        } catch (err) {
          await f.truncate(count * ROW_BYTES).catch(() => {});
          throw err;
        } finally {
          await f.close().catch(() => {});
        }
      });
    for (const [day, rows] of byDay) {
      const count = this.shortCounts.get(day) ?? 0;
      if (!(await appendTo(`short-${day}.bin`, rows, count))) return this.failed();
      this.shortCounts.set(day, count + rows.length);
      this.pendingShort = this.pendingShort.filter((r) => !rows.includes(r));
    }
    if (this.pendingHourly.length > 0) {
      if (!(await appendTo('hourly.bin', this.pendingHourly, this.hourlyCount))) return this.failed();
      this.hourlyCount += this.pendingHourly.length;
      this.pendingHourly = [];
    }
    this.stats.writes++;
    await this.purge();
  }

  private failed(): void {
    this.stats.failedWrites++;
  }

  /** Drops the 5-minute files older than keepDays; hourly rows stay. */
  async purge(): Promise<void> {
    const cutoff = utcDayOf((this.nowS() - this.options.keepDays * DAY_S) * 1000);
    for (const day of [...this.shortCounts.keys()]) {
      if (day >= cutoff) continue;
      await unlink(join(this.dir, `short-${day}.bin`)).catch(() => {});
      this.shortCounts.delete(day);
    }
  }

  /** Writes meta.json when a statistic was added or renamed: before the rows that name it, never per change. */
  private async saveMeta(): Promise<boolean> {
    if (!this.metaDirty) return true;
    this.metaDirty = false;
    const ok = await this.guard.run(() => writeFileAtomic(join(this.dir, 'meta.json'), JSON.stringify(this.metas)));
    if (!ok) this.metaDirty = true;
    return ok;
  }

  // --- Reading ---------------------------------------------------------------------------------------

  list(type?: 'mean' | 'sum'): StatisticMeta[] {
    return this.metas
      .filter((m) => type === undefined || m.kind === type)
      .map((m) => ({
        statisticId: m.id,
        name: m.name,
        unit: m.unit,
        unitClass: m.unitClass,
        hasMean: m.kind === 'mean',
        hasSum: m.kind === 'sum',
      }));
  }

  during(
    statisticIds: readonly string[],
    startUs: Micros,
    endUs: Micros | undefined,
    period: StatisticPeriod,
  ): Map<string, StatisticRow[]> {
    const fromS = Math.floor(startUs / 1_000_000);
    const toS = endUs === undefined ? 2 ** 32 - 1 : Math.ceil(endUs / 1_000_000);
    const wanted = new Map<number, string>();
    for (const id of statisticIds) {
      const m = this.metaIndex.get(id);
      if (m !== undefined) wanted.set(m, id);
    }
    const out = new Map<string, StatisticRow[]>();
    if (wanted.size === 0) return out;
    const rows = period === '5minute' ? this.shortRows(fromS, toS) : this.hourlyRows(period === 'hour' ? fromS : fromS - 14 * DAY_S, toS);
    const picked = rows.filter((r) => wanted.has(r.meta));
    const grouped = period === '5minute' || period === 'hour' ? picked : rollup(picked, period, this.options.offsetSeconds ?? (() => 0));
    const length = period === '5minute' ? SHORT_S : HOUR_S;
    for (const r of grouped) {
      if (r.startS < fromS || r.startS >= toS) continue;
      const id = wanted.get(r.meta) as string;
      const meta = this.metas[r.meta] as MetaEntry;
      const endS = 'endS' in r ? (r as StatRecord & { endS: number }).endS : r.startS + length;
      const row: StatisticRow =
        meta.kind === 'mean'
          ? { startUs: r.startS * 1_000_000, endUs: endS * 1_000_000, mean: finite(r.mean), min: finite(r.min), max: finite(r.max) }
          : { startUs: r.startS * 1_000_000, endUs: endS * 1_000_000, state: finite(r.state), sum: finite(r.sum), lastResetUs: null };
      const list = out.get(id);
      if (list === undefined) out.set(id, [row]);
      else list.push(row);
    }
    return out;
  }

  private shortRows(fromS: number, toS: number): StatRecord[] {
    const out: StatRecord[] = [];
    for (const day of [...this.shortCounts.keys()].sort()) {
      const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
      if (dayStart + DAY_S <= fromS || dayStart >= toS) continue;
      out.push(...readRows(join(this.dir, `short-${day}.bin`), this.shortCounts.get(day) ?? 0, fromS, toS));
    }
    for (const r of [...this.pendingShort, ...this.hourRows]) if (r.startS >= fromS && r.startS < toS) out.push(r);
    return out;
  }

  private hourlyRows(fromS: number, toS: number): StatRecord[] {
    const out = readRows(join(this.dir, 'hourly.bin'), this.hourlyCount, Math.max(0, fromS), toS);
    for (const r of this.pendingHourly) if (r.startS >= fromS && r.startS < toS) out.push(r);
    return out;
  }
}
