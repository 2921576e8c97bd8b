import t from 'tap';
import { parseNetwork } from '../../src/auth/address.js';
import { ConfigFileError, formatIssue, parseConfigText } from '../../src/config/load.js';
import { ForwardedFor } from '../../src/http/client-address.js';
import { SECTION_VALIDATORS } from '../../src/hub.js';
import { MINIMAL_CONFIG, startTestHub, type TestHub } from '../helpers/hub.js';
import { upgradeStatus } from './ws/client.js';

const CLIENT = '203.0.113.7';
const OTHER_CLIENT = '203.0.113.8';

function problems(http: string): string[] {
  try {
    parseConfigText(`${MINIMAL_CONFIG}http:\n${http}`, null, SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map(formatIssue);
    throw err;
  }
  return [];
}

/** GET /api/ with a token (right or wrong) and, optionally, an X-Forwarded-For header as a proxy sends it. */
async function get(h: TestHub, token: string, forwardedFor?: string): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return (await fetch(`${h.url}/api/`, { headers })).status;
}

t.test('the client behind trusted proxies: the first untrusted hop from the right', async (t) => {
  const warned: string[] = [];
  const f = new ForwardedFor(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'], (peer) => warned.push(peer));
  t.equal(f.clientOf('127.0.0.1', ''), '127.0.0.1', 'no header: the peer');
  t.equal(f.clientOf('127.0.0.1', CLIENT), CLIENT, 'one proxy');
  t.equal(f.clientOf('127.0.0.1', `${CLIENT}, 10.1.2.3`), CLIENT, 'two proxies');
  t.equal(f.clientOf('127.0.0.1', `6.6.6.6, ${CLIENT}`), CLIENT, 'what the client wrote itself (left of its own hop) is not believed');
  t.equal(f.clientOf('127.0.0.1', '10.9.9.9,10.1.1.1'), '10.9.9.9', 'all hops trusted: the left-most');
  t.equal(f.clientOf('127.0.0.1', `garbage, 10.1.1.1`), '10.1.1.1', 'past a hop that is no address nothing is believed');
  t.equal(f.clientOf('0000:0000:0000:0000:0000:ffff:7f00:0001', `2001:DB8::1`), '2001:db8::1', 'addresses are normalised');
  t.equal(f.clientOf('fd00::5', CLIENT), CLIENT, 'IPv6 proxies');
  t.equal(f.clientOf('192.0.2.1', CLIENT), '192.0.2.1', 'an untrusted peer: its header is ignored');
  f.clientOf('192.0.2.1', CLIENT);
  t.same(warned, ['192.0.2.1'], 'and said once per peer');

  t.same(parseNetwork('172.30.33.0/24'), { address: '172.30.33.0', prefix: 24, family: 'ipv4' });
  t.same(parseNetwork('::1'), { address: '::1', prefix: 128, family: 'ipv6' });
  for (const bad of ['10.0.0.0/33', 'fd00::/129', 'example.org', '10.0.0.0/', '10.0.0.0/8/8']) t.equal(parseNetwork(bad), undefined, bad);
});

t.test("check-config: Home Assistant's proxy options, together and valid", async (t) => {
  t.same(problems('  use_x_forwarded_for: true\n  trusted_proxies:\n    - 172.30.33.0/24\n    - 127.0.0.1\n'), []);
  t.same(problems('  use_x_forwarded_for: true\n  trusted_proxies: 10.0.0.0/8\n'), [], 'one network without a list');
  t.match(problems('  use_x_forwarded_for: true\n'), [
    /http\.trusted_proxies: is required with the other one: use_x_forwarded_for and trusted_proxies go together/,
  ]);
  t.match(problems('  trusted_proxies: [10.0.0.1]\n'), [/http\.use_x_forwarded_for: is required with the other one/]);
  t.match(problems('  use_x_forwarded_for: true\n  trusted_proxies: [10.0.0.1, 10.0.0.0/40]\n'), [
    /^<config>:\d+:\d+: http\.trusted_proxies\[1\]: "10\.0\.0\.0\/40" is not allowed: expected an IP address or a network in CIDR notation/,
  ]);
});

t.test('behind a trusted proxy, failed tokens ban the client, not the proxy; REST and WebSocket alike', async (t) => {
  const h = await startTestHub(t, {
    yaml: `${MINIMAL_CONFIG}http:\n  ip_ban_enabled: true\n  login_attempts_threshold: 2\n  use_x_forwarded_for: true\n  trusted_proxies: [127.0.0.1]\n`,
  });
  t.equal(await get(h, 'wrong', CLIENT), 401);
  t.equal(await get(h, 'wrong', CLIENT), 401);
  t.equal(await get(h, h.token, CLIENT), 403, 'the client is banned, even with a good token');
  t.equal(await get(h, h.token, OTHER_CLIENT), 200, 'another client through the same proxy is not');
  t.equal(await get(h, h.token), 200, 'nor is the proxy itself');
  t.equal(await upgradeStatus(h.wsUrl, { 'x-forwarded-for': CLIENT }), 403, 'the banned client gets 403 on the WebSocket upgrade');
  t.equal(await upgradeStatus(h.wsUrl, { 'x-forwarded-for': OTHER_CLIENT }), 101);
});

t.test('without the proxy options X-Forwarded-For is ignored: the peer is the client', async (t) => {
  const h = await startTestHub(t, { yaml: `${MINIMAL_CONFIG}http:\n  ip_ban_enabled: true\n  login_attempts_threshold: 1\n` });
  t.equal(await get(h, 'wrong', CLIENT), 401);
  t.equal(await get(h, h.token, OTHER_CLIENT), 403, 'the failure counted against the peer (127.0.0.1), whatever the header said');
});

/** The Set-Cookie lines of the onboarding page (it sets the form's CSRF cookie), fetched with these headers. */
async function onboardingCookies(h: TestHub, headers: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${h.url}/onboarding`, { headers });
  if (res.status !== 200) throw new Error(`GET /onboarding: ${res.status}`);
  return res.headers.getSetCookie();
}

t.test('behind a trusted proxy that took HTTPS, cookies are Secure; otherwise not', async (t) => {
  const proxied = await startTestHub(t, {
    yaml: `${MINIMAL_CONFIG}http:\n  use_x_forwarded_for: true\n  trusted_proxies: [127.0.0.0/8]\n`,
  });
  const https = await onboardingCookies(proxied, { 'x-forwarded-for': CLIENT, 'x-forwarded-proto': 'https' });
  t.ok(https.length > 0 && https.every((c) => c.endsWith('; Secure')), `Secure: ${https.join(' | ')}`);
  const http = await onboardingCookies(proxied, { 'x-forwarded-for': CLIENT, 'x-forwarded-proto': 'http' });
  t.ok(http.length > 0 && !http.some((c) => c.includes('Secure')), 'the proxy took plain HTTP: not Secure');
  const mixed = await onboardingCookies(proxied, { 'x-forwarded-for': CLIENT, 'x-forwarded-proto': 'http, https' });
  t.notOk(
    mixed.some((c) => c.includes('Secure')),
    'a plain-HTTP hop anywhere: not Secure',
  );

  const untrusted = await startTestHub(t, {
    yaml: `${MINIMAL_CONFIG}http:\n  use_x_forwarded_for: true\n  trusted_proxies: [192.0.2.1]\n`,
  });
  const spoofed = await onboardingCookies(untrusted, { 'x-forwarded-proto': 'https' });
  t.notOk(
    spoofed.some((c) => c.includes('Secure')),
    'X-Forwarded-Proto from a peer that is no trusted proxy is ignored',
  );
});
