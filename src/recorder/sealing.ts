// Sealing: the hot tier turned into deflated chunks and appended to the day files, after which the journal starts over.
import { join } from 'node:path';
import { constants } from 'node:zlib';
import { openAppendFile } from '../storage/journal.js';
import { syncDir } from '../storage/storage-fs.js';
import { housekeeping } from './housekeeping.js';
import type { RecorderState } from './recorder-state.js';
import { type ChunkRef, dayOf, deflateSized, deflateSizedAsync, sealRecords, settle } from './segments.js';
import { encodeChunk } from './series.js';

/** Chunks from this size on are deflated on libuv's threads: 64 KB is about 1 ms of zlib on a PC, 4 on a Pi. */
const ASYNC_DEFLATE_BYTES = 64 * 1024;
/** A seal deflates at most this much of chunks from SMALL_CHUNK_BYTES on the loop; past it they go to libuv's threads too. */
const SYNC_DEFLATE_BYTES = 256 * 1024;
const SMALL_CHUNK_BYTES = 4096;

/**
 * Turns the hot tier into chunks in memory and starts a new epoch (the journal's records before it are sealed).
 * A large chunk (one entity's flood) is deflated before it is written, off the event loop (deflatePending);
 * the small ones of an ordinary seal here, where zlib's setup costs more than its work.
 * `fast`: an early seal under a flood deflates at zlib's fastest level (a third of the CPU of the default); its
 * chunks are rewritten at the default level when the day is compacted, so only that day's file is a little larger.
 */
export function sealInMemory(s: RecorderState, fast = false): void {
  let onLoop = 0;
  for (const [id, h] of s.hot) {
    const w = h.writer;
    if (w.count === 0) continue;
    const plain = encodeChunk(w);
    const level = fast ? constants.Z_BEST_SPEED : constants.Z_DEFAULT_COMPRESSION;
    // Small chunks stay here whatever came before: on a thread, each would cost more than its zlib work.
    const sizable = plain.length >= SMALL_CHUNK_BYTES;
    if (sizable) onLoop += plain.length;
    const later = plain.length >= ASYNC_DEFLATE_BYTES || (sizable && onLoop > SYNC_DEFLATE_BYTES);
    const bytes = later ? plain : deflateSized(plain, level);
    const ref: ChunkRef = {
      entityId: id,
      firstMs: w.firstMs,
      lastMs: w.lastMs,
      count: w.count,
      day: dayOf(w.firstMs),
      offset: 0,
      length: bytes.length,
      crc: 0,
      pending: bytes,
      deflateLevel: later ? level : undefined,
      damaged: false,
    };
    s.refsOf(id).push(ref);
    s.pending.push(ref);
  }
  s.hot = new Map();
  s.hotBytes = 0;
  s.hotBody = 0;
  s.hotHour = -1;
  s.pendingEpoch = s.epoch;
  s.epoch++;
  s.recountPending();
}

/** Seals the hour (or, `early`, the hot tier grown past the seal mark): its chunks go to the day files, and the journal starts over. */
export function seal(s: RecorderState, early = false): Promise<void> {
  s.writing = s.writing.then(async () => {
    sealInMemory(s, early);
    await writePending(s);
    void housekeeping(s);
  });
  return s.writing;
}

/**
 * Deflates the large chunks sealed since the last write on libuv's threads: a seal under a flood of one
 * entity holds a megabyte of its points, some 15 ms of zlib on a PC and several times that on a Pi. All are
 * handed over at once (the budget bounds what a seal holds), so the seal waits for the slowest, not the sum
 * of round trips. Until a chunk is deflated, queries read its encoded bytes as they are.
 */
async function deflatePending(s: RecorderState): Promise<void> {
  const work: Promise<void>[] = [];
  for (const ref of s.pending) {
    const level = ref.deflateLevel;
    const plain = ref.pending;
    if (level === undefined || plain === undefined) continue;
    work.push(
      deflateSizedAsync(plain, level).then((bytes) => {
        ref.pending = bytes;
        ref.length = bytes.length;
        ref.deflateLevel = undefined;
      }),
    );
  }
  await Promise.all(work);
  s.recountPending();
}

/** Writes the chunks waiting in memory to their day files; the journal is emptied when all are written. */
export async function writePending(s: RecorderState): Promise<void> {
  await deflatePending(s);
  const byDay = new Map<string, ChunkRef[]>();
  for (const ref of s.pending) {
    const list = byDay.get(ref.day);
    if (list === undefined) byDay.set(ref.day, [ref]);
    else list.push(ref);
  }
  const opener = s.options.openDayFile ?? openAppendFile;
  let left = byDay.size;
  for (const [day, refs] of byDay) {
    const file = s.days.get(day) ?? { day, size: 0, compacted: false, damaged: false };
    // Only the last file of a seal says the epoch is on disk: a crash between two files (a seal across
    // midnight) replays the journal rather than losing the second day's part.
    const bytes = sealRecords(refs, file.size, s.pendingEpoch, --left === 0, false);
    const ok = await s.guard.run(async () => {
      const f = await opener(join(s.dir, `${day}.seg`));
      try {
        await f.append(bytes);
        // A new file's name is durable only once its directory is.
        if (file.size === 0) await syncDir(s.dir);
      } catch (err) {
        await f.truncate(file.size).catch(() => {});
        throw err;
      } finally {
        await f.close().catch(() => {});
      }
    });
    if (!ok) return s.failed();
    settle(refs);
    file.size += bytes.length;
    file.compacted = false;
    s.days.set(day, file);
    s.pending = s.pending.filter((r) => r.pending !== undefined);
    s.recountPending();
  }
  if (byDay.size === 0) return;
  s.diskEpoch = s.pendingEpoch;
  s.stats.seals++;
  // Everything the journal holds is in the day files now (the epoch says so if this truncation fails);
  // commits are chained behind this write, so no record of the new epoch is in the journal yet.
  if (s.journal !== undefined && s.journalBytes > 0) {
    const journal = s.journal;
    if (await s.guard.run(() => journal.truncate(0))) s.journalBytes = 0;
  }
  s.budget.relieved(s.hotBytes + s.pendingBytes);
  s.succeeded('seal');
}
