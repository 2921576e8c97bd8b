import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { startCore, tempDir, testSwitch } from './helpers.js';

/** The registry files: debounced writes, and a corrupt file moved aside. */

t.test('writes are debounced, one per registry file, and a state change never schedules one', async (t) => {
  const { core, registries, writes } = await startCore(t, { saveDelayMs: 30 });
  const sw = testSwitch(core, 'switch.busy');
  t.notOk(registries.savePending, 'an entity without settings is not stored');
  registries.floors.create({ name: 'Ground' });
  for (let i = 0; i < 20; i++) registries.areas.create({ name: `Room ${i}`, floor_id: 'ground' });
  registries.areas.update('room_3', { icon: 'mdi:bed' });
  t.ok(registries.savePending);
  t.same(writes.files, [], 'nothing written before the delay');
  await writes.until(2);
  t.same(writes.files.sort(), ['areas.json', 'floors.json']);
  for (let i = 0; i < 200; i++) sw.report(i % 2 === 0);
  t.notOk(registries.savePending, 'state changes do not touch the registries');
  await registries.flush();
  t.equal(writes.files.length, 2);
  // Nothing changed since: no write on flush either.
  registries.areas.update('room_3', { icon: 'mdi:bed' });
  await registries.flush();
  t.equal(writes.files.length, 2);
});

t.test('a corrupt registry file is moved aside and logged; the registries start empty', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'registry'), { recursive: true });
  await writeFile(join(dir, 'registry', 'areas.json'), '{"version":1,"items":[{"area_id":"x",');
  await writeFile(join(dir, 'registry', 'labels.json'), '{"something":"else"}');
  await writeFile(
    join(dir, 'registry', 'floors.json'),
    JSON.stringify({ version: 1, items: [{ floor_id: 'ok', name: 'OK' }, { floor_id: 'Bad Id', name: 'Bad' }, 42] }),
  );
  const { registries, log } = await startCore(t, { dir });
  t.same(registries.areas.list(), []);
  t.same(registries.labels.list(), []);
  t.same(
    registries.floors.list().map((f) => f.floor_id),
    ['ok'],
    'valid items of a file survive its invalid ones',
  );
  const files = await readdir(join(dir, 'registry'));
  t.ok(files.some((f) => /^areas\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
  t.ok(files.some((f) => /^labels\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
  t.ok(log.entries.some((e) => e.level === 'error' && /corrupt/.test(e.msg)));
  t.ok(log.entries.some((e) => e.level === 'warn' && /not valid/.test(e.msg)));
  registries.areas.create({ name: 'Fresh' });
  await registries.flush();
  const saved = JSON.parse(await readFile(join(dir, 'registry', 'areas.json'), 'utf8'));
  t.match(saved, { version: 1, items: [{ area_id: 'fresh', name: 'Fresh' }] });
});
