import { mkdir, readdir, readFile, rm, statfs, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { DOMAINS } from '../../src/domains/index.js';
import { Registries } from '../../src/registry/index.js';
import { startTestHub } from '../helpers/hub.js';
import { corruptPattern, FlakyDisk, smallDisk, type Teardown, tempDir, type WatchedLogger, watchedLogger } from '../storage/helpers.js';

/** Registries on `dir` writing through a FlakyDisk, with a 10 ms save delay (so retries start at 50 ms). */
async function start(t: Teardown, dir: string, disk = new FlakyDisk(), log: WatchedLogger = watchedLogger()) {
  const core = new Core({ log, clock: new ManualClock(), maxEntities: 64 });
  for (const domain of DOMAINS) domain.registerServices(core);
  const registries = await Registries.start({ core, dataDir: dir, sections: {}, log, saveDelayMs: 10, writeFile: disk.writeFile });
  t.teardown(() => registries.stop());
  return { registries, disk, log };
}

const areasOnDisk = async (dir: string): Promise<unknown> => JSON.parse(await readFile(join(dir, 'registry', 'areas.json'), 'utf8')).items;

t.test('no registry directory yet: the registries start empty, nothing is logged or written', async (t) => {
  const dir = await tempDir(t);
  const { registries, disk, log } = await start(t, dir);
  t.same(registries.areas.list(), []);
  t.same(
    log.entries.filter((e) => e.level === 'error' || e.level === 'warn'),
    [],
  );
  await registries.flush();
  t.same(disk.attempts, []);
});

t.test('every registry file that does not parse is moved aside with one error each; the rest load', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'registry'));
  await writeFile(join(dir, 'registry', 'areas.json'), '{"version":1,"items":[{"area_id":"kitchen","name":"Kitchen"}]}');
  await writeFile(join(dir, 'registry', 'floors.json'), '{"version":1,"items":[');
  await writeFile(join(dir, 'registry', 'labels.json'), '{"version":2,"items":[]}');
  await writeFile(join(dir, 'registry', 'entities.json'), '');
  await writeFile(join(dir, 'registry', 'devices.json'), '[]');
  const { registries, log } = await start(t, dir);
  t.same(
    registries.areas.list().map((a) => a.area_id),
    ['kitchen'],
  );
  const files = (await readdir(join(dir, 'registry'))).sort();
  for (const name of ['devices.json', 'entities.json', 'floors.json', 'labels.json']) {
    t.ok(
      files.some((f) => corruptPattern(name).test(f)),
      `${name} moved aside`,
    );
    const errors = log.entries.filter((e) => e.level === 'error' && e.msg.includes(join(dir, 'registry', name)));
    t.equal(errors.length, 1, `one error names ${name}`);
    t.match(errors[0]?.msg, /registry file was corrupt: .* moved aside to .*\.corrupt-.*; starting with an empty registry/);
  }
  t.equal(log.matching('error', /./).length, 4, 'and nothing else is an error');
});

t.test('a temp file left by a power cut beside a registry file is ignored and removed', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'registry'));
  await writeFile(join(dir, 'registry', 'areas.json'), '{"version":1,"items":[{"area_id":"kitchen","name":"Kitchen"}]}');
  const temp = join(dir, 'registry', '.areas.json.5f3a9c0d1e2b.tmp');
  await writeFile(temp, '{"version":1,"items":[{"area_id":"kit');
  const old = new Date(Date.now() - 3600_000);
  await utimes(temp, old, old);
  const { registries, log } = await start(t, dir);
  t.same(
    registries.areas.list().map((a) => a.area_id),
    ['kitchen'],
  );
  t.same(await readdir(join(dir, 'registry')), ['areas.json']);
  t.same(log.matching('error', /./), []);
});

for (const code of ['ENOSPC', 'EROFS']) {
  t.test(`${code}: the registries keep working from memory, log once, and write the latest later without another change`, async (t) => {
    const dir = await tempDir(t);
    const { registries, disk, log } = await start(t, dir);
    registries.areas.create({ name: 'Kitchen' });
    await registries.flush();
    disk.failWith = code;
    for (const name of ['Cuisine', 'Küche', 'Keuken']) {
      registries.areas.update('kitchen', { name });
      await registries.flush();
    }
    t.equal(registries.areas.get('kitchen')?.name, 'Keuken', 'memory has every change');
    await disk.until(() => disk.failed >= 4, 'retries that fail too');
    const errors = log.matching('error', /./);
    t.equal(errors.length, 1, 'one error for the whole outage');
    t.match(errors[0]?.msg, new RegExp(`could not write registry file .*areas\\.json \\(${code}: `));
    t.match(await areasOnDisk(dir), [{ name: 'Kitchen' }], 'the file on disk is intact');
    disk.failWith = undefined;
    await log.until('info', /areas\.json is written again/);
    t.match(await areasOnDisk(dir), [{ name: 'Keuken' }]);
    t.equal(disk.written.length, 2, 'one write before the outage, one after: no queue of old versions');
    t.equal(log.matching('info', /is written again/).length, 1);
  });
}

t.test(
  'a hub on a full disk keeps serving and saves the registry once space is back (tmpfs; skipped where it cannot be mounted)',
  async (t) => {
    const disk = await smallDisk(t, 256);
    if (disk === undefined) {
      t.pass('skipped: a tmpfs cannot be mounted here (not root); the injected ENOSPC above covers the registries');
      return;
    }
    const log = watchedLogger();
    const yaml = 'hub:\n  name: Home\nvirtual:\n  - {platform: switch, id: pump, name: Pump}\n';
    const h = await startTestHub(t, { yaml, dataDir: disk.dir, log });
    const filler = join(disk.dir, 'filler');
    const { bavail, bsize } = await statfs(disk.dir);
    await writeFile(filler, Buffer.alloc(bavail * bsize)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOSPC') throw err;
    });

    h.hub.registries.entities.update('switch.pump', { name: 'Well pump' });
    await log.until('error', /could not write registry file .*entities\.json \(ENOSPC: the disk is full\)/);
    const state = await h.api('/api/states/switch.pump');
    t.equal(state.status, 200, 'REST answers');
    t.match(await state.json(), { attributes: { friendly_name: 'Well pump' } }, 'from memory');
    const turnOn = await h.api('/api/services/switch/turn_on', { method: 'POST', body: '{"entity_id":"switch.pump"}' });
    t.equal(turnOn.status, 200, 'services work');

    await rm(filler);
    // The registries' first retry is 5 s after the failure, with no further change needed.
    await log.until('info', /entities\.json is written again/, 15_000);
    const saved = JSON.parse(await readFile(join(disk.dir, 'registry', 'entities.json'), 'utf8'));
    t.match(saved.items, [{ entity_id: 'switch.pump', name: 'Well pump' }]);
    t.equal(log.matching('error', /entities\.json/).length, 1, 'one error for the outage');
  },
);
