import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { bearerToken, hasBearerScheme } from '../../../src/api/auth-header.js';
import { CACHE_TTL_MS, MAX_CACHED_TOKENS, RequestAuth, type TokenAuthenticator } from '../../../src/api/rest/auth-check.js';
import type { Principal } from '../../../src/auth/types.js';
import { writeGuestAuth } from '../../helpers/guest.js';
import { startTestHub } from '../../helpers/hub.js';

t.test('the Authorization header is parsed as Home Assistant parses it', async (t) => {
  t.equal(bearerToken('Bearer abc.def'), 'abc.def');
  t.equal(bearerToken('Bearer  abc'), ' abc', 'split once: extra spaces belong to the token');
  t.equal(bearerToken('Bearer abc '), 'abc ', 'taken verbatim');
  t.equal(bearerToken('bearer abc'), undefined, 'the scheme is case-sensitive');
  t.equal(bearerToken('BEARER abc'), undefined);
  t.equal(bearerToken('Basic abc'), undefined);
  t.equal(bearerToken('Bearerabc'), undefined, 'no space, no token');
  t.equal(bearerToken('Bearer'), undefined);
  t.equal(bearerToken('Bearer '), undefined, 'an empty token');
  t.equal(bearerToken(' Bearer abc'), undefined, 'split on the first space: the scheme is empty');
  t.equal(bearerToken('Bearer\tabc'), undefined, 'only a space separates');
  t.equal(bearerToken(''), undefined);
  t.ok(hasBearerScheme('Bearer x'));
  t.ok(hasBearerScheme('Bearer '));
  t.notOk(hasBearerScheme('bearer x'));
});

/** A fake authenticator that counts lookups and can revoke. */
function fakeStore(valid: ReadonlyMap<string, Principal>) {
  let lookups = 0;
  const listeners: ((id: string) => void)[] = [];
  const revoked = new Set<string>();
  const store: TokenAuthenticator = {
    authenticate(token) {
      lookups++;
      const p = valid.get(token);
      return p === undefined || revoked.has(p.tokenId) ? undefined : p;
    },
    onRevoke(listener) {
      listeners.push(listener);
      return () => {};
    },
  };
  return {
    store,
    lookups: () => lookups,
    revoke(tokenId: string) {
      revoked.add(tokenId);
      for (const l of listeners) l(tokenId);
    },
  };
}

function principal(tokenId: string): Principal {
  return { user: { id: 'u1', name: 'U', isOwner: true, isAdmin: true }, tokenId };
}

t.test('valid tokens are cached, bounded, and forgotten on revoke or after the TTL', async (t) => {
  const tokens = new Map<string, Principal>();
  for (let i = 0; i < MAX_CACHED_TOKENS + 50; i++) tokens.set(`t${i}.secret`, principal(`t${i}`));
  const fake = fakeStore(tokens);
  let now = 1_000_000;
  const auth = new RequestAuth(fake.store, () => now);

  t.equal(auth.principal('Bearer t0.secret')?.tokenId, 't0');
  t.equal(auth.principal('Bearer t0.secret')?.tokenId, 't0');
  t.equal(fake.lookups(), 1, 'the second request is answered from the cache');

  t.equal(auth.principal('Bearer wrong'), undefined);
  t.equal(auth.principal('Bearer wrong'), undefined);
  t.equal(fake.lookups(), 3, 'invalid tokens are never cached');
  t.equal(auth.principal('bearer t0.secret'), undefined, 'the scheme is checked before the cache');
  t.equal(fake.lookups(), 3);

  fake.revoke('t0');
  t.equal(auth.principal('Bearer t0.secret'), undefined, 'a revoked token fails at once');

  auth.principal('Bearer t1.secret');
  now += CACHE_TTL_MS + 1;
  const before = fake.lookups();
  t.equal(auth.principal('Bearer t1.secret')?.tokenId, 't1');
  t.equal(fake.lookups(), before + 1, 'checked again after the TTL');

  for (const token of tokens.keys()) auth.principal(`Bearer ${token}`);
  t.equal(auth.cachedTokens, MAX_CACHED_TOKENS, 'the cache never grows past its bound');
});

