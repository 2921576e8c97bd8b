import { readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { DataFile, jsonOf, readDataFile, readOrCreate } from '../../src/storage/data-file.js';
import { corruptPattern, FlakyDisk, smallDisk, tempDir, watchedLogger } from './helpers.js';

interface Doc {
  readonly items: unknown[];
}
const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && Array.isArray((v as Doc).items);
const readOptions = (log: ReturnType<typeof watchedLogger>) => ({
  log,
  parse: jsonOf(isDoc, 'a doc'),
  label: 'test file',
  fallback: 'starting empty',
});

t.test('a missing file is no error', async (t) => {
  const dir = await tempDir(t);
  const log = watchedLogger();
  t.same(await readDataFile(join(dir, 'x.json'), readOptions(log)), { status: 'missing' });
  t.same(log.entries, []);
  t.same(await readdir(dir), [], 'nothing is created by reading');
});

for (const [what, text] of [
  ['does not parse', '{"items": [1, 2'],
  ['has the wrong shape', '{"something": "else"}'],
  ['is binary garbage', '\u0000\u0001\u0002'],
] as const) {
  t.test(`a file that ${what} is moved aside as <name>.corrupt-<time>, with one error naming both`, async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, 'x.json');
    await writeFile(path, text);
    const log = watchedLogger();
    const loaded = await readDataFile(path, readOptions(log));
    t.equal(loaded.status, 'corrupt');
    const files = await readdir(dir);
    t.equal(files.length, 1);
    t.match(files[0], corruptPattern('x.json'));
    t.equal(await readFile(join(dir, files[0] as string), 'utf8'), text, 'the content is kept for inspection');
    const errors = log.entries.filter((e) => e.level === 'error');
    t.equal(errors.length, 1, 'one error');
    t.ok(errors[0]?.msg.includes(path) && errors[0].msg.includes(join(dir, files[0] as string)), errors[0]?.msg ?? '');
    t.match(errors[0]?.msg, /starting empty/);
  });
}

t.test('a temp file left by a power cut is never read, and removed once it is stale', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'x.json');
  await writeFile(path, '{"items":[1]}');
  const stale = join(dir, '.x.json.0123456789ab.tmp');
  const fresh = join(dir, '.x.json.ba9876543210.tmp');
  await writeFile(stale, '{"items":[1,2');
  await writeFile(fresh, '{"items":[1,2,3');
  const old = new Date(Date.now() - 60_000);
  await utimes(stale, old, old);
  const log = watchedLogger();
  t.same(await readDataFile(path, readOptions(log)), { status: 'ok', value: { items: [1] } });
  t.same(
    (await readdir(dir)).sort(),
    ['.x.json.ba9876543210.tmp', 'x.json'],
    'the stale temp file is gone; a fresh one may be a write in progress',
  );
  t.same(log.matching('error', /./), []);
  await rm(path);
  t.same(await readDataFile(path, readOptions(log)), { status: 'missing' }, 'a temp file alone is not the data file');
});

/** A DataFile over a FlakyDisk whose content is a counter the test bumps. */
function counterFile(path: string, disk: FlakyDisk, log: ReturnType<typeof watchedLogger>) {
  const state = { value: 0 };
  const file = new DataFile({
    path,
    log,
    label: 'test file',
    writeFile: disk.writeFile,
    retry: { initialMs: 20, maxMs: 80 },
    render: () => `${state.value}\n`,
  });
  return { file, state };
}

for (const code of ['ENOSPC', 'EROFS', 'EDQUOT', 'EIO', 'EACCES']) {
  t.test(`${code}: one error, memory stays the truth, the latest content is written later without another change`, async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, 'x.json');
    const disk = new FlakyDisk();
    const log = watchedLogger();
    const { file, state } = counterFile(path, disk, log);
    t.teardown(() => file.stop());
    state.value = 1;
    await file.save();
    disk.failWith = code;
    state.value = 2;
    await t.rejects(file.save(), { code }, 'the caller may see the failure');
    t.ok(file.failing);
    for (let i = 3; i <= 5; i++) {
      state.value = i;
      await t.rejects(file.save(), { code }, 'a change while failing waits for the retry');
    }
    await disk.until(() => disk.failed >= 4, 'three retries');
    t.equal(log.matching('error', /./).length, 1, 'logged once, however many attempts fail');
    t.match(log.matching('error', /./)[0]?.msg, new RegExp(`could not write test file ${path.replace(/[.]/g, '\\.')} \\(${code}: `));
    t.equal(await readFile(path, 'utf8'), '1\n', 'the old content is intact');
    disk.failWith = undefined;
    await log.until('info', /is written again/);
    t.same(disk.written, ['1\n', '5\n'], 'only the latest content is written, once');
    t.equal(await readFile(path, 'utf8'), '5\n');
    t.equal(log.matching('info', /is written again/).length, 1, 'recovery logged once');
    t.notOk(file.failing);
    state.value = 6;
    await file.save();
    t.equal(await readFile(path, 'utf8'), '6\n', 'writes go straight through again');
    t.equal(log.matching('error', /./).length, 1);
  });
}

