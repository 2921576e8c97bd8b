// The long-term statistics on disk: loading at start, appending rows, purging old 5-minute files, meta.json.
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { openAppendFile } from '../storage/journal.js';
import { DAY_S, utcDayOf } from './day.js';
import { encodeRows, goodRows, lastRows, ROW_BYTES, type StatRecord } from './statistics-file.js';
import type { MetaEntry, StatisticsState } from './statistics-state.js';

/** Reads meta.json, the rows' counts (cutting torn tails) and each total's last hourly row. */
export async function loadStatistics(s: StatisticsState): Promise<void> {
  const { log } = s.options;
  await mkdir(s.dir, { recursive: true, mode: 0o700 });
  const meta = await readJsonFile<MetaEntry[]>(join(s.dir, 'meta.json'));
  if (meta.status === 'corrupt') log.error({ movedTo: meta.movedTo }, 'statistics metadata was corrupt; moved aside, starting over');
  if (meta.status === 'ok' && Array.isArray(meta.value)) for (const m of meta.value) s.addMeta(m);
  s.hourlyCount = await checkedCount(s, 'hourly.bin');
  const totals = new Set(s.metas.flatMap((m, i) => (m.kind === 'sum' ? [i] : [])));
  s.lastTotals = lastRows(join(s.dir, 'hourly.bin'), s.hourlyCount, totals);
  for (const name of await readdir(s.dir)) {
    const day = /^short-(\d{4}-\d{2}-\d{2})\.bin$/.exec(name)?.[1];
    if (day !== undefined) s.shortCounts.set(day, await checkedCount(s, name));
  }
}

/** Rows whose tail is torn by a power cut are cut off (the file is truncated to whole rows on the next append). */
async function checkedCount(s: StatisticsState, name: string): Promise<number> {
  const path = join(s.dir, name);
  const n = await goodRows(path);
  const size = await stat(path).then(
    (st) => st.size,
    () => 0,
  );
  if (size === n * ROW_BYTES) return n;
  const f = await (s.options.openFile ?? openAppendFile)(path);
  try {
    await f.truncate(n * ROW_BYTES);
  } finally {
    await f.close();
  }
  return n;
}

function failed(s: StatisticsState): void {
  s.stats.failedWrites++;
}

/** Appends the pending rows (5-minute rows to their day's file, hourly rows to hourly.bin); purges old days. */
export async function writeRows(s: StatisticsState): Promise<void> {
  if (!(await saveMeta(s))) return failed(s);
  const open = s.options.openFile ?? openAppendFile;
  const byDay = new Map<string, StatRecord[]>();
  for (const r of s.pendingShort) {
    const day = utcDayOf(r.startS * 1000);
    const list = byDay.get(day);
    if (list === undefined) byDay.set(day, [r]);
    else list.push(r);
  }
  const appendTo = async (name: string, rows: StatRecord[], count: number): Promise<boolean> =>
    s.guard.run(async () => {
      const f = await open(join(s.dir, name));
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
    const count = s.shortCounts.get(day) ?? 0;
    if (!(await appendTo(`short-${day}.bin`, rows, count))) return failed(s);
    s.shortCounts.set(day, count + rows.length);
    s.pendingShort = s.pendingShort.filter((r) => !rows.includes(r));
  }
  if (s.pendingHourly.length > 0) {
    if (!(await appendTo('hourly.bin', s.pendingHourly, s.hourlyCount))) return failed(s);
    s.hourlyCount += s.pendingHourly.length;
    s.pendingHourly = [];
  }
  s.stats.writes++;
  await purgeShortRows(s);
}

/** Drops the 5-minute files older than keepDays; hourly rows stay. */
export async function purgeShortRows(s: StatisticsState): Promise<void> {
  const cutoff = utcDayOf((s.nowS() - s.options.keepDays * DAY_S) * 1000);
  for (const day of [...s.shortCounts.keys()]) {
    if (day >= cutoff) continue;
    await unlink(join(s.dir, `short-${day}.bin`)).catch(() => {});
    s.shortCounts.delete(day);
  }
}

/** Writes meta.json when a statistic was added or renamed: before the rows that name it, never per change. */
export async function saveMeta(s: StatisticsState): Promise<boolean> {
  if (!s.metaDirty) return true;
  s.metaDirty = false;
  const ok = await s.guard.run(() => writeFileAtomic(join(s.dir, 'meta.json'), JSON.stringify(s.metas)));
  if (!ok) s.metaDirty = true;
  return ok;
}
