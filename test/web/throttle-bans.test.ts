import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import t from 'tap';
import { BANS_FILE } from '../../src/auth/ban-file.js';
import { FREE_FAILURES } from '../../src/auth/bans.js';
import { unbanCommand } from '../../src/cli/unban.js';
import { type UserCommandIo, userCommand } from '../../src/cli/user.js';
import { upgradeStatus, WsClient, withDeadline } from '../api/ws/client.js';
import { MINIMAL_CONFIG } from '../helpers/hub.js';
import { FormBrowser, onboard, rest, startWebHub } from './helpers.js';

const banConfig = (threshold: number): string =>
  `${MINIMAL_CONFIG}\nhttp:\n  ip_ban_enabled: true\n  login_attempts_threshold: ${threshold}\n`;

async function badLogin(browser: FormBrowser): Promise<number> {
  const page = await browser.get('/login');
  return (await browser.post('/login', { csrf: page.csrf, username: 'ada', password: 'wrong password' })).status;
}

/** The file's text once it matches, waiting on changes to its directory (the ban is written in the background). */
function fileMatching(path: string, pattern: RegExp, deadlineMs = 3000): Promise<string> {
  return withDeadline(
    new Promise<string>((resolve) => {
      const check = (): void => {
        readFile(path, 'utf8').then(
          (text) => {
            if (pattern.test(text)) {
              watcher.close();
              resolve(text);
            }
          },
          () => {},
        );
      };
      const watcher = watch(dirname(path), check);
      check();
    }),
    deadlineMs,
    `${path} to match ${pattern}`,
  );
}

t.test('failed logins are throttled per address: after a few, the form makes it wait (429 + Retry-After)', async (t) => {
  const web = await startWebHub(t);
  await onboard(web);
  const browser = new FormBrowser(web.url);
  for (let i = 0; i < FREE_FAILURES; i++) t.equal(await badLogin(browser), 401, `attempt ${i + 1} is checked`);
  const page = await browser.get('/login');
  const waited = await browser.post('/login', { csrf: page.csrf, username: 'ada', password: 'analytical engine' });
  t.equal(waited.status, 429, 'even the right password waits: the password is not checked at all');
  t.match(waited.text, /Too many failed attempts from your address\. Wait \d+ seconds?/);
  t.match(waited.headers.get('retry-after'), /^\d+$/);
  t.notOk(browser.cookies.has('hearth_session'));
  t.equal((await browser.get('/login')).status, 200, 'the page itself still shows (no ban configured)');
});

t.test('with login_attempts_threshold, an address is banned: 403 everywhere, persisted, until `hearth unban`', async (t) => {
  const web = await startWebHub(t, { yaml: banConfig(8) });
  const owner = await onboard(web);
  const token = await web.hub.auth.createToken(web.hub.auth.ownerUser()?.id ?? '', 'script');
  const browser = new FormBrowser(web.url);
  let status = 0;
  let attempts = 0;
  while (status !== 403 && attempts < 20) {
    attempts++;
    status = await badLogin(browser);
  }
  t.equal(status, 403, 'banned');
  t.equal(attempts, 9, 'the 8th failure bans (throttled attempts count too); the 9th request is refused');
  t.match(await fileMatching(join(web.dataDir, BANS_FILE), /^"127\.0\.0\.1":\n {2}banned_at: /), /127/, 'written to ip_bans.yaml');
  await web.log.waitFor(/^Banned IP 127\.0\.0\.1 for too many login attempts$/);

  t.equal((await fetch(`${web.url}/api/`, { headers: { authorization: `Bearer ${token}` } })).status, 403, 'REST, even with a good token');
  t.equal((await fetch(`${web.url}/no/such/page`)).status, 403, 'unknown paths too');
  t.equal((await owner.get('/profile')).status, 403, 'and pages, even with a good session');
  t.equal((await fetch(`${web.url}/static/x/y.js`)).status, 403);
  t.equal(await upgradeStatus(web.wsUrl), 403, 'the WebSocket upgrade');

  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
  t.equal(await unbanCommand(['--data', web.dataDir, '--list'], io), 0);
  t.match(out.join(''), /^127\.0\.0\.1 {2}banned at /);
  t.equal(await unbanCommand(['--data', web.dataDir, '::ffff:127.0.0.1'], io), 0, 'any spelling of the address');
  t.match(out.join(''), /Unbanned 127\.0\.0\.1\./);
  await web.log.waitFor(/ip_bans\.yaml changed; 0 banned address\(es\) now/);
  t.equal((await rest(web, '/api/', token)).status, 200, 'the running hub lets the address in again');
  t.equal((await owner.get('/profile')).status, 200);
  t.equal(await unbanCommand(['--data', web.dataDir, '127.0.0.1'], io), 1, 'not banned any more');
  t.match(out.join(''), /127\.0\.0\.1 is not banned/);
});

