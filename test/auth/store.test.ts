import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AUTH_FILE, AuthStore } from '../../src/auth/store.js';
import { silentLogger } from '../../src/core/log.js';

async function tempDir(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-auth-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('tokens authenticate, are stored only as hashes, survive a restart, and revoke at once', async (t) => {
  const dir = await tempDir(t);
  const store = await AuthStore.open(dir, silentLogger);
  const owner = await store.ensureOwner('Ada');
  t.equal((await store.ensureOwner('Other')).id, owner.id, 'one owner');
  const token = await store.createToken(owner.id, 'laptop');
  t.match(token, /^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/, '256-bit secret');
  t.equal(store.authenticate(token)?.user.name, 'Ada');
  const file = await readFile(join(dir, AUTH_FILE), 'utf8');
  t.notOk(file.includes(token.split('.')[1] as string), 'the secret is not on disk');
  t.equal((await stat(join(dir, AUTH_FILE))).mode & 0o777, 0o600);

  await t.rejects(store.createToken(owner.id, 'laptop'), { message: 'laptop already exists' });
  t.equal(store.authenticate(`${token}x`), undefined);
  t.equal(store.authenticate('garbage'), undefined);
  t.equal(store.authenticate(`${token.split('.')[0]}.${'A'.repeat(43)}`), undefined);

  const reopened = await AuthStore.open(dir, silentLogger);
  t.equal(reopened.authenticate(token)?.user.id, owner.id);

  const revoked: string[] = [];
  reopened.onRevoke((id) => revoked.push(id));
  const summary = reopened.findTokenByName('laptop');
  t.ok(summary);
  t.ok(await reopened.revokeToken(summary?.id ?? ''));
  t.same(revoked, [summary?.id]);
  t.equal(reopened.authenticate(token), undefined);
  t.notOk(await reopened.revokeToken('nope'));
  await reopened.close();
  await store.close();
});

t.test('last used times are recorded and written on close', async (t) => {
  const dir = await tempDir(t);
  const store = await AuthStore.open(dir, silentLogger);
  const owner = await store.ensureOwner();
  const token = await store.createToken(owner.id, 'a');
  t.equal(store.listTokens()[0]?.lastUsedAt, null);
  store.authenticate(token);
  await store.close();
  const again = await AuthStore.open(dir, silentLogger);
  t.type(again.listTokens()[0]?.lastUsedAt, 'string');
});
