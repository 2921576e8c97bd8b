import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChunkRef } from '../../src/recorder/chunk-ref.js';
import { CHECK_WINDOW, damagedChunks, scanDayFile } from '../../src/recorder/day-file-reader.js';
import { decodeRecords } from '../../src/storage/journal.js';
import type { ApiState } from './kill-restart-stream.js';

const DAY_FILE = /^\d{4}-\d{2}-\d{2}\.seg$/;

/** Failures of one kind: how many, and the first few in words. */
export class Findings {
  count = 0;
  readonly examples: string[] = [];
  private readonly keys = new Set<string>();
  /** `key`: the same fault seen again by a later check (a row stays out of order) is counted once. */
  add(text: string, key = text): void {
    if (this.keys.has(key)) return;
    this.keys.add(key);
    if (++this.count <= 5) this.examples.push(text);
  }
  toString(): string {
    return `${this.count}${this.count === 0 ? '' : `: ${this.examples.join('; ')}`}`;
  }
}

/** JSON with object keys sorted: the same attributes from two endpoints compare equal. */
export const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );
/** A history row as text: the hub writes every row of one stored point with its attributes in one order. */
export const rowText = (row: ApiState) => JSON.stringify([row.state, row.attributes, row.last_changed, row.last_updated]);

/**
 * Every data file a kill can tear, read by the hub's own readers: the journals (restore state, history WAL) by
 * the journal module's decoder (a skipped stretch or a tail that does not check), the day files by the
 * recorder's scan (damage, a blob no index points into) and their chunks by their checksums, and the restore
 * snapshot as JSON.
 */
export async function tornFiles(dataDir: string): Promise<string[]> {
  const torn: string[] = [];
  for (const [dir, name] of [
    ['restore_state', 'journal'],
    ['recorder', 'wal'],
  ] as const) {
    const data = await readFile(join(dataDir, dir, name)).catch(() => undefined);
    if (data === undefined) continue;
    const { goodBytes, skipped } = decodeRecords(data);
    if (goodBytes < data.length) torn.push(`${dir}/${name} (a tail of ${data.length - goodBytes} of ${data.length} bytes does not check)`);
    for (const s of skipped) torn.push(`${dir}/${name} (${s.bytes} damaged bytes at ${s.offset})`);
  }
  const recorder = join(dataDir, 'recorder');
  const days = (await readdir(recorder).catch(() => [] as string[])).filter((n) => DAY_FILE.test(n));
  for (const name of days) {
    const path = join(recorder, name);
    const scan = await scanDayFile(path, name.slice(0, -'.seg'.length));
    for (const d of scan.damage) torn.push(`recorder/${name} (${d.torn ? 'torn' : 'damaged'} from byte ${d.from} to ${d.to})`);
    for (const o of scan.orphans) torn.push(`recorder/${name} (a blob at byte ${o.from} that no index names)`);
    const windows = new Map<number, ChunkRef[]>();
    for (const ref of scan.refs) {
      const w = Math.floor(ref.offset / CHECK_WINDOW);
      const list = windows.get(w);
      if (list === undefined) windows.set(w, [ref]);
      else list.push(ref);
    }
    for (const ref of await damagedChunks(path, windows))
      torn.push(`recorder/${name} (a chunk of ${ref.entityId} at byte ${ref.offset} fails its checksum)`);
  }
  const snapshot = await readFile(join(dataDir, 'restore_state', 'snapshot.json'), 'utf8').catch(() => undefined);
  if (snapshot !== undefined) {
    try {
      JSON.parse(snapshot);
    } catch {
      torn.push('restore_state/snapshot.json (not JSON)');
    }
  }
  return torn;
}

/** Files a store moved or copied aside as damaged (`.corrupt-<time>`, `.damaged-<time>`), anywhere under the data dir. */
export async function movedAside(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((n) => /\.(corrupt|damaged)-/.test(n));
}
