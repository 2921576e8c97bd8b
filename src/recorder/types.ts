import type { Micros } from '../core/clock.js';
import type { Context } from '../core/context.js';

/**
 * What the API and the dashboard read from the recorder (history, logbook) and from long-term statistics.
 * The recorder (src/recorder/recorder.ts) and the statistics (src/recorder/statistics.ts) implement these;
 * src/api reads only through them, so the storage behind can change without touching an endpoint.
 *
 * Reads are synchronous on purpose: recent history is in memory, older chunks are a few kilobytes read
 * with one positional read each, and a visitor lets the API build its JSON without an object per state
 * (86,400 states of one entity are answered in well under 100 ms).
 */

/** One recorded state, handed to a visitor. `attributesJson` is the attributes' JSON text ('{}' for none). */
export type StateVisitor = (
  state: string,
  attributesJson: string,
  lastChangedUs: Micros,
  lastUpdatedUs: Micros,
  /**
   * The change's context, kept only for entities the logbook shows (not continuous: no
   * `unit_of_measurement` and no `state_class`, as Home Assistant's logbook decides); null for the others,
   * whose numeric series would otherwise pay 16 bytes a point for an id nobody reads.
   */
  context: Context | null,
) => void;

/** One recorded event (every type but `state_changed` and the recorder's excluded event types). */
export type EventVisitor = (eventType: string, dataJson: string, timeFiredUs: Micros, context: Context) => void;

export interface HistoryReader {
  /** Whether the recorder keeps this entity's changes (its include/exclude filter). */
  records(entityId: string): boolean;
  /** The oldest instant still kept (now minus purge_keep_days, or the first record when younger). */
  oldestUs(): Micros;
  /**
   * Visits the states of one entity whose last_updated is in [startUs, endUs), oldest first. With
   * `initial`, first visits the state the entity was in at startUs (its last recorded state before it),
   * when there is one, with its own timestamps (the API clamps them to the start as Home Assistant does).
   * Returns how many states were visited.
   */
  forEachState(entityId: string, startUs: Micros, endUs: Micros, initial: boolean, visit: StateVisitor): number;
  /** Entity ids with at least one recorded state in [startUs, endUs), for a logbook without an entity filter. */
  entitiesDuring(startUs: Micros, endUs: Micros): string[];
  /** Visits the recorded events fired in [startUs, endUs), oldest first. */
  forEachEvent(startUs: Micros, endUs: Micros, visit: EventVisitor): void;
}

/** Home Assistant's statistics periods (`recorder/statistics_during_period`). */
export type StatisticPeriod = '5minute' | 'hour' | 'day' | 'week' | 'month';
export type StatisticType = 'mean' | 'min' | 'max' | 'sum' | 'state' | 'change' | 'last_reset';

/** One statistic id as `recorder/list_statistic_ids` reports it. */
export interface StatisticMeta {
  readonly statisticId: string;
  readonly name: string | null;
  readonly unit: string | null;
  readonly unitClass: string | null;
  readonly hasMean: boolean;
  readonly hasSum: boolean;
}

/** One aggregated row; only the values the statistic has (mean/min/max for measurements, state/sum for totals). */
export interface StatisticRow {
  readonly startUs: Micros;
  readonly endUs: Micros;
  readonly mean?: number | null;
  readonly min?: number | null;
  readonly max?: number | null;
  readonly sum?: number | null;
  readonly state?: number | null;
  readonly lastResetUs?: Micros | null;
}

export interface StatisticsReader {
  list(type?: 'mean' | 'sum'): StatisticMeta[];
  /**
   * Rows of each asked statistic with start in [startUs, endUs) (to now when endUs is undefined), in the
   * period asked; day, week and month are aggregated from hourly rows in the hub's time zone.
   */
  during(statisticIds: readonly string[], startUs: Micros, endUs: Micros | undefined, period: StatisticPeriod): Map<string, StatisticRow[]>;
}

/** The `recorder:` section, validated (src/recorder/config.ts). */
export interface RecorderConfig {
  /** On by default (no `recorder:` section); `recorder: {enabled: false}` turns it off. */
  readonly enabled: boolean;
  readonly purgeKeepDays: number;
  /** Seconds between writes of buffered changes to disk. */
  readonly commitIntervalS: number;
  readonly include: EntityFilterConfig;
  readonly exclude: EntityFilterConfig & { readonly eventTypes: readonly string[] };
}

export interface EntityFilterConfig {
  readonly domains: readonly string[];
  readonly entities: readonly string[];
  readonly entityGlobs: readonly string[];
}