t.test('retries back off, doubling up to the maximum', async (t) => {
  const dir = await tempDir(t);
  const disk = new FlakyDisk();
  const log = watchedLogger();
  const { file } = counterFile(join(dir, 'x.json'), disk, log);
  t.teardown(() => file.stop());
  disk.failWith = 'ENOSPC';
  file.save().catch(() => {});
  await disk.until(() => disk.failed >= 5, 'five attempts');
  const times = disk.attempts.map((x) => x.at);
  const gaps = times.slice(1).map((at, i) => at - (times[i] as number));
  t.ok(gaps[0] !== undefined && gaps[0] >= 15, `first retry after ~20 ms (${gaps})`);
  t.ok(gaps[1] !== undefined && gaps[1] >= 35, `then ~40 ms (${gaps})`);
  t.ok(gaps[3] !== undefined && gaps[3] >= 75, `capped at ~80 ms (${gaps})`);
});

t.test('without retry (a CLI command) a refused write fails and is not logged or retried', async (t) => {
  const dir = await tempDir(t);
  const disk = new FlakyDisk();
  const log = watchedLogger();
  const file = new DataFile({
    path: join(dir, 'x.json'),
    log,
    label: 'test file',
    writeFile: disk.writeFile,
    retry: false,
    render: () => 'x',
  });
  disk.failWith = 'EROFS';
  await t.rejects(file.save(), { code: 'EROFS' });
  await t.rejects(file.save(), { code: 'EROFS' }, 'each save tries again');
  t.notOk(file.failing);
  t.same(log.entries, []);
  await file.stop();
  t.equal(disk.failed, 2);
});

t.test('on a real full disk and a read-only file system (tmpfs; skipped where it cannot be mounted)', async (t) => {
  const disk = await smallDisk(t, 64);
  if (disk === undefined) {
    t.pass('skipped: a tmpfs cannot be mounted here (not root); the injected failures above cover the same paths');
    return;
  }
  const path = join(disk.dir, 'x.json');
  const log = watchedLogger();
  const state = { text: 'small\n' };
  const file = new DataFile({ path, log, label: 'test file', retry: { initialMs: 20, maxMs: 40 }, render: () => state.text });
  t.teardown(() => file.stop());
  await file.save();
  await writeFile(join(disk.dir, 'filler'), Buffer.alloc(40 * 1024));
  state.text = `${'x'.repeat(40 * 1024)}\n`;
  await t.rejects(file.save(), { code: 'ENOSPC' });
  t.match(log.matching('error', /./)[0]?.msg, /\(ENOSPC: the disk is full\)/);
  t.equal(await readFile(path, 'utf8'), 'small\n', 'the old file is intact');
  t.same((await readdir(disk.dir)).sort(), ['filler', 'x.json'], 'no temp file left behind');
  await rm(join(disk.dir, 'filler'));
  await log.until('info', /is written again/);
  t.equal((await readFile(path, 'utf8')).length, 40 * 1024 + 1);

  await disk.remount('ro');
  state.text = 'read-only\n';
  await t.rejects(file.save(), { code: 'EROFS' });
  t.match(log.matching('error', /./)[1]?.msg, /\(EROFS: the file system is read-only\)/);
  await disk.remount('rw');
  await log.until('info', /is written again/, 5000, 2);
  t.equal(await readFile(path, 'utf8'), 'read-only\n');
  t.equal(log.matching('error', /./).length, 2, 'one error per outage');
});

t.test('readOrCreate: made and written once, then read back; an unreadable file is moved aside and made again', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'setup.json');
  const log = watchedLogger();
  const isCode = (v: unknown): v is { code: number } => typeof (v as { code?: unknown } | null)?.code === 'number';
  let made = 0;
  const options = { log, parse: jsonOf(isCode, '{"code"}'), label: 'setup file', fallback: 'a new code', make: () => ({ code: ++made }) };
  t.same(await readOrCreate(path, options), { code: 1 }, 'made');
  t.same(JSON.parse(await readFile(path, 'utf8')), { code: 1 }, 'and written');
  t.same(await readOrCreate(path, options), { code: 1 }, 'read back, not made again');
  await writeFile(path, '{"code": "x"}');
  t.same(await readOrCreate(path, options), { code: 2 }, 'a wrong shape is made again');
  t.ok(
    (await readdir(dir)).some((n) => corruptPattern('setup.json').test(n)),
    'the unreadable file is kept aside',
  );
});
