// The recorder's write-ahead journal: commits of what came since the last one, and their replay at start.
import { join } from 'node:path';
import { constants, inflateRawSync } from 'node:zlib';
import { type AppendFile, appendRecord, openAppendFile, type SkippedStretch } from '../storage/journal.js';
import { loadJournal } from '../storage/journal-load.js';
import { makeDir } from '../storage/storage-fs.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { type HotSeries, newHot, type RecorderState } from './recorder-state.js';
import { sealInMemory, writePending } from './sealing.js';
import { deflateSizedAsync } from './segments.js';

const WAL_FILE = 'wal';

/**
 * The journal records to replay when some were skipped as damaged. A record holds what came since the one before
 * as differences, so after a skipped record the rest of its epoch cannot be read right: those are dropped (never
 * read wrong). A later epoch starts afresh, so its records are kept.
 */
function usableRecords(records: readonly Buffer[], skipped: readonly SkippedStretch[]): Buffer[] {
  const gaps = new Set(skipped.filter((s) => s.records > 0).map((s) => s.before));
  const out: Buffer[] = [];
  let broken = -1;
  for (const [index, raw] of records.entries()) {
    const epoch = new ByteReader(inflateRawSync(raw)).varint();
    if (gaps.has(index)) broken = epoch;
    if (epoch !== broken) out.push(raw);
  }
  return out;
}

/** Appends everything since the last commit to the journal (one record); resolves when written or failed. */
export function commit(s: RecorderState): Promise<void> {
  s.writing = s.writing.then(() => commitOnce(s));
  return s.writing;
}

async function commitOnce(s: RecorderState): Promise<void> {
  if (s.pending.length > 0) await writePending(s);
  const w = new ByteWriter(1024);
  w.varint(s.epoch);
  const marks: [HotSeries, number, number, number, number][] = [];
  for (const [id, h] of s.hot) {
    const { writer } = h;
    if (writer.body.length === h.committedBytes) continue;
    w.string(id);
    for (const [dict, from] of [
      [writer.states, h.committedStates],
      [writer.attrs, h.committedAttrs],
      [writer.users, h.committedUsers],
    ] as const) {
      w.varint(dict.size - from);
      for (let i = from; i < dict.size; i++) w.string(dict.items[i] as string);
    }
    w.varint(writer.body.length - h.committedBytes);
    writer.body.appendTo(w, h.committedBytes);
    marks.push([h, writer.body.length, writer.states.size, writer.attrs.size, writer.users.size]);
  }
  if (marks.length === 0) return;
  if (s.journal === undefined && !(await openJournal(s))) return s.failed();
  // On libuv's threads: a commit under a flood holds up to a megabyte of points.
  const payload = await deflateSizedAsync(w.view(), constants.Z_DEFAULT_COMPRESSION);
  const journal = s.journal as AppendFile;
  const appended = await s.guard.run(async () => {
    const end = await appendRecord(journal, payload, { salt: s.journalSalt, bytes: s.journalBytes });
    s.journalBytes = end.bytes;
    s.journalSalt = end.salt;
  });
  if (appended) {
    for (const [h, bytes, states, attrs, users] of marks) {
      h.committedBytes = bytes;
      h.committedStates = states;
      h.committedAttrs = attrs;
      h.committedUsers = users;
    }
    s.stats.commits++;
    s.succeeded('commit');
    return;
  }
  // A partly written record must not stay in the middle of the journal.
  await journal.truncate(s.journalBytes).catch(() => {});
  s.failed();
}

export async function openJournal(s: RecorderState): Promise<boolean> {
  const opener = s.options.openJournal ?? openAppendFile;
  return s.guard.run(async () => {
    await makeDir(s.dir);
    s.journal = await opener(join(s.dir, WAL_FILE));
  });
}

/** Reads the journal's records past the sealed epoch back into the hot tier (an unsealed earlier hour is sealed in memory). */
export async function replayJournal(s: RecorderState, sealedEpoch: number): Promise<void> {
  const journal = await loadJournal(join(s.dir, WAL_FILE), { log: s.options.log, label: 'history journal', usable: usableRecords });
  s.journalBytes = journal.end.bytes;
  s.journalSalt = journal.end.salt;
  s.stats.droppedTailBytes = journal.droppedBytes;
  let replayEpoch = -1;
  for (const raw of journal.records) {
    const r = new ByteReader(inflateRawSync(raw));
    const epoch = r.varint();
    if (epoch <= sealedEpoch) continue;
    // Records of an hour whose seal never reached the disk: that hour is sealed again, in memory first.
    if (replayEpoch >= 0 && epoch !== replayEpoch) {
      s.epoch = replayEpoch;
      sealInMemory(s);
    }
    replayEpoch = epoch;
    while (!r.done) {
      const id = r.string();
      const lists: string[][] = [];
      for (let d = 0; d < 3; d++) {
        const n = r.varint();
        const items: string[] = [];
        for (let i = 0; i < n; i++) items.push(r.string());
        lists.push(items);
      }
      const body = r.bytes(r.varint());
      let h = s.hot.get(id);
      if (h === undefined) {
        h = newHot();
        s.hot.set(id, h);
      }
      h.writer.appendEncoded(body, lists[0] ?? [], lists[1] ?? [], lists[2] ?? []);
      h.committedBytes = h.writer.body.length;
      h.committedStates = h.writer.states.size;
      h.committedAttrs = h.writer.attrs.size;
      h.committedUsers = h.writer.users.size;
    }
  }
  if (replayEpoch >= 0) s.epoch = replayEpoch;
  let first = Number.POSITIVE_INFINITY;
  for (const h of s.hot.values()) {
    first = Math.min(first, h.writer.firstMs);
    s.hotBytes += h.writer.memoryBytes;
    s.hotBody += h.writer.body.length;
  }
  if (Number.isFinite(first)) s.hotHour = s.hourOf(first);
}
