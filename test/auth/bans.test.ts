import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { isIpAddress, normalizeAddress } from '../../src/auth/address.js';
import { BANS_FILE, parseBans, writeBans } from '../../src/auth/ban-file.js';
import { FREE_FAILURES, LoginGuard, MAX_DELAY_MS } from '../../src/auth/bans.js';
import { DEFAULT_HTTP_SETTINGS, HTTP_SECTION_VALIDATOR, readHttpSettings } from '../../src/auth/http-section.js';
import { parseConfigText } from '../../src/config/load.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { silentLogger } from '../../src/core/log.js';
import { withDeadline } from '../api/ws/client.js';

async function tempDir(t: { teardown(fn: () => unknown): void }) {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-bans-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('addresses have one spelling whatever uWS or a person writes', async (t) => {
  t.equal(normalizeAddress('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1', 'IPv4 on a dual-stack socket');
  t.equal(normalizeAddress('::ffff:192.168.1.20'), '192.168.1.20');
  t.equal(normalizeAddress('0000:0000:0000:0000:0000:0000:0000:0001'), '::1');
  t.equal(normalizeAddress('[FE80::0001]'), 'fe80::1');
  t.equal(normalizeAddress(' 10.0.0.7 '), '10.0.0.7');
  t.equal(normalizeAddress('not an address'), 'not an address');
  t.ok(isIpAddress('::1'));
  t.ok(isIpAddress('192.168.1.1'));
  t.notOk(isIpAddress('192.168.1'));
  t.notOk(isIpAddress('example.com'));
});

t.test('failures ban an address at the threshold; the ban is written in Home Assistant form and survives a restart', async (t) => {
  const dir = await tempDir(t);
  const guard = await LoginGuard.open(dir, { ip_ban_enabled: true, login_attempts_threshold: 3 }, silentLogger);
  t.teardown(() => guard.close());
  t.equal(guard.active, false);
  guard.recordFailure('0000:0000:0000:0000:0000:ffff:c0a8:0114', '/api/states');
  guard.recordFailure('192.168.1.20', '/login');
  t.notOk(guard.isBanned('192.168.1.20'), 'below the threshold');
  guard.recordSuccess('192.168.1.20');
  guard.recordFailure('192.168.1.20', '/login');
  guard.recordFailure('192.168.1.20', '/login');
  t.notOk(guard.isBanned('192.168.1.20'), 'a success reset the count');
  guard.recordFailure('192.168.1.20', '/login');
  t.ok(guard.isBanned('192.168.1.20'));
  t.ok(guard.isBanned('::ffff:192.168.1.20'), 'in any spelling');
  t.notOk(guard.isBanned('192.168.1.21'));
  t.equal(guard.active, true);
  await guard.close();
  const text = await readFile(join(dir, BANS_FILE), 'utf8');
  t.match(text, /^"192\.168\.1\.20":\n {2}banned_at: "\d{4}-\d\d-\d\dT[\d:.]+Z"\n$/);

  const again = await LoginGuard.open(dir, { ip_ban_enabled: true, login_attempts_threshold: 3 }, silentLogger);
  t.teardown(() => again.close());
  t.ok(again.isBanned('192.168.1.20'), 'loaded at start');
  t.ok(await again.unban('192.168.1.20'));
  t.notOk(await again.unban('192.168.1.20'));
  t.notOk(again.isBanned('192.168.1.20'));
  t.equal(await readFile(join(dir, BANS_FILE), 'utf8'), '');
});

t.test('Home Assistant defaults: no threshold, no bans; ip_ban_enabled false ignores the file', async (t) => {
  const dir = await tempDir(t);
  const defaults = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, silentLogger);
  t.teardown(() => defaults.close());
  for (let i = 0; i < 50; i++) defaults.recordFailure('10.0.0.1', '/login');
  t.notOk(defaults.isBanned('10.0.0.1'), 'login_attempts_threshold -1 never bans');

  await writeFile(join(dir, BANS_FILE), '10.0.0.9:\n  banned_at: "2026-01-01T00:00:00+00:00"\n');
  const off = await LoginGuard.open(dir, { ip_ban_enabled: false, login_attempts_threshold: 1 }, silentLogger);
  t.teardown(() => off.close());
  t.notOk(off.isBanned('10.0.0.9'));
  off.recordFailure('10.0.0.2', '/login');
  t.notOk(off.isBanned('10.0.0.2'));
  const on = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, silentLogger);
  t.teardown(() => on.close());
  t.ok(on.isBanned('10.0.0.9'), 'bans in the file hold even without a threshold, as in Home Assistant');
});

