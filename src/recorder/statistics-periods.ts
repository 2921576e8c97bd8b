// The open periods of long-term statistics: state changes accumulated per sensor, 5-minute and hourly rows closed.
import { ownValue } from '../core/own-keys.js';
import { DAY_S } from './day.js';
import { writeRows } from './statistics-disk.js';
import type { StatRecord } from './statistics-file.js';
import { HOUR_S, type MetaEntry, SHORT_S, type StatisticsState } from './statistics-state.js';
import { COVERED, INTEGRAL, MAX, MIN, SINCE, STATE, SUM, VALUE } from './trackers.js';

/** Rows waiting for the disk (a full disk) beyond this are dropped, oldest first, and counted. */
const MAX_PENDING_ROWS = 50_000;

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

/** Counts one state of an entity at `atS` (seconds) into its open period; entities without a state_class are not kept. */
export function observe(
  s: StatisticsState,
  entityId: string,
  state: string,
  attributes: Readonly<Record<string, unknown>>,
  atS: number,
): void {
  const stateClass = attributes.state_class;
  if (stateClass !== 'measurement' && stateClass !== 'total' && stateClass !== 'total_increasing') return;
  const trackers = s.trackers;
  let t = trackers.of(entityId);
  const value = state.trim() === '' ? Number.NaN : Number(state);
  if (t === undefined) {
    if (!Number.isFinite(value)) return;
    t = track(s, entityId, stateClass, attributes);
  }
  const meta = s.metas[trackers.meta(t)] as MetaEntry;
  const unit = typeof attributes.unit_of_measurement === 'string' ? attributes.unit_of_measurement : null;
  const name = typeof attributes.friendly_name === 'string' ? attributes.friendly_name : null;
  if (meta.unit !== unit || meta.name !== name) {
    meta.unit = unit;
    meta.name = name;
    s.metaDirty = true;
  }
  // A change at or after the open period's end belongs to the next one: close what it left first.
  if (atS >= s.periodS + SHORT_S) rollTo(s, atS);
  // A clock that went back: the change counts at the period's start (rows never go back in time).
  accumulate(s, t, Math.max(atS, s.periodS));
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

function track(s: StatisticsState, entityId: string, stateClass: string, attributes: Readonly<Record<string, unknown>>): number {
  let meta = s.metaIndex.get(entityId);
  if (meta === undefined) {
    const deviceClass = typeof attributes.device_class === 'string' ? attributes.device_class : '';
    meta = s.addMeta({
      id: entityId,
      kind: stateClass === 'measurement' ? 'mean' : 'sum',
      unit: null,
      name: null,
      unitClass: ownValue(UNIT_CLASSES, deviceClass) ?? null,
      stateClass: stateClass === 'measurement' ? '' : stateClass,
    });
    s.metaDirty = true;
  }
  const t = s.trackers.add(entityId, meta, s.periodS);
  // A total continues from its last stored row after a restart: the first value is compared with it.
  const last = lastRow(s, meta);
  if (last !== undefined) {
    s.trackers.set(t, STATE, last.state);
    s.trackers.set(t, SUM, last.sum);
  }
  return t;
}

/** A total's last hourly row (its state and running sum), if any: written since start, else read at start. */
function lastRow(s: StatisticsState, meta: number): StatRecord | undefined {
  if ((s.metas[meta] as MetaEntry).kind !== 'sum') return undefined;
  for (let i = s.pendingHourly.length - 1; i >= 0; i--) if ((s.pendingHourly[i] as StatRecord).meta === meta) return s.pendingHourly[i];
  return s.lastTotals.get(meta);
}

function accumulate(s: StatisticsState, t: number, at: number): void {
  const trackers = s.trackers;
  const since = trackers.get(t, SINCE);
  const value = trackers.get(t, VALUE);
  if (at > since && Number.isFinite(value)) {
    trackers.set(t, INTEGRAL, trackers.get(t, INTEGRAL) + value * (at - since));
    trackers.set(t, COVERED, trackers.get(t, COVERED) + (at - since));
  }
  trackers.set(t, SINCE, Math.max(since, at));
}

/** Closes every 5-minute period (and hour) up to `now` (seconds); a clock that went back or jumped far is logged. */
export function rollTo(s: StatisticsState, now: number): void {
  if (now < s.periodS) {
    s.stats.backwardsClock++;
    if (!s.backwardsLogged) {
      s.backwardsLogged = true;
      s.options.log.warn('statistics: the clock went back; periods resume when it reaches the open one again');
    }
    return;
  }
  if (now - s.periodS > DAY_S) {
    // A clock set forward by a lot (a Pi without a real-time clock getting NTP after boot): no rows are made
    // up for the gap; the open period and hour are closed and counting resumes at the current period.
    const end = s.periodS + SHORT_S;
    for (let t = 0; t < s.trackers.size; t++) closePeriod(s, t, end);
    closeHour(s, end - (end % HOUR_S === 0 ? HOUR_S : end % HOUR_S));
    s.periodS = s.periodOf(now);
    for (let t = 0; t < s.trackers.size; t++) s.trackers.set(t, SINCE, s.periodS);
    s.options.log.warn({ skippedSeconds: Math.round(now - end) }, 'statistics: the clock jumped forward; no rows for the gap');
    return;
  }
  while (now >= s.periodS + SHORT_S) {
    const end = s.periodS + SHORT_S;
    for (let t = 0; t < s.trackers.size; t++) closePeriod(s, t, end);
    s.periodS = end;
    if (end % HOUR_S === 0) closeHour(s, end - HOUR_S);
  }
}

function closePeriod(s: StatisticsState, t: number, end: number): void {
  accumulate(s, t, end);
  const trackers = s.trackers;
  const meta = trackers.meta(t);
  const startS = end - SHORT_S;
  if ((s.metas[meta] as MetaEntry).kind === 'mean') {
    const covered = trackers.get(t, COVERED);
    if (covered > 0) {
      s.hourRows.push({
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
      s.hourRows.push({ meta, startS, mean: Number.NaN, min: Number.NaN, max: Number.NaN, state, sum: trackers.get(t, SUM) });
    }
  }
  trackers.set(t, INTEGRAL, 0);
  trackers.set(t, COVERED, 0);
  trackers.set(t, SINCE, end);
}

function closeHour(s: StatisticsState, hourS: number): void {
  const short = s.hourRows;
  s.hourRows = [];
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
    if ((s.metas[meta] as MetaEntry).kind === 'mean') {
      mean = rows.reduce((a, r) => a + r.mean, 0) / rows.length;
      min = Math.min(...rows.map((r) => r.min));
      max = Math.max(...rows.map((r) => r.max));
    }
    hourly.push({ meta, startS: hourS, mean, min, max, state: last.state, sum: last.sum });
  }
  s.pendingShort.push(...short);
  s.pendingHourly.push(...hourly);
  bound(s);
  s.writing = s.writing.then(() => writeRows(s));
}

function bound(s: StatisticsState): void {
  for (const list of [s.pendingShort, s.pendingHourly]) {
    const excess = list.length - MAX_PENDING_ROWS;
    if (excess > 0) {
      list.splice(0, excess);
      s.stats.droppedRows += excess;
    }
  }
}
