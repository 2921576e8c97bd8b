import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { readJsonFile, writeFileAtomic } from '../../src/storage/atomic-file.js';

t.test('writes atomically with the given mode and leaves no temp files', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'sub', 'x.json');
  await writeFileAtomic(path, '{"a":1}', 0o600);
  await writeFileAtomic(path, '{"a":2}', 0o600);
  t.equal(await readFile(path, 'utf8'), '{"a":2}');
  t.equal((await stat(path)).mode & 0o777, 0o600);
  t.same(await readdir(join(dir, 'sub')), ['x.json']);
});

t.test('reads JSON; a corrupt file is moved aside; a missing one says so', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-atomic-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'x.json');
  t.same(await readJsonFile(path), { status: 'missing' });
  await writeFile(path, '{"ok":true}');
  t.same(await readJsonFile(path), { status: 'ok', value: { ok: true } });
  await writeFile(path, '{"torn');
  const r = await readJsonFile(path);
  t.equal(r.status, 'corrupt');
  const files = await readdir(dir);
  t.equal(files.length, 1);
  t.match(files[0], /^x\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/);
});
