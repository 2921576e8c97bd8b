import { DAY_S } from './day.js';
import type { StatRecord } from './statistics-file.js';

/**
 * Day, week (from Monday) and month rows from hourly ones, in the hub's local time: per statistic and period, the
 * mean of the means, the extremes, and the last state and sum. `offset` is the time zone's offset in seconds at a
 * UTC time (a DST day is 23 or 25 hours long).
 */
export function rollup(
  rows: readonly StatRecord[],
  period: 'day' | 'week' | 'month',
  offset: (utcSeconds: number) => number,
): (StatRecord & { endS: number })[] {
  const groups = new Map<string, { startS: number; endS: number; rows: StatRecord[] }>();
  for (const r of rows) {
    const local = r.startS + offset(r.startS);
    const localDay = Math.floor(local / DAY_S);
    let fromLocal: number;
    let toLocal: number;
    if (period === 'day') {
      fromLocal = localDay * DAY_S;
      toLocal = fromLocal + DAY_S;
    } else if (period === 'week') {
      const monday = localDay - ((localDay + 3) % 7);
      fromLocal = monday * DAY_S;
      toLocal = fromLocal + 7 * DAY_S;
    } else {
      const d = new Date(localDay * DAY_S * 1000);
      fromLocal = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
      toLocal = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
    }
    // Local midnight back to UTC with the offset in force then (a DST day is 23 or 25 hours long).
    const startS = fromLocal - offset(fromLocal - offset(r.startS));
    const endS = toLocal - offset(toLocal - offset(r.startS));
    const key = `${r.meta}:${startS}`;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, { startS, endS, rows: [r] });
    else g.rows.push(r);
  }
  const out: (StatRecord & { endS: number })[] = [];
  for (const { startS, endS, rows: rs } of groups.values()) {
    const last = rs[rs.length - 1] as StatRecord;
    const means = rs.filter((r) => Number.isFinite(r.mean));
    out.push({
      meta: last.meta,
      startS,
      endS,
      mean: means.length === 0 ? Number.NaN : means.reduce((a, r) => a + r.mean, 0) / means.length,
      min: Math.min(...rs.map((r) => r.min)),
      max: Math.max(...rs.map((r) => r.max)),
      state: last.state,
      sum: last.sum,
    });
  }
  return out.sort((a, b) => a.startS - b.startS);
}
