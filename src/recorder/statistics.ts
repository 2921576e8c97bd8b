// The long-term statistics component: the facade over its periods, disk and reading.
import type { Micros } from '../core/clock.js';
import type { Component } from '../core/component.js';
import { loadStatistics, purgeShortRows, saveMeta } from './statistics-disk.js';
import { observe, rollTo } from './statistics-periods.js';
import { listStatistics, statisticsDuring } from './statistics-reading.js';
import { SHORT_S, STATISTICS_OWNER, type StatisticsOptions, StatisticsState } from './statistics-state.js';
import type { StatisticMeta, StatisticPeriod, StatisticRow, StatisticsReader } from './types.js';

export { STATISTICS_OWNER, type StatisticsOptions } from './statistics-state.js';

/**
 * Long-term statistics (Home Assistant's recorder statistics): for sensors with a `state_class`, 5-minute and
 * hourly rows of the time-weighted mean, min and max (measurements), or the last state and the running sum
 * of increases (totals; a drop of a `total_increasing` meter is a reset). Hourly rows are kept after the raw
 * history is purged. Rows are written once an hour, appended as fixed-size checked rows (a few KB an hour).
 * The parts share one StatisticsState: periods (statistics-periods.ts), disk (statistics-disk.ts), reading.
 */
export class Statistics implements Component, StatisticsReader {
  readonly name = STATISTICS_OWNER;
  readonly owner = STATISTICS_OWNER;
  readonly stats: StatisticsState['stats'];
  private readonly state: StatisticsState;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: StatisticsOptions) {
    this.state = new StatisticsState(options);
    this.stats = this.state.stats;
  }

  async start(): Promise<void> {
    const { core, log } = this.options;
    const s = this.state;
    try {
      await loadStatistics(s);
    } catch (err) {
      log.error({ err }, 'statistics could not be read; starting without them');
    }
    s.periodS = s.periodOf(s.nowS());
    core.bus.on(STATISTICS_OWNER, 'state_changed', (event) => {
      const next = event.data.new_state;
      if (next !== null) observe(s, next.entity_id, next.state, next.attributes, next.lastUpdatedUs / 1_000_000);
    });
    for (const state of core.states.statesArray()) observe(s, state.entity_id, state.state, state.attributes, s.nowS());
    if (this.options.timers !== false) this.schedule();
  }

  async stop(): Promise<void> {
    this.options.core.bus.removeOwner(STATISTICS_OWNER);
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.state.writing;
    await saveMeta(this.state);
  }

  private schedule(): void {
    const s = this.state;
    const next = (s.periodS + SHORT_S - s.nowS()) * 1000;
    this.timer = setTimeout(
      () => {
        void this.rollover();
        this.schedule();
      },
      Math.max(1000, next + 50),
    );
    this.timer.unref();
  }

  /** Closes every 5-minute period (and hour) the clock has left; the timer calls it, tests too. */
  rollover(): Promise<void> {
    rollTo(this.state, this.state.nowS());
    return this.state.writing;
  }

  /** Drops the 5-minute files older than keepDays; hourly rows stay. */
  purge(): Promise<void> {
    return purgeShortRows(this.state);
  }

  // --- Reading ---------------------------------------------------------------------------------------

  list(type?: 'mean' | 'sum'): StatisticMeta[] {
    return listStatistics(this.state, type);
  }

  during(
    statisticIds: readonly string[],
    startUs: Micros,
    endUs: Micros | undefined,
    period: StatisticPeriod,
  ): Map<string, StatisticRow[]> {
    return statisticsDuring(this.state, statisticIds, startUs, endUs, period);
  }
}
