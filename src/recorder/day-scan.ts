import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import { keepCopy } from '../storage/keep-copy.js';
import { quarantine } from '../storage/quarantine.js';
import type { ChunkRef, DayFile } from './chunk-ref.js';
import { cutFile } from './day-copies.js';
import { type DayScan, type Orphan, scanDayFile } from './day-file-reader.js';

/**
 * Start-up over the day files (src/recorder/segments.ts): each is read (src/recorder/day-file-reader.ts),
 * what checks out is served, blobs whose index is missing are served when that shows no point twice, and
 * only a file's end is ever cut: a seal a crash interrupted, or damage nothing readable follows, after a copy
 * of the file is kept (src/recorder/day-copies.ts). A file nothing could be read from is moved aside.
 */

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.seg$/;

export interface ScanResult {
  readonly days: Map<string, DayFile>;
  readonly refs: ChunkRef[];
  readonly sealedEpoch: number;
}

interface Scanned {
  readonly name: string;
  readonly day: string;
  readonly path: string;
  readonly scan: DayScan;
  /** Blobs without an index that are served. */
  readonly kept: Orphan[];
  /** Of which the last seal's, whose index a crash or power cut kept from the disk. */
  readonly finished: Orphan[];
}

/**
 * Reads every day file's indexes; reads on past damage, serves what checks out, keeps a copy of a file before
 * cutting its damaged or unfinished end, and moves aside a file nothing could be read from.
 */
export async function scanDays(dir: string, log: Logger): Promise<ScanResult> {
  const days = new Map<string, DayFile>();
  const refs: ChunkRef[] = [];
  const scanned: Scanned[] = [];
  const names = (await readdir(dir)).filter((n) => DAY_FILE.test(n)).sort();
  for (const name of names) {
    const day = (DAY_FILE.exec(name) as RegExpExecArray)[1] as string;
    const path = join(dir, name);
    try {
      scanned.push({ name, day, path, scan: await scanDayFile(path, day), kept: [], finished: [] });
    } catch (err) {
      const movedTo = await quarantine(path).catch(() => undefined);
      log.error(
        { err, path, movedTo },
        `history file ${name} could not be read (${(err as Error).message}); moved aside, its history is not served`,
      );
    }
  }
  let sealedEpoch = 0;
  for (const { scan } of scanned) sealedEpoch = Math.max(sealedEpoch, scan.epoch);
  sealedEpoch = adoptOrphans(scanned, sealedEpoch);
  for (const file of scanned) {
    const size = await settleFile(file, log);
    if (size === 0) continue;
    const damaged = file.kept.length > 0 || file.scan.damage.some((d) => d.to <= size);
    days.set(file.day, { day: file.day, size, compacted: file.scan.compacted && !damaged, damaged });
    // One by one: a day of many entities' seals has more chunks than a call takes arguments.
    for (const ref of file.scan.refs) refs.push(ref);
    for (const orphan of file.kept) for (const ref of orphan.refs) refs.push(ref);
  }
  return { days, refs, sealedEpoch };
}

/**
 * Decides which blobs without an index are served; returns the sealed epoch with them. A seal that never
 * finished is in the write-ahead journal, which replays it: serving its blob too would show its points twice.
 * So a blob is served when a later seal finished (its epoch is at most the sealed one: the journal no longer
 * has it) and no index in its file carries its epoch (the journal's replay sealed it again), or when it is
 * the last part of its seal and whole (the journal's records of its epoch are a part of it, and are skipped).
 */
function adoptOrphans(scanned: Scanned[], sealed: number): number {
  let epoch = sealed;
  for (const finalFirst of [true, false]) {
    for (const file of scanned) {
      for (const orphan of file.scan.orphans) {
        if (orphan.final !== finalFirst) continue;
        if (orphan.epoch <= epoch && !file.scan.epochs.has(orphan.epoch)) file.kept.push(orphan);
        else if (orphan.final && orphan.whole && orphan.epoch > epoch) {
          file.kept.push(orphan);
          file.finished.push(orphan);
          epoch = orphan.epoch;
        }
      }
    }
  }
  return epoch;
}

/**
 * Logs what a file's scan found and cuts off what follows the last record kept (after keeping a copy);
 * returns the file's size afterwards (0: it was moved aside).
 */
async function settleFile(file: Scanned, log: Logger): Promise<number> {
  const { name, path, scan } = file;
  let end = scan.indexedEnd;
  for (const orphan of file.kept) end = Math.max(end, orphan.end);
  logDamage(file, end, log);
  const finished = file.finished.length > 0 ? `; the last seal's chunks are whole and read from its blob` : '';
  if (end >= scan.size) {
    if (finished !== '') log.warn({ path }, `history file ${name} lacks the index of its last seal (a crash or power cut)${finished}`);
    return scan.size;
  }
  const torn = scan.damage.every((d) => d.to <= end || d.torn);
  const what = torn
    ? `had an unfinished write at its end (a crash or power cut; the journal holds what it carried${finished})`
    : `is damaged from byte ${end} to its end (${scan.size - end} bytes nothing readable follows)`;
  const level = torn ? 'warn' : 'error';
  try {
    if (end === 0) {
      const movedTo = await quarantine(path);
      log[level]({ path, movedTo }, `history file ${name} ${what}; nothing in it could be read: moved aside to ${movedTo}`);
      return 0;
    }
    const copy = await keepCopy(path);
    await cutFile(path, end);
    log[level]({ path, copy, bytes: scan.size - end }, `history file ${name} ${what}; cut off, a copy is kept as ${copy}`);
    return end;
  } catch (err) {
    // The file stays as it is: a reader skips the end again, and a seal appended after it is still found.
    log.error(
      { err, path },
      `history file ${name} ${what}; it could not be copied and cut (${(err as Error).message}), so it stays as it is`,
    );
    return scan.size;
  }
}

/** One error line for the damage before `end` (records skipped, blobs read without their index). */
function logDamage(file: Scanned, end: number, log: Logger): void {
  const middle = file.scan.damage.filter((d) => d.to <= end);
  let recovered = 0;
  for (const orphan of file.kept) if (!file.finished.includes(orphan)) recovered += orphan.refs.length;
  if (middle.length === 0 && recovered === 0) return;
  const bytes = middle.reduce((n, d) => n + d.to - d.from, 0);
  const first = middle[0];
  const skipped =
    first === undefined
      ? ''
      : middle.length === 1
        ? `a damaged record (${bytes} bytes at byte ${first.from}) skipped; `
        : `${middle.length} damaged records (${bytes} bytes, the first at byte ${first.from}) skipped; `;
  const read = recovered > 0 ? `${recovered} chunks read from blobs whose index was lost; ` : '';
  log.error(
    { path: file.path, damage: middle.slice(0, 8), recoveredChunks: recovered },
    `history file ${file.name}: ${skipped}${read}the rest of the file is read`,
  );
}
