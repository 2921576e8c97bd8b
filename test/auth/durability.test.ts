import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { BANS_FILE } from '../../src/auth/ban-file.js';
import { LoginGuard } from '../../src/auth/bans.js';
import { SESSIONS_FILE, SessionStore } from '../../src/auth/sessions.js';
import { AUTH_FILE, AuthStore } from '../../src/auth/store.js';
import { startTestHub } from '../helpers/hub.js';
import { corruptPattern, smallDisk, tempDir, type WatchedLogger, watchedLogger } from '../storage/helpers.js';

const BANS_ON = { ip_ban_enabled: true, login_attempts_threshold: 1 };

/** What became of a data file that did not parse: the new name (`<name>.corrupt-<time>`) and the error lines naming it. */
async function quarantined(dir: string, name: string, log: WatchedLogger): Promise<{ movedTo: string | undefined; errors: string[] }> {
  const moved = (await readdir(dir)).find((f) => corruptPattern(name).test(f));
  const errors = log.entries.filter((e) => e.level === 'error' && e.msg.includes(join(dir, name))).map((e) => e.msg);
  return { movedTo: moved === undefined ? undefined : join(dir, moved), errors };
}

/** Moved aside, with one error naming the file and where it went. */
function isQuarantined(q: { movedTo: string | undefined; errors: string[] }): boolean {
  return q.movedTo !== undefined && q.errors.length === 1 && (q.errors[0] as string).includes(q.movedTo);
}

for (const [what, text] of [
  ['not JSON', '{"version":1,"users":[{"id":'],
  ['the wrong shape', '{"version":1,"users":{}}'],
] as const) {
  t.test(`auth.json that is ${what} is moved aside; the store starts with no users and writes a clean file`, async (t) => {
    const dir = await tempDir(t);
    await writeFile(join(dir, AUTH_FILE), text);
    const log = watchedLogger();
    const store = await AuthStore.open(dir, log, { watch: true });
    t.teardown(() => store.close());
    t.same(store.users(), []);
    t.ok(isQuarantined(await quarantined(dir, AUTH_FILE, log)), `${AUTH_FILE} moved aside as <name>.corrupt-<time>, one error naming both`);
    const owner = await store.ensureOwner('Owner');
    t.match(JSON.parse(await readFile(join(dir, AUTH_FILE), 'utf8')), { users: [{ id: owner.id }] });
  });
}

t.test('a corrupt sessions.json is moved aside with one error; everyone logs in again', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, SESSIONS_FILE), '\u0000\u0000\u0000');
  const log = watchedLogger();
  const store = await SessionStore.open(dir, log);
  t.teardown(() => store.close());
  t.equal(store.size, 0);
  t.ok(
    isQuarantined(await quarantined(dir, SESSIONS_FILE, log)),
    `${SESSIONS_FILE} moved aside as <name>.corrupt-<time>, one error naming both`,
  );
});

t.test('an ip_bans.yaml that is not YAML is moved aside with one error; no address is banned', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, BANS_FILE), '"10.0.0.1":\n  banned_at: "2026\n  - [');
  const log = watchedLogger();
  const guard = await LoginGuard.open(dir, BANS_ON, log);
  t.teardown(() => guard.close());
  t.equal(guard.active, false);
  t.ok(isQuarantined(await quarantined(dir, BANS_FILE, log)), `${BANS_FILE} moved aside as <name>.corrupt-<time>, one error naming both`);
  t.match(log.matching('error', /./)[0]?.msg, /no address is banned now/);
});

t.test('missing files are no error: every store starts empty', async (t) => {
  const dir = await tempDir(t);
  const log = watchedLogger();
  const auth = await AuthStore.open(dir, log);
  const sessions = await SessionStore.open(dir, log);
  const guard = await LoginGuard.open(dir, BANS_ON, log);
  t.teardown(() => Promise.all([auth.close(), sessions.close(), guard.close()]));
  t.same(auth.users(), []);
  t.equal(sessions.size, 0);
  t.equal(guard.active, false);
  t.same(log.matching('error', /./), []);
  t.same(await readdir(dir), [], 'nothing is written before something changes');
});

t.test('the hub starts with corrupt auth, ban and registry files: each moved aside, one error each, REST answers', async (t) => {
  const dir = await tempDir(t);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(join(dir, 'registry'));
  await writeFile(join(dir, AUTH_FILE), '{"users": [');
  await writeFile(join(dir, BANS_FILE), ': : :\n- x');
  await writeFile(join(dir, 'registry', 'entities.json'), '{"version":1,"items":');
  const log = watchedLogger();
  const yaml = 'hub:\n  name: Home\nhttp:\n  ip_ban_enabled: true\nvirtual:\n  - {platform: switch, id: pump, name: Pump}\n';
  const h = await startTestHub(t, { yaml, dataDir: dir, log });
  t.equal((await h.api('/api/states/switch.pump')).status, 200, 'the owner created after start has a working token');
  t.ok(isQuarantined(await quarantined(dir, AUTH_FILE, log)), `${AUTH_FILE} moved aside as <name>.corrupt-<time>, one error naming both`);
  t.ok(isQuarantined(await quarantined(dir, BANS_FILE, log)), `${BANS_FILE} moved aside as <name>.corrupt-<time>, one error naming both`);
  t.ok(
    isQuarantined(await quarantined(join(dir, 'registry'), 'entities.json', log)),
    'entities.json moved aside as <name>.corrupt-<time>, one error naming both',
  );
});

t.test('auth.json on a read-only disk (tmpfs; skipped where it cannot be mounted)', async (t) => {
  const disk = await smallDisk(t);
  if (disk === undefined) {
    t.pass('skipped: a tmpfs cannot be mounted here (not root); test/storage/data-file.test.ts injects the same failures');
    return;
  }
  const log = watchedLogger();
  const hub = await AuthStore.open(disk.dir, log, { watch: true });
  const owner = await hub.ensureOwner('Owner');
  await disk.remount('ro');
  t.teardown(() => disk.remount('rw'));
  const token = await hub.createToken(owner.id, 'phone');
  t.equal(hub.authenticate(token)?.user.id, owner.id, 'the hub accepts the new token from memory');
  t.equal(log.matching('error', /./).length, 1);
  t.match(log.matching('error', /./)[0]?.msg, /could not write auth file .*auth\.json \(EROFS: the file system is read-only\)/);

  const cli = await AuthStore.open(disk.dir, watchedLogger());
  await t.rejects(
    cli.createToken(owner.id, 'laptop'),
    { code: 'EROFS' },
    'a CLI command fails instead of printing a token it could not save',
  );
  await cli.close();

  await disk.remount('rw');
  // The hub's first retry is 5 s after the failure.
  await log.until('info', /auth\.json is written again/, 15_000);
  t.match(JSON.parse(await readFile(join(disk.dir, AUTH_FILE), 'utf8')).tokens, [{ name: 'phone' }]);
  await hub.close();
});
