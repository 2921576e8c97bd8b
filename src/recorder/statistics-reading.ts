// Reading long-term statistics: the StatisticsReader queries over the row files and the rows still in memory.
import { join } from 'node:path';
import type { Micros } from '../core/clock.js';
import { DAY_S } from './day.js';
import { readRows, type StatRecord } from './statistics-file.js';
import { rollup } from './statistics-rollup.js';
import { HOUR_S, type MetaEntry, SHORT_S, type StatisticsState } from './statistics-state.js';
import type { StatisticMeta, StatisticPeriod, StatisticRow } from './types.js';

function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

export function listStatistics(s: StatisticsState, type?: 'mean' | 'sum'): StatisticMeta[] {
  return s.metas
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

export function statisticsDuring(
  s: StatisticsState,
  statisticIds: readonly string[],
  startUs: Micros,
  endUs: Micros | undefined,
  period: StatisticPeriod,
): Map<string, StatisticRow[]> {
  const fromS = Math.floor(startUs / 1_000_000);
  const toS = endUs === undefined ? 2 ** 32 - 1 : Math.ceil(endUs / 1_000_000);
  const wanted = new Map<number, string>();
  for (const id of statisticIds) {
    const m = s.metaIndex.get(id);
    if (m !== undefined) wanted.set(m, id);
  }
  const out = new Map<string, StatisticRow[]>();
  if (wanted.size === 0) return out;
  const rows = period === '5minute' ? shortRows(s, fromS, toS) : hourlyRows(s, period === 'hour' ? fromS : fromS - 14 * DAY_S, toS);
  const picked = rows.filter((r) => wanted.has(r.meta));
  const grouped = period === '5minute' || period === 'hour' ? picked : rollup(picked, period, s.options.offsetSeconds ?? (() => 0));
  const length = period === '5minute' ? SHORT_S : HOUR_S;
  for (const r of grouped) {
    if (r.startS < fromS || r.startS >= toS) continue;
    const id = wanted.get(r.meta) as string;
    const meta = s.metas[r.meta] as MetaEntry;
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

function shortRows(s: StatisticsState, fromS: number, toS: number): StatRecord[] {
  const out: StatRecord[] = [];
  for (const day of [...s.shortCounts.keys()].sort()) {
    const dayStart = Date.parse(`${day}T00:00:00Z`) / 1000;
    if (dayStart + DAY_S <= fromS || dayStart >= toS) continue;
    out.push(...readRows(join(s.dir, `short-${day}.bin`), s.shortCounts.get(day) ?? 0, fromS, toS));
  }
  for (const r of [...s.pendingShort, ...s.hourRows]) if (r.startS >= fromS && r.startS < toS) out.push(r);
  return out;
}

function hourlyRows(s: StatisticsState, fromS: number, toS: number): StatRecord[] {
  const out = readRows(join(s.dir, 'hourly.bin'), s.hourlyCount, Math.max(0, fromS), toS);
  for (const r of s.pendingHourly) if (r.startS >= fromS && r.startS < toS) out.push(r);
  return out;
}
