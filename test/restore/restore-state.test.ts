import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { Core } from '../../src/core/core.js';
import type { Entity } from '../../src/core/entities.js';
import { silentLogger } from '../../src/core/log.js';
import { RestoreState, type RestoreStateOptions, type WriteResult } from '../../src/restore/restore-state.js';
import { decodeRecords, type OpenAppendFile } from '../../src/storage/journal.js';
import { fullDisk } from '../fakes/full-disk.js';
import { RecordingLogger } from '../fakes/recording-logger.js';
import type { Teardown } from '../helpers/hub.js';

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-restore-unit-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Rig {
  readonly core: Core;
  readonly store: RestoreState;
  readonly writes: WriteResult[];
  /** Resolves at the next write attempt (or rejects after the deadline). */
  nextWrite(ms?: number): Promise<WriteResult>;
  add(id: string): Entity;
}

async function rig(t: Teardown, dir: string, options: Partial<RestoreStateOptions> = {}): Promise<Rig> {
  const core = options.core ?? new Core({ log: silentLogger });
  const writes: WriteResult[] = [];
  const waiters: ((w: WriteResult) => void)[] = [];
  const store = await RestoreState.open({
    core,
    dataDir: dir,
    log: silentLogger,
    flushWindowS: 0.1,
    reportWindowS: 0.1,
    ...options,
    onWrite: (w) => {
      writes.push(w);
      for (const fn of waiters.splice(0)) fn(w);
    },
  });
  t.teardown(() => store.stop());
  return {
    core,
    store,
    writes,
    nextWrite: (ms = 3000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no write within the deadline')), ms);
        waiters.push((w) => {
          clearTimeout(timer);
          resolve(w);
        });
      }),
    add: (id) => core.entities.add({ entityId: id, owner: 'test', platform: {}, name: id }),
  };
}

t.test("a device's own reports wait for the long window; what a user or a service call set, the short one", async (t) => {
  const dir = await dataDir(t);
  const clock = new ManualClock();
  const r = await rig(t, dir, { core: new Core({ log: silentLogger, clock }), flushWindowS: 5, reportWindowS: 60 });
  const relay = r.add('switch.relay');
  const lamp = r.add('light.lamp');
  relay.report('on');
  clock.advance(10_000_000);
  t.equal(r.store.flushIfDue(), undefined, 'a report 10 s ago is not due yet');
  lamp.useContext(createContext(clock.now(), 'user-1'));
  lamp.report('on');
  clock.advance(4_000_000);
  t.equal(r.store.flushIfDue(), undefined, 'the service call moved the flush to its own 5 s window, not yet passed');
  clock.advance(1_000_000);
  await r.store.flushIfDue();
  t.same([...(r.writes.at(-1)?.changes.keys() ?? [])].sort(), ['light.lamp', 'switch.relay'], 'both written together');
  relay.report('off', undefined, createContext(clock.now(), 'user-1'));
  clock.advance(5_000_000);
  await r.store.flushIfDue();
  t.same([...(r.writes.at(-1)?.changes.keys() ?? [])], ['switch.relay'], "a user's context counts as asked for");
  clock.advance(120_000_000);
  relay.report('on');
  clock.advance(59_000_000);
  t.equal(r.store.flushIfDue(), undefined);
  clock.advance(1_000_000);
  await r.store.flushIfDue();
  t.equal(r.store.get('switch.relay')?.state, 'on', 'the report written at its 60 s window');
});

t.test('ten changes within a window cost one append of the entities that changed; sensors cost nothing', async (t) => {
  const dir = await dataDir(t);
  const r = await rig(t, dir);
  const light = r.add('light.a');
  const sensor = r.add('sensor.power');
  r.add('light.idle').report('off');
  await r.nextWrite();
  for (let i = 1; i <= 10; i++) {
    light.report('on', { brightness: i * 20 });
    sensor.report(String(i * 100));
  }
  const w = await r.nextWrite();
  t.same({ kind: w.kind, ids: [...w.changes.keys()] }, { kind: 'append', ids: ['light.a'] }, 'one append, of the light only');
  t.same(r.store.get('light.a')?.attributes, { brightness: 200 }, 'the last change, without fixed attributes');
  t.equal(r.store.get('sensor.power'), undefined);
  const before = r.writes.length;
  for (let i = 0; i < 10; i++) sensor.report(String(i));
  await r.store.flush();
  t.equal(r.writes.length, before, 'sensor changes write nothing');
  const journal = await readFile(join(dir, 'restore_state', 'journal'));
  t.equal(decodeRecords(journal).records.length, 2);
});