t.test('wrong tokens on REST and WebSocket count as failed attempts; a WebSocket success resets the count', async (t) => {
  const web = await startWebHub(t, { yaml: banConfig(3) });
  await onboard(web);
  const good = await web.hub.auth.createToken(web.hub.auth.ownerUser()?.id ?? '', 'good');
  t.equal((await rest(web, '/api/', 'wrong.token')).status, 401);
  const bad = await WsClient.open(web.wsUrl);
  bad.send({ type: 'auth', access_token: 'wrong.token' });
  await bad.waitFor((m) => m.type === 'auth_invalid');
  (await WsClient.authenticated(web.wsUrl, good)).close();
  t.equal((await rest(web, '/api/', 'wrong.token')).status, 401, 'the success reset the count');
  t.equal((await rest(web, '/api/', 'wrong.token')).status, 401);
  const third = await WsClient.open(web.wsUrl);
  third.send({ type: 'auth', access_token: 'still.wrong' });
  await third.waitFor((m) => m.type === 'auth_invalid');
  t.equal((await rest(web, '/api/', good)).status, 403, 'three failures in a row ban');
  t.equal(await upgradeStatus(web.wsUrl), 403);
});

t.test(
  '`hearth user password USERNAME` sets the password of a CLI-made owner; the running hub uses it and onboarding closes',
  async (t) => {
    const web = await startWebHub(t);
    await web.hub.auth.ensureOwner();
    t.equal((await new FormBrowser(web.url).get('/')).location, '/onboarding');
    const out: string[] = [];
    const io = (password: string, terminal = false): UserCommandIo => ({
      readPassword: async () => password,
      isTerminal: terminal,
      out: (s) => out.push(s),
      err: (s) => out.push(s),
    });
    t.equal(await userCommand(['password', '--data', web.dataDir, 'admin'], io('short')), 1);
    t.match(out.join(''), /password must have at least 8 characters/);
    t.equal(await userCommand(['password', '--data', web.dataDir, 'admin'], io('a long password')), 0);
    t.match(out.join(''), /Password set for admin \(Owner\)/);
    t.equal(await userCommand(['password', '--data', web.dataDir, 'someone'], io('a long password')), 1, 'the owner has a login now');
    t.match(out.join(''), /no user logs in as "someone".*usernames: admin/);

    const browser = new FormBrowser(web.url);
    t.equal((await browser.get('/')).location, '/login', 'onboarding closed');
    const page = await browser.get('/login');
    const login = await browser.post('/login', { csrf: page.csrf, username: 'admin', password: 'a long password' });
    t.equal(login.status, 302, 'the running hub takes the new password');
    t.equal(await userCommand(['password', '--data', web.dataDir, 'admin'], io('another long one')), 0, 'a password can be changed');
    t.equal((await web.hub.auth.checkPassword('admin', 'another long one'))?.isOwner, true);
  },
);

t.test('the CLI commands explain their usage', async (t) => {
  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => out.push(s) };
  await t.rejects(unbanCommand([], io), { name: 'UsageError', message: 'missing the ADDRESS to unban' });
  await t.rejects(unbanCommand(['example.com'], io), { message: /is not an IP address/ });
  await t.rejects(userCommand([], { ...io, isTerminal: false, readPassword: async () => '' }), {
    message: 'missing the user command: password',
  });
  await t.rejects(userCommand(['password', 'Not Valid'], { ...io, isTerminal: false, readPassword: async () => '' }), {
    message: /^USERNAME must have 1 to 64 characters/,
  });
  t.equal(await unbanCommand(['--help'], io), 0);
  t.match(out.join(''), /Usage: hearth unban/);
});
