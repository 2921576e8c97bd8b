import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ACCESS_TOKEN_TTL_MS, AccessTokens } from '../../src/auth/access-tokens.js';
import { CREDENTIALS_FILE } from '../../src/auth/credentials.js';
import { AuthStore } from '../../src/auth/store.js';
import { silentLogger } from '../../src/core/log.js';

async function tempDir(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-auth-web-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('page access tokens: valid for 30 minutes, per group, revoked together, bounded', async (t) => {
  let now = 1_000_000;
  const tokens = new AccessTokens(() => now);
  const a = tokens.issue('u1', 'session:a');
  t.equal(a.expiresInS, ACCESS_TOKEN_TTL_MS / 1000);
  const [id, secret] = a.token.split('.') as [string, string];
  t.same(tokens.check(id, secret), { userId: 'u1', groupId: 'session:a' });
  t.equal(tokens.check(id, `${secret}x`), undefined, 'a wrong secret');
  now += ACCESS_TOKEN_TTL_MS;
  t.equal(tokens.check(id, secret), undefined, 'expired after 30 minutes');

  const b = tokens.issue('u1', 'session:b');
  const c = tokens.issue('u1', 'session:c');
  t.ok(tokens.revokeGroup('session:b'));
  t.notOk(tokens.revokeGroup('session:b'), 'nothing left to revoke');
  const [bid, bsecret] = b.token.split('.') as [string, string];
  const [cid, csecret] = c.token.split('.') as [string, string];
  t.equal(tokens.check(bid, bsecret), undefined);
  t.ok(tokens.check(cid, csecret), 'other groups keep theirs');

  for (let i = 0; i < 50; i++) tokens.issue('u1', 'session:busy');
  t.ok(tokens.size <= 10, `a group keeps at most 8 tokens (${tokens.size} in all)`);
});

t.test('the auth store accepts page tokens like long-lived ones, and revoking their group tells listeners', async (t) => {
  const store = await AuthStore.open(await tempDir(t), silentLogger);
  t.teardown(() => store.close());
  const owner = await store.ensureOwner('Ada');
  const issued = store.issueAccessToken(owner.id, 'session:one');
  const principal = store.authenticate(issued.token);
  t.equal(principal?.user.id, owner.id);
  t.equal(principal?.tokenId, 'session:one', 'the group is what revocation matches');
  t.same(store.listTokens(), [], 'page tokens are not long-lived tokens');
  const revoked: string[] = [];
  store.onRevoke((id) => revoked.push(id));
  store.revokeAccessTokens('session:one');
  t.same(revoked, ['session:one']);
  t.equal(store.authenticate(issued.token), undefined);
  t.throws(() => store.issueAccessToken('nobody', 'g'), /no user/);
});

t.test('passwords: set with a username, checked, stored only as scrypt hashes, and onboarding closes', async (t) => {
  const dir = await tempDir(t);
  const store = await AuthStore.open(dir, silentLogger);
  t.teardown(() => store.close());
  const owner = await store.ensureOwner('Ada');
  t.equal(await store.onboarded(), false);
  t.equal(await store.usernameOf(owner.id), undefined);

  await t.rejects(store.setPassword(owner.id, 'Ada Lovelace', 'long enough'), { message: /^username must have 1 to 64 characters/ });
  await t.rejects(store.setPassword(owner.id, 'ada', 'short'), { message: 'password must have at least 8 characters' });
  t.equal(await store.onboarded(), false, 'a refused password changes nothing');

  await store.setPassword(owner.id, ' Ada ', 'analytical engine');
  t.equal(await store.onboarded(), true);
  t.equal(await store.usernameOf(owner.id), 'ada', 'usernames are trimmed and lower case');
  t.equal((await store.checkPassword('ADA', 'analytical engine'))?.id, owner.id, 'usernames match in any case');
  t.equal(await store.checkPassword('ada', 'difference engine'), undefined);
  t.equal(await store.checkPassword('babbage', 'analytical engine'), undefined, 'an unknown user');

  const file = await readFile(join(dir, CREDENTIALS_FILE), 'utf8');
  t.notOk(file.includes('analytical'), 'the password is not on disk');
  t.match(file, /"password": "scrypt\$/);
  t.equal((await stat(join(dir, CREDENTIALS_FILE))).mode & 0o777, 0o600);

  const again = await AuthStore.open(dir, silentLogger);
  t.teardown(() => again.close());
  t.equal((await again.checkPassword('ada', 'analytical engine'))?.name, 'Ada', 'survives a restart');
});

t.test('a password set by another process (the CLI) is used at once by a running store', async (t) => {
  const dir = await tempDir(t);
  const hub = await AuthStore.open(dir, silentLogger);
  t.teardown(() => hub.close());
  const owner = await hub.ensureOwner('Ada');
  t.equal(await hub.onboarded(), false);
  const cli = await AuthStore.open(dir, silentLogger);
  await cli.setPassword(owner.id, 'ada', 'from the command line');
  await cli.close();
  t.equal(await hub.onboarded(), true);
  t.equal((await hub.checkPassword('ada', 'from the command line'))?.id, owner.id);
});

t.test('a corrupt credentials file keeps onboarding closed', async (t) => {
  const dir = await tempDir(t);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(join(dir, CREDENTIALS_FILE), '{not json');
  const store = await AuthStore.open(dir, silentLogger);
  t.teardown(() => store.close());
  t.equal(await store.onboarded(), true, 'nobody can claim the hub through a broken file');
  const reopened = await AuthStore.open(dir, silentLogger);
  t.teardown(() => reopened.close());
  t.equal(await reopened.onboarded(), true, 'and it stays closed after a restart');
});
