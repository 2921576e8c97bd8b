import { basename, dirname, join } from 'node:path';
import type { Logger } from '../core/log.js';
import { writeFileAtomic } from './atomic-file.js';
import { decodeRecords, encodeHeader, encodeRecord, type JournalEnd, newSalt, type SkippedStretch } from './journal.js';
import { keepCopy } from './keep-copy.js';
import { nodeFs, type StorageFs } from './storage-fs.js';
import { writeFailureCause } from './write-guard.js';

export interface LoadJournalOptions {
  readonly log: Logger;
  /** What the file is, for the log: "restore state journal". */
  readonly label: string;
  readonly fs?: StorageFs;
  /**
   * When records were skipped: which of the others to keep (default: all that checked). An owner whose records
   * build on the ones before them (the recorder's differences) drops those a skipped record leaves unreadable;
   * the repaired file holds only what is kept, so no later start reads them without their gap.
   */
  readonly usable?: (records: readonly Buffer[], skipped: readonly SkippedStretch[]) => Buffer[];
}

export interface LoadedJournal {
  readonly records: Buffer[];
  /** Damaged stretches that were skipped; `before` tells which record each came before (a record may be missing there). */
  readonly skipped: readonly SkippedStretch[];
  /** Where appends continue (appendRecord). */
  readonly end: JournalEnd;
  /** Bytes dropped: damaged stretches and the torn tail. */
  readonly droppedBytes: number;
  /** The copy of the damaged file kept beside it, if there was damage. */
  readonly copy: string | undefined;
}

/** Offsets named in the log line, at most (a badly damaged file must not make a huge line). */
const LOGGED_OFFSETS = 5;

/**
 * Reads a journal (src/storage/journal.ts) and repairs it before anything is appended: when a stretch was
 * skipped or a tail does not check, the file is first copied aside (`<name>.damaged-<time>`, at most two
 * kept), then rewritten atomically with the records that checked, in the current format; one log line names
 * the file, the offsets and the records skipped. When the copy or the rewrite fails (a full disk), the file is
 * left as it is and appends go after it: the reader skips what lies between.
 */
export async function loadJournal(path: string, options: LoadJournalOptions): Promise<LoadedJournal> {
  const fs = options.fs ?? nodeFs;
  await removeRepairTemps(path, fs);
  let data: Buffer;
  try {
    data = await fs.readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    data = Buffer.alloc(0);
  }
  const decoded = decodeRecords(data);
  const { skipped, goodBytes } = decoded;
  const records = skipped.length > 0 && options.usable !== undefined ? options.usable(decoded.records, skipped) : decoded.records;
  const unusable = decoded.records.length - records.length;
  const tail = data.length - goodBytes;
  const droppedBytes = tail + skipped.reduce((n, s) => n + s.bytes, 0);
  const asIs = { records, skipped, end: { salt: decoded.salt, bytes: data.length }, droppedBytes, copy: undefined };
  if (droppedBytes === 0) return asIs;

  const { log, label } = options;
  const lost = skipped.reduce((n, s) => n + s.records, 0);
  const offsets = skipped.slice(0, LOGGED_OFFSETS).map((s) => s.offset);
  const where = `${offsets.join(', ')}${skipped.length > LOGGED_OFFSETS ? ', …' : ''}`;
  const what =
    (skipped.length > 0 ? `skipped ${lost} damaged record(s) (${droppedBytes - tail} bytes at byte ${where})` : '') +
    (unusable > 0 ? ` and ${unusable} record(s) after them that cannot be read without them` : '') +
    (skipped.length > 0 && tail > 0 ? ' and ' : '') +
    (tail > 0 ? `cut ${tail} bytes of torn or damaged tail at byte ${goodBytes}` : '');
  const fields = {
    path,
    skippedRecords: lost,
    unusableRecords: unusable,
    offsets,
    tailAt: tail > 0 ? goodBytes : undefined,
    tailBytes: tail,
  };
  let copy: string;
  try {
    copy = await keepCopy(path, { data, tag: 'damaged', fs });
  } catch (err) {
    log.error(
      { ...fields, err },
      `${label} ${path} was damaged: ${what}; could not keep a copy (${writeFailureCause(err)}), so the file is left as it is`,
    );
    return asIs;
  }
  const salt = newSalt();
  const content =
    records.length === 0 ? Buffer.alloc(0) : Buffer.concat([encodeHeader(salt), ...records.map((r) => encodeRecord(r, salt))]);
  try {
    await writeFileAtomic(path, content, 0o600, fs);
  } catch (err) {
    log.error({ ...fields, copy, err }, `${label} ${path} was damaged: ${what}; could not rewrite it (${writeFailureCause(err)})`);
    return { ...asIs, copy };
  }
  // Damage in the middle is never a crash: an error. A tail alone is what a crash during an append leaves.
  const message = `${label} ${path} ${skipped.length > 0 ? 'was damaged' : 'had an unfinished write at its end (a crash or power cut)'}: ${what}; the other ${records.length} record(s) are kept, the damaged file is copied to ${copy}`;
  if (skipped.length > 0) log.error({ ...fields, copy }, message);
  else log.warn({ ...fields, copy }, message);
  return { records, skipped, end: { salt: records.length === 0 ? undefined : salt, bytes: content.length }, droppedBytes, copy };
}

/**
 * A power cut during a repair leaves the temp file of its copy or of its rewrite (`.<name>.<random>.tmp`,
 * `.<name>.damaged-<time>.<random>.tmp`): never read, removed before the next repair could leave another.
 */
async function removeRepairTemps(path: string, fs: StorageFs): Promise<void> {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of await fs.readdir(dir).catch(() => [])) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) await fs.unlink(join(dir, name)).catch(() => {});
  }
}
