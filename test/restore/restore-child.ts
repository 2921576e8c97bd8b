/**
 * The process the kill -9 test starts and kills: it opens a restore-state store on a data dir, prints what
 * it loaded, then changes restorable entities in a burst, printing each change it made and each write
 * that completed, until it is killed.
 *
 *   node --import tsx test/restore/restore-child.ts DATA_DIR FIRST_CHANGE ENTITIES FLUSH_WINDOW_S [DISK_BYTES]
 *
 * Lines: `loaded {"<entity>":n,...}`, `c <n>` (changes up to n made), `w <max n written> <age ms of the oldest change written>`.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { RestoreState } from '../../src/restore/restore-state.js';
import { fullDisk } from '../fakes/full-disk.js';

const [dataDir, firstArg, entitiesArg, windowArg, diskArg] = process.argv.slice(2);
if (dataDir === undefined || windowArg === undefined)
  throw new Error('usage: restore-child.ts DATA_DIR FIRST_CHANGE ENTITIES FLUSH_WINDOW_S [DISK_BYTES]');
const first = Number(firstArg);
const CHILD_ENTITIES = Number(entitiesArg);
const out = (line: string) => process.stdout.write(`${line}\n`);

async function diskOptions() {
  if (diskArg === undefined) return {};
  // A disk that is nearly full: a few KB beyond what the store already holds.
  let used = 0;
  for (const name of ['journal', 'snapshot.json'])
    used += await stat(join(dataDir as string, 'restore_state', name)).then(
      (s) => s.size,
      () => 0,
    );
  return fullDisk({ bytes: used + Number(diskArg) });
}

const core = new Core({ log: silentLogger });
const store = await RestoreState.open({
  core,
  dataDir,
  log: silentLogger,
  flushWindowS: Number(windowArg),
  compactMinBytes: 4096,
  reportDeadlineMs: 60_000,
  ...(await diskOptions()),
  onWrite({ kind, changes }) {
    if (kind === 'failed') return;
    let max = -1;
    let oldest = Number.POSITIVE_INFINITY;
    for (const entry of changes.values()) {
      max = Math.max(max, Number(entry.attributes.n));
      oldest = Math.min(oldest, entry.at);
    }
    out(`w ${max} ${Date.now() - oldest}`);
  },
});
const ids = Array.from({ length: CHILD_ENTITIES }, (_, i) => `input_number.e${i}`);
out(`loaded ${JSON.stringify(Object.fromEntries(ids.map((id) => [id, store.get(id)?.attributes.n ?? null])))}`);
// `restore: true`: a domain without a reproduceState, so restoring shows the state and changes nothing.
const entities = ids.map((id) => core.entities.add({ entityId: id, owner: 'burst', platform: {}, restore: true }));
let n = first;
function burst(): void {
  for (let i = 0; i < 5; i++, n++) entities[n % CHILD_ENTITIES]?.report('on', { n });
  out(`c ${n - 1}`);
  setImmediate(burst);
}
burst();
