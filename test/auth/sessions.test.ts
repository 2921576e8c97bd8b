import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { csrfTokenFor, SESSION_IDLE_MS, SESSIONS_FILE, SessionStore } from '../../src/auth/sessions.js';
import { silentLogger } from '../../src/core/log.js';

async function tempDir(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-sessions-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('a session is found by its cookie secret, survives a restart, and ends on logout', async (t) => {
  const dir = await tempDir(t);
  const store = await SessionStore.open(dir, silentLogger);
  const { secret, session } = await store.create('user-1', 'Firefox on a phone');
  t.match(secret, /^[\w-]{43}$/);
  t.equal(store.get(secret)?.userId, 'user-1');
  // Another last character (the last of 43 base64url characters is one of 16, so 'A' alone was the secret itself
  // in one run out of 16).
  t.equal(store.get(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'E' : 'A'}`), undefined, 'a secret one character off');
  t.equal(store.get(''), undefined);
  t.equal(session.csrf, csrfTokenFor(secret), 'the CSRF token derives from the secret');
  t.not(session.csrf, csrfTokenFor(secret, 'form'), 'and differs per purpose');
  t.match(session.tokenGroup, /^session:[0-9a-f]{24}$/);

  const text = await readFile(join(dir, SESSIONS_FILE), 'utf8');
  t.notOk(text.includes(secret), 'only a hash of the secret is stored');
  t.equal((await stat(join(dir, SESSIONS_FILE))).mode & 0o777, 0o600);
  await store.close();

  const reopened = await SessionStore.open(dir, silentLogger);
  t.equal(reopened.get(secret)?.id, session.id, 'still logged in after a restart');
  t.ok(await reopened.end(session.id));
  t.notOk(await reopened.end(session.id));
  t.equal(reopened.get(secret), undefined);
  await reopened.close();
});

t.test('sessions expire after 30 idle days, and use pushes the expiry on', async (t) => {
  const dir = await tempDir(t);
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = await SessionStore.open(dir, silentLogger, () => now);
  const used = await store.create('u', '');
  const idle = await store.create('u', '');
  now += SESSION_IDLE_MS - 1000;
  t.ok(store.get(used.secret), 'used just before expiry: renewed');
  now += 2000;
  t.equal(store.get(idle.secret), undefined, 'the idle one expired');
  t.ok(store.get(used.secret), 'the used one lives on');
  await store.close();
});

t.test('sessions are bounded per user', async (t) => {
  const store = await SessionStore.open(await tempDir(t), silentLogger);
  const first = await store.create('u', '');
  for (let i = 0; i < 25; i++) await store.create('u', '');
  t.equal(store.size, 20, 'at most 20 per user');
  t.equal(store.get(first.secret), undefined, 'the oldest went first');
  await store.close();
});
