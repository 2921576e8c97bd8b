import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { readDataFile, Salvaged } from '../../src/storage/data-file.js';
import { keepCopy } from '../../src/storage/keep-copy.js';
import { COPIES_KEPT, quarantine } from '../../src/storage/quarantine.js';
import { corruptPattern, tempDir, watchedLogger } from './helpers.js';

t.test('copies of a file are kept up to COPIES_KEPT, the newest; one a millisecond apart does not overwrite another', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'x.json');
  const at = new Date('2026-11-28T12:00:00.000Z');
  for (let i = 0; i < COPIES_KEPT + 3; i++) {
    await writeFile(path, `version ${i}`);
    await keepCopy(path, { at });
  }
  const copies = (await readdir(dir)).filter((n) => n.startsWith('x.json.corrupt-')).sort();
  t.equal(copies.length, COPIES_KEPT);
  t.same(
    await Promise.all(copies.map((n) => readFile(join(dir, n), 'utf8'))),
    ['version 3', 'version 4', 'version 5'],
    'the newest are kept',
  );
  t.same(
    (await readdir(dir)).filter((n) => n.endsWith('.tmp')),
    [],
    'no temp file',
  );
});

t.test('bytes in memory are kept under the tag asked for', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'journal');
  const copy = await keepCopy(path, { data: Buffer.from('torn'), tag: 'damaged' });
  t.match(copy, /journal\.damaged-\d{4}-/);
  t.equal(await readFile(copy, 'utf8'), 'torn');
});

t.test('a copy that cannot be made throws and leaves nothing behind', async (t) => {
  const dir = await tempDir(t);
  await t.rejects(keepCopy(join(dir, 'gone.json')), { code: 'ENOENT' });
  t.same(await readdir(dir), []);
});

t.test('a file damaged again and again is salvaged with at most COPIES_KEPT copies; moved-aside ones are bounded too', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'x.json');
  const log = watchedLogger();
  const options = {
    log,
    label: 'test file',
    fallback: 'starting empty',
    parse: (text: string) => new Salvaged(text, 'a damaged record', 'the rest is kept'),
  };
  for (let i = 0; i < COPIES_KEPT + 2; i++) {
    await writeFile(path, `damaged ${i}`);
    t.equal((await readDataFile(path, options)).status, 'salvaged');
  }
  t.equal((await readdir(dir)).filter((n) => corruptPattern('x.json').test(n)).length, COPIES_KEPT, 'copies before a rewrite');
  for (let i = 0; i < COPIES_KEPT + 2; i++) {
    await writeFile(path, '{');
    await quarantine(path, new Date(Date.UTC(2030, 0, 1, 0, 0, i)));
  }
  const aside = (await readdir(dir)).filter((n) => n.startsWith('x.json.corrupt-')).sort();
  t.equal(aside.length, COPIES_KEPT);
  t.match(aside.at(-1), /2030-01-01T00-00-04/, 'the newest move is kept');
});
