import { HubError } from '../../core/errors.js';
import type { StatisticPeriod, StatisticRow, StatisticsReader } from '../../recorder/types.js';
import { checkOrder, endTime, startTime } from '../history/period.js';
import { command, userOf } from './command.js';
import type { Command, Connection } from './connection.js';
import { object, oneOf, optional, required, str, strList } from './schema.js';

const PERIODS = ['5minute', 'hour', 'day', 'week', 'month'] as const;
const TYPES = ['change', 'last_reset', 'max', 'mean', 'min', 'state', 'sum'] as const;
type StatType = (typeof TYPES)[number];
/** How far before the start the row a `change` is taken against may lie. */
const LOOKBACK_US: Readonly<Record<StatisticPeriod, number>> = {
  '5minute': 300e6,
  hour: 3600e6,
  day: 86_400e6 * 2,
  week: 86_400e6 * 8,
  month: 86_400e6 * 32,
};

function statisticsOf(conn: Connection): StatisticsReader {
  const statistics = conn.env.ctx.statistics;
  if (statistics === undefined) throw new HubError('unknown_command', 'Unknown command.');
  return statistics;
}

function num(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? 'null' : String(v);
}

/** `recorder/list_statistic_ids`, as Home Assistant lists them. */
const listStatisticIds = command({ statistic_type: optional(oneOf(['mean', 'sum'] as const)) }, (conn, msg, id) => {
  userOf(conn);
  const items = statisticsOf(conn)
    .list(msg.statistic_type)
    .map((m) =>
      JSON.stringify({
        statistic_id: m.statisticId,
        display_unit_of_measurement: m.unit,
        has_mean: m.hasMean,
        has_sum: m.hasSum,
        mean_type: m.hasMean ? 1 : 0,
        name: m.name,
        source: 'recorder',
        statistics_unit_of_measurement: m.unit,
        unit_class: m.unitClass,
      }),
    );
  conn.sendResult(id, `[${items.join(',')}]`);
});

function rowJson(row: StatisticRow, previous: StatisticRow | undefined, types: ReadonlySet<StatType>, hasMean: boolean): string {
  let out = `{"start":${row.startUs / 1000},"end":${row.endUs / 1000}`;
  if (hasMean) {
    if (types.has('mean')) out += `,"mean":${num(row.mean)}`;
    if (types.has('min')) out += `,"min":${num(row.min)}`;
    if (types.has('max')) out += `,"max":${num(row.max)}`;
  } else {
    if (types.has('last_reset')) out += `,"last_reset":${row.lastResetUs == null ? 'null' : row.lastResetUs / 1000}`;
    if (types.has('state')) out += `,"state":${num(row.state)}`;
    if (types.has('sum')) out += `,"sum":${num(row.sum)}`;
    if (types.has('change')) {
      const base = previous?.sum ?? 0;
      out += `,"change":${row.sum == null ? 'null' : num(row.sum - base)}`;
    }
  }
  return `${out}}`;
}

/**
 * `recorder/statistics_during_period`: `{"<statistic_id>": [{"start": ms, "end": ms, ...}]}` with only the asked
 * `types` the statistic has; ids without rows are left out.
 */
const statisticsDuringPeriod = command(
  {
    start_time: required(str),
    end_time: optional(str),
    statistic_ids: required(strList(1000)),
    period: required(oneOf(PERIODS)),
    units: optional(object),
    types: optional(strList(TYPES.length)),
  },
  (conn, msg, id) => {
    userOf(conn);
    const statistics = statisticsOf(conn);
    const startUs = startTime(msg.start_time);
    const endUs = msg.end_time === undefined ? undefined : endTime(msg.end_time);
    if (endUs !== undefined) checkOrder(startUs, endUs);
    for (const t of msg.types ?? []) {
      if (!(TYPES as readonly string[]).includes(t))
        throw new HubError('invalid_format', `types: ${JSON.stringify(t)} is not one of ${TYPES.join(', ')}`);
    }
    const types = new Set<StatType>((msg.types as StatType[] | undefined) ?? TYPES);
    const metas = new Map(statistics.list().map((m) => [m.statisticId, m]));
    const rows = statistics.during(msg.statistic_ids, startUs - LOOKBACK_US[msg.period], endUs, msg.period);
    const parts: string[] = [];
    for (const [sid, list] of rows) {
      const hasMean = metas.get(sid)?.hasMean ?? true;
      const out: string[] = [];
      let previous: StatisticRow | undefined;
      for (const row of list) {
        if (row.startUs >= startUs) out.push(rowJson(row, previous, types, hasMean));
        previous = row;
      }
      if (out.length > 0) parts.push(`${JSON.stringify(sid)}:[${out.join(',')}]`);
    }
    conn.sendResult(id, `{${parts.join(',')}}`);
  },
);

export const STATISTICS_COMMANDS: ReadonlyArray<readonly [string, Command]> = [
  ['recorder/list_statistic_ids', listStatisticIds],
  ['recorder/statistics_during_period', statisticsDuringPeriod],
];