t.test('a torn tail (kill -9 during an append) is ignored and cut off; a stale temp file is removed', async (t) => {
  const dir = await dataDir(t);
  {
    const r = await rig(t, dir);
    r.add('switch.a').report('on');
    r.add('switch.b').report('on');
    await r.store.flush();
    r.add('switch.c').report('on');
    await r.store.stop();
  }
  const journalPath = join(dir, 'restore_state', 'journal');
  const good = (await stat(journalPath)).size;
  // Half a record: a header claiming more bytes than follow, as a power cut mid-write leaves it.
  const torn = Buffer.alloc(12);
  torn.writeUInt32LE(500, 0);
  await appendFile(journalPath, torn);
  // A truncated temp file of a snapshot write that never got renamed.
  const tmp = join(dir, 'restore_state', '.snapshot.json.abc123.tmp');
  await writeFile(tmp, '{"version":1,"seq":9,"sta');

  const r = await rig(t, dir);
  t.equal(r.store.stats.droppedTailBytes, 12);
  t.equal((await stat(journalPath)).size, good, 'the torn tail is cut off before anything is appended');
  const names = (await readdir(join(dir, 'restore_state'))).sort();
  t.match(names, [/^journal$/, /^journal\.damaged-/], 'temp file removed; the journal copied aside before it was cut');
  t.equal(names.length, 2);
  t.equal(r.store.size, 3);
  t.equal(r.store.get('switch.c')?.state, 'on');
  r.add('switch.a').report('off');
  await r.nextWrite();
  const decoded = decodeRecords(await readFile(journalPath));
  t.equal(decoded.goodBytes, (await stat(journalPath)).size, 'the journal is whole again');
});

t.test('compaction folds the journal into an atomic snapshot, and older journal records are not replayed', async (t) => {
  const dir = await dataDir(t);
  {
    const r = await rig(t, dir, { compactMinBytes: 1 });
    const a = r.add('light.a');
    for (let i = 1; i <= 5; i++) {
      a.report('on', { brightness: i });
      await r.store.flush();
    }
    t.ok(r.store.stats.compactions >= 1);
    await r.store.stop();
    const compacted = r.writes
      .filter((w) => w.kind === 'compaction')
      .at(-1)
      ?.changes.get('light.a');
    const snapshot = JSON.parse(await readFile(join(dir, 'restore_state', 'snapshot.json'), 'utf8'));
    t.same(snapshot.states['light.a'], compacted, 'the snapshot holds the state of the last compaction');
  }
  const r = await rig(t, dir);
  t.same(r.store.get('light.a')?.attributes, { brightness: 5 });
});

t.test('a full disk: logged once, served from memory, retried, and nothing is lost once space is free', async (t) => {
  const dir = await dataDir(t);
  const capacity = { bytes: 200 };
  const log = new RecordingLogger();
  const r = await rig(t, dir, { ...fullDisk(capacity), log, flushWindowS: 0.02 });
  const lights = Array.from({ length: 5 }, (_, i) => r.add(`light.l${i}`));
  for (const [i, l] of lights.entries()) l.report('on', { brightness: i + 1 });
  t.equal((await r.nextWrite()).kind, 'failed');
  lights[0]?.report('on', { brightness: 99 });
  t.equal((await r.nextWrite()).kind, 'failed', 'retried, fails again');
  t.equal(r.store.get('light.l0')?.attributes.brightness, 99, 'served from memory');
  t.equal(log.lines.filter((l) => l.level === 'error').length, 1, 'logged once');
  const journalPath = join(dir, 'restore_state', 'journal');
  t.equal(decodeRecords(await readFile(journalPath)).goodBytes, (await stat(journalPath)).size, 'no partial record left behind');
  capacity.bytes = 1_000_000;
  let w = await r.nextWrite(5000);
  while (w.kind === 'failed') w = await r.nextWrite(5000);
  t.equal(w.kind, 'compaction', 'the write after a failure is a compaction');
  t.ok(log.lines.some((l) => l.level === 'info' && /is written again/.test(l.msg)));
  await r.store.stop();
  const again = await rig(t, dir);
  t.equal(again.store.size, 5);
  t.equal(again.store.get('light.l0')?.attributes.brightness, 99);
  t.equal(again.store.get('light.l4')?.attributes.brightness, 5);
});

t.test('an unwritable data dir does not stop the start', async (t) => {
  const dir = await dataDir(t);
  await mkdir(join(dir, 'restore_state'));
  await writeFile(join(dir, 'restore_state', 'journal'), Buffer.alloc(0));
  const failing: OpenAppendFile = async () => {
    throw Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' });
  };
  const r = await rig(t, dir, { openJournal: failing });
  r.add('switch.a').report('on');
  t.equal((await r.nextWrite()).kind, 'failed');
  t.equal(r.store.get('switch.a')?.state, 'on');
});
