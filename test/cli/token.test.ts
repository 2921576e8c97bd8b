import { chown, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { AuthStore } from '../../src/auth/store.js';
import { silentLogger } from '../../src/core/log.js';
import { runCli } from './cli-process.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

async function tempData(t: { teardown(fn: () => unknown): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-cli-token-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'data');
}

t.test('token create prints the token alone, and the token authenticates as the owner', async (t) => {
  const data = await tempData(t);
  const r = await runCli(['token', 'create', '--data', data, '--name', 'laptop']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^\S+\n$/, 'one line on stdout');
  const token = r.stdout.trim();
  t.match(token, TOKEN_SHAPE);
  t.equal(r.stderr, '', 'nothing on stderr when it is not a terminal');

  const store = await AuthStore.open(data, silentLogger);
  const principal = store.authenticate(token);
  t.ok(principal, 'the printed token authenticates');
  t.equal(principal?.user.isOwner, true, 'the owner was created for it');
  t.same(
    store.listTokens().map((x) => x.name),
    ['laptop'],
  );
  t.equal(store.authenticate(`${token}x`), undefined, 'a changed token does not');
  await store.close();

  const mode = (await stat(join(data, 'auth.json'))).mode & 0o777;
  t.equal(mode, 0o600, 'auth.json is readable by its owner only');
});

t.test('a second token goes to the same owner; a duplicate name fails with exit 1', async (t) => {
  const data = await tempData(t);
  const first = await runCli(['token', 'create', '--data', data, '--name', 'phone']);
  const second = await runCli(['token', 'create', '--data', data, '--name', 'tablet']);
  t.equal(first.code, 0);
  t.equal(second.code, 0);
  const dup = await runCli(['token', 'create', '--data', data, '--name', 'phone']);
  t.equal(dup.code, 1);
  t.equal(dup.stdout, '', 'no token printed');
  t.match(dup.stderr, /a token named "phone" already exists/);
  t.notMatch(dup.stderr, /\n\s+at /, 'no stack trace');

  const store = await AuthStore.open(data, silentLogger);
  t.equal(store.users().length, 1, 'one owner');
  const a = store.authenticate(first.stdout.trim());
  const b = store.authenticate(second.stdout.trim());
  t.equal(a?.user.id, b?.user.id);
  t.equal(store.listTokens().length, 2, 'the duplicate was not stored');
  await store.close();
});

t.test('token list shows a table of name, created and last used', async (t) => {
  const data = await tempData(t);
  const empty = await runCli(['token', 'list', '--data', data]);
  t.equal(empty.code, 0);
  t.match(empty.stdout, /No tokens/);
  t.match(empty.stdout, `npx hearth token create --data ${data} --name NAME`);

  await runCli(['token', 'create', '--data', data, '--name', 'laptop']);
  await runCli(['token', 'create', '--data', data, '--name', 'kitchen tablet']);
  const r = await runCli(['token', 'list', '--data', data]);
  t.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  t.equal(lines.length, 3, 'a header and a line per token');
  t.match(lines[0], /^NAME\s+USER\s+CREATED\s+LAST USED$/);
  t.match(lines[1], /^laptop\s+Owner\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+never$/);
  t.match(lines[2], /^kitchen tablet\s+Owner\s+\d{4}-/);
  t.notMatch(r.stdout, /\.[A-Za-z0-9_-]{20,}/, 'no token or hash is shown');
});

t.test('token revoke removes the token; an unknown name fails with exit 1', async (t) => {
  const data = await tempData(t);
  const created = await runCli(['token', 'create', '--data', data, '--name', 'old-laptop']);
  const token = created.stdout.trim();

  const missing = await runCli(['token', 'revoke', '--data', data, 'nope']);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /no token named "nope"/);
  t.match(missing.stderr, /old-laptop/, 'names the tokens there are');

  const r = await runCli(['token', 'revoke', '--data', data, 'old-laptop']);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /Revoked token "old-laptop"/);
  const store = await AuthStore.open(data, silentLogger);
  t.equal(store.authenticate(token), undefined, 'the revoked token no longer authenticates');
  t.equal(store.listTokens().length, 0);
  await store.close();

  const again = await runCli(['token', 'revoke', '--data', data, 'old-laptop']);
  t.equal(again.code, 1);
});

t.test('token usage errors exit 2 with the usage on stderr', async (t) => {
  const data = await tempData(t);
  const noName = await runCli(['token', 'create', '--data', data]);
  t.equal(noName.code, 2);
  t.match(noName.stderr, /--name is required/);
  t.match(noName.stderr, /Usage: hearth token create --data DIR --name NAME/);
  t.equal(noName.stdout, '');

  const badFlag = await runCli(['token', 'create', '--data', data, '--name', 'x', '--colour', 'red']);
  t.equal(badFlag.code, 2);
  t.match(badFlag.stderr, /--colour/);

  const noSub = await runCli(['token']);
  t.equal(noSub.code, 2);
  t.match(noSub.stderr, /create, list or revoke/);

  const badSub = await runCli(['token', 'delete', '--data', data]);
  t.equal(badSub.code, 2);

  const noTarget = await runCli(['token', 'revoke', '--data', data]);
  t.equal(noTarget.code, 2);
  t.match(noTarget.stderr, /missing the NAME/);
});

t.test(
  'run as root on a data directory of another user, auth.json goes to that user',
  { skip: process.getuid?.() !== 0 && 'needs root' },
  async (t) => {
    const data = await tempData(t);
    await mkdir(data, { mode: 0o700 });
    await chown(data, 65534, 65534);
    const r = await runCli(['token', 'create', '--data', data, '--name', 'service']);
    t.equal(r.code, 0, r.stderr);
    const file = await stat(join(data, 'auth.json'));
    t.equal(file.uid, 65534, 'the service user can still read its tokens');
    t.equal(file.mode & 0o777, 0o600);
  },
);
