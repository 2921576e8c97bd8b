import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import t from 'tap';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { RestoreState, type RestoreStateOptions } from '../../src/restore/restore-state.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import { type Teardown, tempDir } from '../storage/helpers.js';

/**
 * The restore-state journal damaged on disk, as a user's SD card damages it: one bad byte, a cut length, zeros.
 * Each costs at most its own record; the rest restores. (Only the files are written here: the damage is found
 * by the JSON of the record it hits, so these run against any journal format.)
 */

const ENTITIES = 12;

async function open(
  t: Teardown,
  dataDir: string,
  options: Partial<RestoreStateOptions> = {},
): Promise<{ core: Core; store: RestoreState }> {
  const core = new Core({ log: silentLogger });
  const store = await RestoreState.open({ core, dataDir, log: silentLogger, flushWindowS: 60, reportWindowS: 60, ...options });
  t.teardown(() => store.stop());
  return { core, store };
}

/** Twelve switches, each changed and written in a record of its own; `switch.e<i>` ends `on` for odd i, else `off`. */
async function twelve(t: Teardown, dataDir: string): Promise<string> {
  const { core, store } = await open(t, dataDir);
  for (let i = 0; i < ENTITIES; i++) {
    core.entities.add({ entityId: `switch.e${i}`, owner: 'test', platform: {}, name: `e${i}` }).report(i % 2 ? 'on' : 'off');
    await store.flush();
  }
  await store.stop();
  return join(dataDir, 'restore_state', 'journal');
}

/** Where the payload of the record holding `id` starts (its `{"seq":`). */
function recordOf(data: Buffer, id: string): number {
  const at = data.indexOf(`"${id}"`);
  if (at < 0) throw new Error(`no record of ${id}`);
  return data.lastIndexOf('{"seq":', at);
}

function restored(store: RestoreState): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (let i = 0; i < ENTITIES; i++) out[`switch.e${i}`] = store.get(`switch.e${i}`)?.state;
  return out;
}

function expected(missing: readonly number[] = []): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (let i = 0; i < ENTITIES; i++) out[`switch.e${i}`] = missing.includes(i) ? undefined : i % 2 ? 'on' : 'off';
  return out;
}

async function copies(dataDir: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'restore_state'))).filter((n) => n.startsWith('journal.damaged-'));
}

t.test('a flipped byte in the middle of the journal loses that record only: the eleven other entities restore', async (t) => {
  const dataDir = await tempDir(t);
  const path = await twelve(t, dataDir);
  const data = await readFile(path);
  const at = recordOf(data, 'switch.e5') + 3;
  data[at] = (data[at] as number) ^ 0x01;
  await writeFile(path, data);
  const log = new RecordingLogger();
  const { store } = await open(t, dataDir, { log });
  t.same(restored(store), expected([5]));
  const errors = log.lines.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one error');
  t.match(errors[0]?.msg, path);
  t.match(errors[0]?.msg, /skipped 1 damaged record/);
  t.match(errors[0]?.obj, { path, skippedRecords: 1 });
  const kept = await copies(dataDir);
  t.equal(kept.length, 1, 'the damaged journal is copied aside before it is rewritten');
  t.same(await readFile(join(dataDir, 'restore_state', kept[0] as string)), data);
  await store.stop();
  const again = await open(t, dataDir, { log });
  t.same(restored(again.store), expected([5]), 'and the next start reads the repaired journal');
  t.equal(log.lines.length, 1, 'without another log line');
});

t.test("a damaged record's length in the middle: the reader resynchronises, the others restore", async (t) => {
  const dataDir = await tempDir(t);
  const path = await twelve(t, dataDir);
  const data = await readFile(path);
  // The length sits 8 bytes before the payload (4 bytes, little-endian): its high byte makes it claim a gigabyte.
  data[recordOf(data, 'switch.e3') - 8 + 3] = 0x40;
  await writeFile(path, data);
  const { store } = await open(t, dataDir);
  t.same(restored(store), expected([3]));
});

t.test('zeros over a record and those after it, then more changes: the zeros cost what they covered, nothing after', async (t) => {
  const dataDir = await tempDir(t);
  const path = await twelve(t, dataDir);
  const data = await readFile(path);
  // A zeroed tail from switch.e9's record on, not a multiple of a frame's head.
  data.fill(0, recordOf(data, 'switch.e9') - 13);
  await writeFile(path, data);
  const log = new RecordingLogger();
  const { core, store } = await open(t, dataDir, { log });
  t.same(restored(store), expected([8, 9, 10, 11]), 'the records the zeros covered are gone; the others are read');
  t.match(log.lines.at(-1)?.msg, path, 'logged, naming the file');
  t.equal((await copies(dataDir)).length, 1, 'and copied aside');
  core.entities.add({ entityId: 'switch.later', owner: 'test', platform: {}, name: 'later' }).report('on');
  await store.flush();
  await store.stop();
  const again = await open(t, dataDir);
  t.equal(again.store.get('switch.later')?.state, 'on', 'a record written after the zeros is read at the next start');
  t.same(restored(again.store), expected([8, 9, 10, 11]));
});

t.test('a zero-filled journal is detected, copied aside and replaced; the store writes and reads again', async (t) => {
  const dataDir = await tempDir(t);
  const path = await twelve(t, dataDir);
  const size = (await readFile(path)).length;
  await writeFile(path, Buffer.alloc(size));
  const log = new RecordingLogger();
  const { core, store } = await open(t, dataDir, { log });
  t.equal(store.size, 0, 'nothing in it is a record');
  t.equal(log.lines.length, 1, 'one line says so');
  t.match(log.lines[0]?.msg, `${path} had an unfinished write at its end (a crash or power cut): cut ${size} bytes`);
  t.equal((await copies(dataDir)).length, 1);
  core.entities.add({ entityId: 'switch.after', owner: 'test', platform: {}, name: 'after' }).report('on');
  await store.flush();
  await store.stop();
  const again = await open(t, dataDir);
  t.equal(again.store.get('switch.after')?.state, 'on');
});

t.test('a journal of release 2026.11 (length + CRC frames) restores, and what is written after it too', async (t) => {
  const dataDir = await tempDir(t);
  await mkdir(join(dataDir, 'restore_state'));
  const path = join(dataDir, 'restore_state', 'journal');
  const frame = (payload: object): Buffer => {
    const bytes = Buffer.from(JSON.stringify(payload));
    const head = Buffer.alloc(8);
    head.writeUInt32LE(bytes.length, 0);
    head.writeUInt32LE(crc32(bytes), 4);
    return Buffer.concat([head, bytes]);
  };
  const at = Date.now();
  await writeFile(
    path,
    Buffer.concat([
      frame({ seq: 1, states: { 'light.a': { state: 'on', attributes: { brightness: 10 }, at } } }),
      frame({ seq: 2, states: { 'switch.b': { state: 'off', attributes: {}, at } } }),
    ]),
  );
  const log = new RecordingLogger();
  const { core, store } = await open(t, dataDir, { log });
  t.same(store.get('light.a'), { state: 'on', attributes: { brightness: 10 }, at });
  t.equal(store.get('switch.b')?.state, 'off');
  t.same(log.lines, [], 'an old journal is not damage');
  core.entities.add({ entityId: 'switch.c', owner: 'test', platform: {}, name: 'c' }).report('on');
  await store.flush();
  await store.stop();
  const again = await open(t, dataDir);
  t.same([again.store.get('light.a')?.state, again.store.get('switch.b')?.state, again.store.get('switch.c')?.state], ['on', 'off', 'on']);
});