const ENDPOINTS: [string, string][] = [
  ['GET', '/api/'],
  ['GET', '/api/config'],
  ['GET', '/api/core/state'],
  ['GET', '/api/components'],
  ['GET', '/api/states'],
  ['GET', '/api/states/light.kitchen'],
  ['POST', '/api/states/light.kitchen'],
  ['DELETE', '/api/states/light.kitchen'],
  ['GET', '/api/events'],
  ['POST', '/api/events/doorbell'],
  ['GET', '/api/services'],
  ['POST', '/api/services/light/turn_on'],
  ['GET', '/api/error_log'],
];

/** A valid body for each POST endpoint. */
function bodyFor(method: string, path: string): string | undefined {
  if (method !== 'POST') return undefined;
  if (path.startsWith('/api/states/')) return JSON.stringify({ state: 'on' });
  if (path.startsWith('/api/services/')) return JSON.stringify({ entity_id: 'light.kitchen' });
  return '{}';
}

t.test('every endpoint answers 401 without a valid bearer token', async (t) => {
  const { url, token, hub } = await startTestHub(t);
  const headerCases: [string, Record<string, string>][] = [
    ['no header', {}],
    ['lower-case scheme', { authorization: `bearer ${token}` }],
    ['other scheme', { authorization: `Basic ${token}` }],
    ['two spaces', { authorization: `Bearer  ${token}` }],
    ['scheme only', { authorization: 'Bearer' }],
    ['unknown token', { authorization: 'Bearer abc.def' }],
    ['wrong secret', { authorization: `Bearer ${token.slice(0, -2)}xx` }],
    ['token with a suffix', { authorization: `Bearer ${token}x` }],
  ];
  for (const [method, path] of ENDPOINTS) {
    for (const [label, headers] of headerCases) {
      const body = bodyFor(method, path);
      const res = await fetch(url + path, { method, headers, body });
      t.equal(res.status, 401, `${method} ${path}: ${label}`);
      t.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
      t.equal(await res.text(), '401: Unauthorized');
    }
  }
  t.equal(hub.core.states.get('light.kitchen')?.state, 'off', 'nothing was done');
  t.equal((await fetch(`${url}/api/`, { headers: { authorization: `Bearer ${token}` } })).status, 200, 'the right header works');
});

t.test('a revoked token gets 401 at once', async (t) => {
  const { url, hub } = await startTestHub(t);
  const owner = hub.auth.ownerUser();
  if (owner === undefined) throw new Error('no owner');
  const token = await hub.auth.createToken(owner.id, 'to-revoke');
  const get = () => fetch(`${url}/api/states`, { headers: { authorization: `Bearer ${token}` } });
  t.equal((await get()).status, 200);
  t.equal((await get()).status, 200, 'used twice, so it is cached');
  const summary = hub.auth.findTokenByName('to-revoke');
  t.ok(summary && (await hub.auth.revokeToken(summary.id)));
  const res = await get();
  t.equal(res.status, 401);
  t.equal(await res.text(), '401: Unauthorized');
});

t.test('a non-admin may read and call services but not write states, fire events or read the error log', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-rest-auth-'));
  const guestToken = await writeGuestAuth(dataDir);
  const { url, hub } = await startTestHub(t, { dataDir });
  t.teardown(async () => {
    // Stop first (it is idempotent): stopping writes the auth file, which would recreate a removed directory.
    await hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const headers = { authorization: `Bearer ${guestToken}` };

  const expected: Record<string, number> = {
    'POST /api/states/light.kitchen': 401,
    'DELETE /api/states/light.kitchen': 401,
    'POST /api/events/doorbell': 401,
    'GET /api/error_log': 401,
    'POST /api/services/light/turn_on': 200,
  };
  for (const [method, path] of ENDPOINTS) {
    const body = bodyFor(method, path);
    const res = await fetch(url + path, { method, headers, body });
    t.equal(res.status, expected[`${method} ${path}`] ?? 200, `${method} ${path}`);
  }
});