t.test('the login form makes an address wait after repeated failures, doubling up to a cap', async (t) => {
  let now = 1_000_000;
  const guard = await LoginGuard.open(await tempDir(t), DEFAULT_HTTP_SETTINGS, silentLogger, () => now);
  t.teardown(() => guard.close());
  for (let i = 0; i < FREE_FAILURES - 1; i++) guard.recordFailure('10.0.0.3', '/login');
  t.equal(guard.retryAfterMs('10.0.0.3'), 0, 'a few mistakes cost nothing');
  guard.recordFailure('10.0.0.3', '/login');
  t.equal(guard.retryAfterMs('10.0.0.3'), 1000);
  guard.recordFailure('10.0.0.3', '/login');
  t.equal(guard.retryAfterMs('10.0.0.3'), 2000);
  now += 1500;
  t.equal(guard.retryAfterMs('10.0.0.3'), 500, 'the wait runs down');
  for (let i = 0; i < 30; i++) guard.recordFailure('10.0.0.3', '/login');
  t.equal(guard.retryAfterMs('10.0.0.3'), MAX_DELAY_MS);
  t.equal(guard.retryAfterMs('10.0.0.4'), 0, 'other addresses are not affected');
  guard.recordSuccess('10.0.0.3');
  t.equal(guard.retryAfterMs('10.0.0.3'), 0);
});

t.test('an unban written by another process (the CLI) reaches a running guard', async (t) => {
  const dir = await tempDir(t);
  const guard = await LoginGuard.open(dir, { ip_ban_enabled: true, login_attempts_threshold: 1 }, silentLogger);
  t.teardown(() => guard.close());
  guard.recordFailure('10.1.1.1', '/login');
  guard.recordFailure('10.1.1.2', '/login');
  await guard.saved();
  t.ok(guard.isBanned('10.1.1.1'));
  const reloaded = new Promise<void>((resolve) => guard.onReload(resolve));
  const bans = parseBans(await readFile(join(dir, BANS_FILE), 'utf8'), silentLogger);
  bans?.delete('10.1.1.1');
  await writeBans(dir, bans ?? new Map());
  await withDeadline(reloaded, 3000, 'the guard to re-read the ban file');
  t.notOk(guard.isBanned('10.1.1.1'));
  t.ok(guard.isBanned('10.1.1.2'));
});

t.test('a broken ban file is moved aside and the hub starts with no bans', async (t) => {
  const dir = await tempDir(t);
  await writeFile(join(dir, BANS_FILE), '- just\n- a list\n');
  const guard = await LoginGuard.open(dir, DEFAULT_HTTP_SETTINGS, silentLogger);
  t.teardown(() => guard.close());
  t.equal(guard.active, false);
  const { readdir } = await import('node:fs/promises');
  t.ok((await readdir(dir)).some((f) => /^ip_bans\.yaml\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
});

t.test("the http: section takes Home Assistant's ban, TLS and proxy options and names mistakes", async (t) => {
  const issues: ConfigIssue[] = [];
  // Home Assistant's cv.boolean takes "yes"; server_port is one of its http keys (where the hub listens).
  HTTP_SECTION_VALIDATOR({ ip_ban_enabled: 'sometimes', login_attempts_threshold: 2.5, server_port: 80, sever_port: 80 }, ['http'], issues);
  t.same(
    issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    [
      'http.ip_ban_enabled: "sometimes" is not allowed: expected true or false',
      'http.login_attempts_threshold: 2.5 is not allowed: expected an integer from -1 to 1000000',
      'http.sever_port: unknown option; allowed: cors_allowed_origins, ip_ban_enabled, login_attempts_threshold, server_host, server_port, ssl_certificate, ssl_key, ssl_profile, trusted_proxies, use_x_forwarded_for, use_x_frame_options',
    ],
  );
  const none: ConfigIssue[] = [];
  HTTP_SECTION_VALIDATOR(null, ['http'], none);
  t.same(none, [], 'an empty http: section is fine');

  const config = parseConfigText('http:\n  login_attempts_threshold: 5\n', null, { http: HTTP_SECTION_VALIDATOR });
  t.same(readHttpSettings(config), { ip_ban_enabled: true, login_attempts_threshold: 5, corsOrigins: ['https://cast.home-assistant.io'] });
  t.same(readHttpSettings(parseConfigText('hub:\n  name: x\n', null, {})), DEFAULT_HTTP_SETTINGS);
});
