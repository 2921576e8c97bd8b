// The recorder's housekeeping: checking chunks once, purging days past retention, compacting finished days.
import { join } from 'node:path';
import { keepCopy } from '../storage/keep-copy.js';
import { checkChunks } from './chunk-check.js';
import { mergeDay, swapDay } from './day-compaction.js';
import { removeCopiesBefore } from './day-copies.js';
import { visitChunk } from './reading.js';
import { DAY_MS, type RecorderState } from './recorder-state.js';
import { type DayFile, dayOf, removeDayFile, replaceDayFile, sealRecords, settle } from './segments.js';

/** Checks the chunks found at start (once), purges days past retention and compacts finished days; one at a time, in the background. */
export function housekeeping(s: RecorderState): Promise<void> {
  if (s.housekeeping !== undefined) {
    s.housekeepingAgain ??= s.housekeeping.then(() => {
      s.housekeepingAgain = undefined;
      return housekeeping(s);
    });
    return s.housekeepingAgain;
  }
  s.housekeeping = checkOnce(s)
    .then(() => purge(s))
    .then(() => compactFinishedDays(s))
    .catch((err: unknown) => s.options.log.error({ err }, 'history housekeeping failed; retried at the next seal'))
    .finally(() => {
      s.housekeeping = undefined;
    });
  return s.housekeeping;
}

/**
 * Once after start: checks the checksums of the chunks found (src/recorder/chunk-check.ts), and removes
 * copies of damaged files past retention whose day file is gone (purge removes the others with their day).
 */
async function checkOnce(s: RecorderState): Promise<void> {
  if (s.checked) return;
  s.checked = true;
  await checkChunks(s.dir, s.refs.values(), s.options.log);
  await removeCopiesBefore(s.dir, dayOf(s.nowMs() - s.options.config.purgeKeepDays * DAY_MS));
}

/** Drops the day files older than purge_keep_days (with the copies kept of them). */
export async function purge(s: RecorderState): Promise<void> {
  const cutoff = dayOf(s.nowMs() - s.options.config.purgeKeepDays * DAY_MS);
  for (const day of [...s.days.keys()]) {
    if (day >= cutoff) continue;
    await removeDayFile(s.dir, day);
    s.days.delete(day);
  }
  for (const [id, list] of s.refs) {
    const kept = list.filter((r) => r.day >= cutoff);
    if (kept.length === 0) s.refs.delete(id);
    else if (kept.length !== list.length) s.refs.set(id, kept);
  }
  s.pending = s.pending.filter((r) => r.day >= cutoff);
  s.recountPending();
}

async function compactFinishedDays(s: RecorderState): Promise<void> {
  const today = dayOf(s.nowMs());
  for (const file of [...s.days.values()]) {
    if (file.compacted || file.day >= today) continue;
    await compactDay(s, file);
  }
}

/**
 * Rewrites a finished day with one chunk per series (damaged chunks left out, after a copy of the file is
 * kept). While the new file is written, queries read the merged chunks from memory: no query reads the file
 * through offsets it no longer has. The write waits for seals, and a seal that appended to the day
 * meanwhile makes this attempt give way to the next.
 */
async function compactDay(s: RecorderState, file: DayFile): Promise<void> {
  // Taken before the merge reads the day's chunks: a seal written while it merges (its chunks were still in
  // memory, so left out) changes the size, and this attempt gives way instead of dropping them in the swap.
  const size = file.size;
  const { merged, damaged } = await mergeDay(s.refs, file.day, (ref, visit) => visitChunk(s, ref, visit));
  const content = sealRecords(merged, 0, s.diskEpoch, true, true);
  s.writing = s.writing.then(async () => {
    if (file.size !== size || s.days.get(file.day) !== file || !s.running) return;
    const before = swapDay(s.refs, file.day, merged);
    const ok = await s.guard.run(async () => {
      if (damaged || file.damaged) await keepCopy(join(s.dir, `${file.day}.seg`));
      await replaceDayFile(s.dir, file.day, content);
    });
    if (!ok) {
      for (const [id, list] of before) s.refs.set(id, list);
      return;
    }
    settle(merged);
    s.cache.clear();
    file.size = content.length;
    file.compacted = true;
    file.damaged = false;
    s.stats.compactions++;
    s.succeeded('compaction');
  });
  await s.writing;
}
