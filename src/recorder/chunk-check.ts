import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import type { ChunkRef } from './chunk-ref.js';
import { CHECK_WINDOW, damagedChunks } from './day-file-reader.js';

/** Chunks grouped between two turns of the event loop. */
const YIELD_EVERY = 20_000;
/** Entities named in one line about a file's damaged chunks; the rest are counted. */
const NAMED = 10;

/**
 * Checks the checksums of every chunk on disk once (after start, in the background: start-up reads only the
 * indexes). A chunk that fails is marked, so queries skip it without reading it again, and each file's
 * damaged chunks are logged in one line.
 */
export async function checkChunks(dir: string, lists: Iterable<readonly ChunkRef[]>, log: Logger): Promise<void> {
  // By day, then by the window of the file each chunk starts in: a day of many chunks needs no sort.
  const byDay = new Map<string, Map<number, ChunkRef[]>>();
  let seen = 0;
  for (const list of lists) {
    for (const ref of list) {
      if (ref.pending !== undefined || ref.damaged) continue;
      let windows = byDay.get(ref.day);
      if (windows === undefined) {
        windows = new Map();
        byDay.set(ref.day, windows);
      }
      const w = Math.floor(ref.offset / CHECK_WINDOW);
      const refs = windows.get(w);
      if (refs === undefined) windows.set(w, [ref]);
      else refs.push(ref);
    }
    // A hub of many entities has hundreds of thousands of chunks: the loop gets its turns.
    seen += list.length;
    if (seen > YIELD_EVERY) {
      seen = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  for (const [day, windows] of byDay) {
    let bad: ChunkRef[];
    try {
      bad = await damagedChunks(join(dir, `${day}.seg`), windows);
    } catch (err) {
      log.error({ err, day }, `history file ${day}.seg could not be checked (${(err as Error).message}); its chunks are checked when read`);
      continue;
    }
    // A query may have come across one meanwhile, and logged it.
    bad = bad.filter((r) => !r.damaged);
    if (bad.length === 0) continue;
    for (const ref of bad) ref.damaged = true;
    const ids = [...new Set(bad.map((r) => r.entityId))];
    const named = ids.slice(0, NAMED).join(', ') + (ids.length > NAMED ? ` and ${ids.length - NAMED} more` : '');
    log.error(
      { day, chunks: bad.length, entities: ids.slice(0, NAMED) },
      `history file ${day}.seg: ${bad.length} chunks fail their checksum (${named}); their points are not served, the rest of the day is`,
    );
  }
}

/** A chunk a query could not read: marked so that no later query reads it again, and logged this once. */
export function markDamaged(ref: ChunkRef, err: unknown, log: Logger): void {
  ref.damaged = true;
  log.error(
    { err, entity_id: ref.entityId, day: ref.day },
    `a history chunk of ${ref.entityId} in ${ref.day}.seg could not be read (${(err as Error).message}); its points are not served`,
  );
}
