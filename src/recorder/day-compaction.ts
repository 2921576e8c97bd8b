import { constants } from 'node:zlib';
import type { ChunkRef } from './chunk-ref.js';
import { deflateSized } from './segments.js';
import { encodeChunk, type PointVisitor, SeriesWriter } from './series.js';

/**
 * The parts of compacting a finished day (src/recorder/recorder.ts, compactDay) that need nothing of the
 * recorder but its chunks: merging each series' chunks of the day into one, and pointing the series at them.
 */

/**
 * One chunk per series of `day`'s chunks on disk, deflated and held in memory (pending) until the new file is
 * written; `damaged`: some chunk could not be read (so the file is copied before it is replaced). Yields to
 * the event loop between series.
 */
export async function mergeDay(
  refs: ReadonlyMap<string, readonly ChunkRef[]>,
  day: string,
  read: (ref: ChunkRef, visit: PointVisitor) => void,
): Promise<{ merged: ChunkRef[]; damaged: boolean }> {
  const merged: ChunkRef[] = [];
  let damaged = false;
  for (const [entityId, list] of refs) {
    const parts = list.filter((r) => r.day === day && r.pending === undefined);
    if (parts.length === 0) continue;
    const writer = new SeriesWriter();
    for (const ref of parts) {
      read(ref, (s, a, lc, lu, ctx) => writer.append(s, a, lc, lu, ctx));
      damaged ||= ref.damaged;
    }
    if (writer.count > 0) {
      const bytes = deflateSized(encodeChunk(writer), constants.Z_DEFAULT_COMPRESSION);
      const { firstMs, lastMs, count } = writer;
      merged.push({
        entityId,
        firstMs,
        lastMs,
        count,
        day,
        offset: 0,
        length: bytes.length,
        crc: 0,
        pending: bytes,
        deflateLevel: undefined,
        damaged: false,
      });
    }
    // Let queries and state changes in between series.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { merged, damaged };
}

/**
 * Points every series at `merged` for `day` instead of its chunks on disk there (chunks still waiting for the
 * disk stay); returns the lists as they were, to be put back when the new file could not be written.
 */
export function swapDay(refs: Map<string, ChunkRef[]>, day: string, merged: readonly ChunkRef[]): Map<string, ChunkRef[]> {
  const before = new Map(refs);
  for (const [id, list] of refs) {
    const others = list.filter((r) => r.day !== day || r.pending !== undefined);
    const mine = merged.filter((r) => r.entityId === id);
    if (mine.length > 0 || others.length !== list.length)
      refs.set(
        id,
        [...others, ...mine].sort((a, b) => a.firstMs - b.firstMs),
      );
  }
  return before;
}
