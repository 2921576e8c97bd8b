import { join } from 'node:path';
import type { Logger } from '../core/log.js';
import type { ChunkRef } from './chunk-ref.js';
import { damagedChunks } from './day-file-reader.js';

/** Entities named in one line about a file's damaged chunks; the rest are counted. */
const NAMED = 10;

/**
 * Checks the checksums of every chunk on disk once (after start, in the background: start-up reads only the
 * indexes). A chunk that fails is marked, so queries skip it without reading it again, and each file's
 * damaged chunks are logged in one line.
 */
export async function checkChunks(dir: string, refs: Iterable<ChunkRef>, log: Logger): Promise<void> {
  const byDay = new Map<string, ChunkRef[]>();
  for (const ref of refs) {
    if (ref.pending !== undefined || ref.damaged) continue;
    const list = byDay.get(ref.day);
    if (list === undefined) byDay.set(ref.day, [ref]);
    else list.push(ref);
  }
  for (const [day, list] of byDay) {
    let bad: ChunkRef[];
    try {
      bad = await damagedChunks(join(dir, `${day}.seg`), list);
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
