// The restore state on disk: a journal of changed entities folded now and then into an atomically written snapshot.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from '../storage/atomic-file.js';
import { type AppendFile, appendRecord, frameBytes, openAppendFile } from '../storage/journal.js';
import { loadJournal } from '../storage/journal-load.js';
import { makeDir } from '../storage/storage-fs.js';
import { WriteGuard } from '../storage/write-guard.js';
import type { RestoreStateOptions, RestoreStateStats, StoredState } from './restore-types.js';

/** Compact when the journal outgrows this many times the snapshot (and at least COMPACT_MIN_BYTES). */
const COMPACT_RATIO = 3;
const COMPACT_MIN_BYTES = 64 * 1024;
/** Stored states of entities that no longer exist are dropped at compaction after this long (as Home Assistant). */
const EXPIRE_MS = 7 * 24 * 3600 * 1000;

const SNAPSHOT_FILE = 'snapshot.json';
const JOURNAL_FILE = 'journal';

interface Snapshot {
  readonly version: 1;
  /** Journal records with a sequence number up to this are already in the snapshot. */
  readonly seq: number;
  readonly states: Record<string, StoredState>;
}

interface JournalRecord {
  readonly seq: number;
  readonly states: Record<string, StoredState>;
}

/** The snapshot and journal of the stored states (`stored`, the store's map, is what they hold and fill). */
export class RestoreDisk {
  /** The next write is a compaction (the journal could not be opened, or a write failed). */
  needsCompaction = false;
  private readonly dir: string;
  private readonly snapshotPath: string;
  private readonly journalPath: string;
  private readonly guard: WriteGuard;
  private journal: AppendFile | undefined;
  private journalBytes = 0;
  /** The salt of the journal's generation appends continue (src/storage/journal.ts); undefined: the next append starts one. */
  private journalSalt: number | undefined;
  private snapshotBytes = 0;
  private seq = 0;

  constructor(
    private readonly options: RestoreStateOptions,
    private readonly stats: RestoreStateStats,
    private readonly stored: Map<string, StoredState>,
  ) {
    this.dir = join(options.dataDir, 'restore_state');
    this.snapshotPath = join(this.dir, SNAPSHOT_FILE);
    this.journalPath = join(this.dir, JOURNAL_FILE);
    this.guard = new WriteGuard(options.log, 'restore state');
  }

  /** Reads the snapshot and the journal's records after it into `stored` (stale temp files removed first). */
  async load(): Promise<void> {
    await makeDir(this.dir);
    await this.removeStaleTempFiles();
    const { log } = this.options;
    let snapshotSeq = 0;
    const snap = await readJsonFile<Snapshot>(this.snapshotPath);
    if (snap.status === 'corrupt') log.error({ movedTo: snap.movedTo }, 'restore state snapshot was corrupt; moved aside');
    if (snap.status === 'ok' && snap.value.version === 1) {
      snapshotSeq = snap.value.seq;
      for (const [id, entry] of Object.entries(snap.value.states)) this.stored.set(id, entry);
      this.snapshotBytes = Buffer.byteLength(JSON.stringify(snap.value));
    }
    const journal = await loadJournal(this.journalPath, { log, label: 'restore state journal' });
    let maxSeq = snapshotSeq;
    for (const raw of journal.records) {
      let record: JournalRecord;
      try {
        record = JSON.parse(raw.toString('utf8')) as JournalRecord;
      } catch {
        continue; // Cannot happen with a matching checksum; skipped rather than trusted.
      }
      // Each record holds whole states: one skipped before it costs its own changes only.
      if (record.seq <= snapshotSeq) continue;
      for (const [id, entry] of Object.entries(record.states)) this.stored.set(id, entry);
      maxSeq = Math.max(maxSeq, record.seq);
    }
    this.seq = maxSeq;
    this.journalBytes = journal.end.bytes;
    this.journalSalt = journal.end.salt;
    this.stats.droppedTailBytes = journal.droppedBytes;
  }

  /** Whether the journal is open (opened now if it was not). */
  async ready(): Promise<boolean> {
    return this.journal !== undefined || (await this.openJournal());
  }

  async openJournal(): Promise<boolean> {
    const opener = this.options.openJournal ?? openAppendFile;
    return this.guard.run(async () => {
      await makeDir(this.dir);
      this.journal = await opener(this.journalPath);
    });
  }

  /** Writes one batch: appended as one journal record, or folded into a snapshot; undefined when it failed. */
  async write(batch: ReadonlyMap<string, StoredState>): Promise<'append' | 'compaction' | undefined> {
    const journal = this.journal as AppendFile;
    const seq = ++this.seq;
    let record: Buffer | undefined;
    if (!this.needsCompaction) {
      const payload: JournalRecord = { seq, states: Object.fromEntries(batch) };
      record = Buffer.from(JSON.stringify(payload));
    }
    const compact =
      record === undefined ||
      this.journalBytes + frameBytes(record) >
        Math.max(this.options.compactMinBytes ?? COMPACT_MIN_BYTES, COMPACT_RATIO * this.snapshotBytes);
    if (compact) {
      const ok = await this.guard.run(() => this.compact(seq));
      if (!ok) return undefined;
      this.stats.compactions++;
      return 'compaction';
    }
    const payload = record as Buffer;
    const ok = await this.guard.run(async () => {
      const end = await appendRecord(journal, payload, { salt: this.journalSalt, bytes: this.journalBytes });
      this.journalBytes = end.bytes;
      this.journalSalt = end.salt;
    });
    if (ok) {
      this.stats.appends++;
      return 'append';
    }
    // A partly written record must not stay in the middle of the journal: cut it off, or compact next time.
    // Not through the guard: this is part of the failed write, not a success that ends the failure.
    await journal.truncate(this.journalBytes).catch(() => {
      this.needsCompaction = true;
    });
    return undefined;
  }

  async close(): Promise<void> {
    await this.journal?.close().catch(() => {});
    this.journal = undefined;
  }

  /** Folds everything into a new snapshot (atomic), then empties the journal. */
  private async compact(seq: number): Promise<void> {
    const now = Date.now();
    const { entities } = this.options.core;
    for (const [id, entry] of this.stored) if (now - entry.at > EXPIRE_MS && entities.find(id) === undefined) this.stored.delete(id);
    const snapshot: Snapshot = { version: 1, seq, states: Object.fromEntries(this.stored) };
    const text = JSON.stringify(snapshot);
    await (this.options.writeSnapshot ?? writeFileAtomic)(this.snapshotPath, text);
    this.snapshotBytes = Buffer.byteLength(text);
    this.needsCompaction = false;
    // The snapshot holds every journal record now (their seq are below its own), so a crash before or
    // during this truncation only leaves records that loading skips.
    await (this.journal as AppendFile).truncate(0);
    this.journalBytes = 0;
  }

  /** A power cut during a snapshot write leaves its temp file (possibly truncated); it is never read, only removed. */
  private async removeStaleTempFiles(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      if (name.startsWith(`.${SNAPSHOT_FILE}.`) && name.endsWith('.tmp')) await unlink(join(this.dir, name)).catch(() => {});
    }
  }
}
