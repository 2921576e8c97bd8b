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

t.test('a watching store sees tokens another process creates and revokes, and never undoes them', async (t) => {
  const dir = await tempDir(t);
  const hub = await AuthStore.open(dir, silentLogger, { watch: true });
  t.teardown(() => hub.close());
  const owner = await hub.ensureOwner('Ada');
  const revoked: string[] = [];
  let onRevoked: (() => void) | undefined;
  hub.onRevoke((id) => {
    revoked.push(id);
    onRevoked?.();
  });

  // The CLI is another process with its own store on the same file.
  const cli = await AuthStore.open(dir, silentLogger);
  const token = await cli.createToken(owner.id, 'from-cli');
  // No event says "reloaded", so poll authenticate() until a deadline (the watch normally fires within ms).
  const deadline = Date.now() + 3000;
  while (hub.authenticate(token) === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.equal(hub.authenticate(token)?.user.id, owner.id, 'the hub accepts the CLI token');

  // The hub writing (a token of its own) keeps the CLI's token.
  await hub.createToken(owner.id, 'from-hub');
  const cli2 = await AuthStore.open(dir, silentLogger);
  t.same(
    cli2
      .listTokens()
      .map((x) => x.name)
      .sort(),
    ['from-cli', 'from-hub'],
  );

  const id = cli2.findTokenByName('from-cli')?.id ?? '';
  // The deadline timer also keeps the loop alive while waiting (the watch itself does not).
  let deadlineTimer: NodeJS.Timeout | undefined;
  const seen = new Promise<void>((resolve, reject) => {
    onRevoked = resolve;
    deadlineTimer = setTimeout(() => reject(new Error('the hub did not see the revocation within 3 s')), 3000);
  }).finally(() => clearTimeout(deadlineTimer));
  await cli2.revokeToken(id);
  await seen;
  t.same(revoked, [id], 'revocation by the CLI reaches the hub');
  t.equal(hub.authenticate(token), undefined);
  await hub.close();
  const after = await AuthStore.open(dir, silentLogger);
  t.same(
    after.listTokens().map((x) => x.name),
    ['from-hub'],
    'closing the hub does not bring the revoked token back',
  );
});
