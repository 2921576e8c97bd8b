import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeRecords } from '../../src/storage/journal.js';
import type { ApiState } from './kill-restart-stream.js';

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

/** Every journal-framed file of the store (restore journal, history WAL, day files): whole records only. */
export async function tornFiles(dataDir: string): Promise<string[]> {
  const torn: string[] = [];
  for (const [dir, pattern] of [
    ['restore_state', /^journal$/],
    ['recorder', /^(wal|\d{4}-\d{2}-\d{2}\.seg)$/],
  ] as const) {
    const names = await readdir(join(dataDir, dir)).catch(() => [] as string[]);
    for (const name of names.filter((n) => pattern.test(n))) {
      const data = await readFile(join(dataDir, dir, name));
      const good = decodeRecords(data).goodBytes;
      if (good < data.length) torn.push(`${dir}/${name} (${data.length - good} of ${data.length} bytes)`);
    }
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

/** Files a store moved aside as corrupt, anywhere under the data dir. */
export async function movedAside(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((n) => n.includes('.corrupt'));
}
