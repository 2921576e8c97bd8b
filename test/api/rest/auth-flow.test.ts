// Signing in as Home Assistant's Companion apps and frontend do: providers, login flow, code exchange, refresh,
// revoke, and the WebSocket API with the new token, through home-assistant-js-websocket where it has the call.
// Cases from home-assistant/core tests/components/auth/test_init.py and test_login_flow.py.
import { Auth, createConnection, ERR_INVALID_AUTH, getUser } from 'home-assistant-js-websocket';
import t from 'tap';
import WebSocket from 'ws';
import { startTestHub, type Teardown, type TestHub } from '../../helpers/hub.js';
import { WsClient, withDeadline } from '../ws/client.js';

(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;

const ANDROID = 'https://home-assistant.io/android';
const ANDROID_REDIRECT = 'homeassistant://auth-callback';
const PASSWORD = 'correct horse battery';

async function hubWithPassword(t: Teardown): Promise<TestHub> {
  const hub = await startTestHub(t);
  const owner = hub.hub.auth.ownerUser();
  if (owner === undefined) throw new Error('no owner');
  await hub.hub.auth.setPassword(owner.id, 'owner', PASSWORD);
  return hub;
}

function postJson(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

interface Flow {
  readonly type: string;
  readonly flow_id: string;
  readonly errors?: Record<string, string>;
  readonly result?: string;
}

/** The login flow to its code, as the Android app drives it. */
async function signIn(url: string, clientId = ANDROID, redirect = ANDROID_REDIRECT): Promise<string> {
  const start = (await (
    await postJson(`${url}/auth/login_flow`, { client_id: clientId, handler: ['homeassistant', null], redirect_uri: redirect })
  ).json()) as Flow;
  const done = (await (
    await postJson(`${url}/auth/login_flow/${start.flow_id}`, { client_id: clientId, username: 'owner', password: PASSWORD })
  ).json()) as Flow;
  if (done.type !== 'create_entry' || done.result === undefined) throw new Error(`login failed: ${JSON.stringify(done)}`);
  return done.result;
}

interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_in: number;
  readonly token_type: string;
}

t.test("GET /auth/providers names Home Assistant's local provider", async (t) => {
  const { url } = await startTestHub(t);
  const res = await fetch(`${url}/auth/providers`);
  t.equal(res.status, 200);
  t.same(await res.json(), {
    providers: [{ name: 'Home Assistant Local', id: null, type: 'homeassistant' }],
    preselect_remember_me: false,
  });
});

t.test('the Companion app signs in: flow, wrong password, code, tokens, WebSocket, refresh, revoke', async (t) => {
  const { url, hub } = await hubWithPassword(t);
  const startRes = await postJson(`${url}/auth/login_flow`, {
    client_id: ANDROID,
    handler: ['homeassistant', null],
    redirect_uri: ANDROID_REDIRECT,
  });
  t.equal(startRes.status, 200);
  const start = (await startRes.json()) as Flow & Record<string, unknown>;
  t.match(start, {
    type: 'form',
    handler: ['homeassistant', null],
    step_id: 'init',
    data_schema: [
      { type: 'string', name: 'username', required: true },
      { type: 'string', name: 'password', required: true },
    ],
    errors: {},
  });

  const wrong = (await (
    await postJson(`${url}/auth/login_flow/${start.flow_id}`, { client_id: ANDROID, username: 'owner', password: 'nope nope nope' })
  ).json()) as Flow;
  t.equal(wrong.type, 'form');
  t.same(wrong.errors, { base: 'invalid_auth' }, "HA's invalid_auth; the flow stays open");

  const doneRes = await postJson(`${url}/auth/login_flow/${start.flow_id}`, { client_id: ANDROID, username: 'owner', password: PASSWORD });
  const done = (await doneRes.json()) as Flow;
  t.equal(done.type, 'create_entry');
  t.match(done.result, /^[0-9a-f]{32}$/, 'a one-time code');

  const wrongClient = await postForm(`${url}/auth/token`, {
    grant_type: 'authorization_code',
    code: done.result ?? '',
    client_id: 'https://home-assistant.io/iOS',
  });
  t.equal(wrongClient.status, 400);
  t.same(await wrongClient.json(), { error: 'invalid_request', error_description: 'Invalid code' }, 'a code is bound to its client id');

  const tokenRes = await postForm(`${url}/auth/token`, { grant_type: 'authorization_code', code: done.result ?? '', client_id: ANDROID });
  t.equal(tokenRes.status, 200);
  const tokens = (await tokenRes.json()) as Tokens;
  t.equal(tokens.token_type, 'Bearer');
  t.equal(tokens.expires_in, 1800);
  t.match(tokens.refresh_token, /^[0-9a-f]{128}$/);

  const reused = await postForm(`${url}/auth/token`, { grant_type: 'authorization_code', code: done.result ?? '', client_id: ANDROID });
  t.equal(reused.status, 400);
  t.same(await reused.json(), { error: 'invalid_request', error_description: 'Invalid code' }, 'a code works once');

  const states = await fetch(`${url}/api/states`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  t.equal(states.status, 200, 'the access token opens the REST API');

  // The official client: WebSocket with the new token, refresh (it posts multipart FormData), revoke.
  const auth = new Auth({ hassUrl: url, clientId: ANDROID, expires: Date.now() + 1_800_000, ...tokens });
  const conn = await withDeadline(createConnection({ auth }), 5000, 'createConnection');
  t.teardown(() => conn.close());
  const user = await getUser(conn);
  t.equal(user.name, 'Test Owner');
  t.same((user as unknown as { credentials: unknown }).credentials, [{ auth_provider_type: 'homeassistant', auth_provider_id: null }]);

  await auth.refreshAccessToken();
  t.ok(auth.data.expires > Date.now() + 1_700_000, 'a fresh access token for 30 minutes');
  const again = await fetch(`${url}/api/`, { headers: { authorization: `Bearer ${auth.accessToken}` } });
  t.equal(again.status, 200);

  const ws = await WsClient.authenticated(`ws://127.0.0.1:${hub.port}/api/websocket`, auth.accessToken);
  t.teardown(() => ws.close());
  const listed = (await ws.command('auth/refresh_tokens')).result as Record<string, unknown>[];
  const app = listed.find((r) => r.client_id === ANDROID);
  t.match(
    app,
    { type: 'normal', is_current: true, auth_provider_type: 'homeassistant', last_used_ip: '127.0.0.1' },
    'the signed-in app is listed',
  );
  t.ok(
    listed.some((r) => r.type === 'long_lived_access_token'),
    "and the owner's long-lived token",
  );

  const wrongRefreshClient = await postForm(`${url}/auth/token`, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: 'https://home-assistant.io/iOS',
  });
  t.equal(wrongRefreshClient.status, 400);
  t.same(await wrongRefreshClient.json(), { error: 'invalid_request' });

  await auth.revoke();
  await ws.closed;
  t.pass('revoking the refresh token closed the WebSocket its access token opened');
  const afterRevoke = await fetch(`${url}/api/`, { headers: { authorization: `Bearer ${auth.accessToken}` } });
  t.equal(afterRevoke.status, 401, 'its access tokens stop working at once');
  await t.rejects(auth.refreshAccessToken(), ERR_INVALID_AUTH as unknown as Error, 'the library reads the 400 as invalid auth');
  const grant = await postForm(`${url}/auth/token`, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: ANDROID,
  });
  t.same(await grant.json(), { error: 'invalid_grant' });
});

t.test('auth/delete_refresh_token signs an app out; other ids get invalid_token_id', async (t) => {
  const { url, wsUrl, token } = await hubWithPassword(t);
  const code = await signIn(url);
  const tokens = (await (
    await postForm(`${url}/auth/token`, { grant_type: 'authorization_code', code, client_id: ANDROID })
  ).json()) as Tokens;
  const app = await WsClient.authenticated(wsUrl, tokens.access_token);
  const admin = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => admin.close());
  const listed = (await admin.command('auth/refresh_tokens')).result as { id: string; client_id: string | null }[];
  const id = listed.find((r) => r.client_id === ANDROID)?.id;
  t.ok(id);
  t.match(await admin.command('auth/delete_refresh_token', { refresh_token_id: 'nope' }), {
    success: false,
    error: { code: 'invalid_token_id', message: 'Received invalid token' },
  });
  t.match(await admin.command('auth/delete_refresh_token', { refresh_token_id: id }), { success: true, result: null });
  await app.closed;
  t.pass("the app's connection closed");
  const refresh = await postForm(`${url}/auth/token`, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: ANDROID,
  });
  t.same(await refresh.json(), { error: 'invalid_grant' });
});

t.test('a signed-in app survives a hub restart: refresh tokens are on disk, access tokens are JWTs', async (t) => {
  const first = await hubWithPassword(t);
  const code = await signIn(first.url);
  const tokens = (await (
    await postForm(`${first.url}/auth/token`, { grant_type: 'authorization_code', code, client_id: ANDROID })
  ).json()) as Tokens;
  await first.hub.stop();
  const second = await startTestHub(t, { dataDir: first.dataDir });
  const res = await fetch(`${second.url}/api/`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  t.equal(res.status, 200, 'the access token from before the restart still works');
  const refreshed = await postForm(`${second.url}/auth/token`, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token,
    client_id: ANDROID,
  });
  t.equal(refreshed.status, 200, 'and so does the refresh token');
});

t.test('auth/sign_path: a GET with authSig works for exactly that path, briefly', async (t) => {
  const { url, wsUrl, token } = await startTestHub(t);
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.close());
  const signed = ((await ws.command('auth/sign_path', { path: '/api/states' })).result as { path: string }).path;
  t.match(signed, /^\/api\/states\?authSig=[\w-]+\.[\w-]+\.[\w-]+$/);
  t.equal((await fetch(url + signed)).status, 200);
  t.equal((await fetch(url + signed.replace('/api/states', '/api/config'))).status, 401, 'another path');
  t.equal((await fetch(`${url + signed}x`)).status, 401, 'a changed signature');
});

// Bad input: HA's status codes and messages, never a 5xx. Source: tests/components/auth/test_login_flow.py, test_init.py.
const BAD_FLOW_STARTS: readonly [string, unknown, number, unknown][] = [
  ['not JSON', 'nope', 400, { message: 'Invalid JSON.' }],
  [
    'no client_id',
    { handler: ['homeassistant', null], redirect_uri: ANDROID_REDIRECT },
    400,
    { message: "Message format incorrect: required key not provided @ data['client_id']" },
  ],
  [
    'client_id not a string',
    { client_id: 5, handler: ['homeassistant', null], redirect_uri: ANDROID_REDIRECT },
    400,
    { message: "Message format incorrect: expected str for dictionary value @ data['client_id']" },
  ],
  [
    'a redirect to another host',
    { client_id: 'https://example.com/', handler: ['homeassistant', null], redirect_uri: 'https://evil.com/cb' },
    400,
    { message: 'invalid client id or redirect uri' },
  ],
  [
    'a public IP client id',
    { client_id: 'http://11.0.0.1/', handler: ['homeassistant', null], redirect_uri: 'http://11.0.0.1/cb' },
    400,
    { message: 'invalid client id or redirect uri' },
  ],
  [
    "the iOS callback for Android's id",
    { client_id: ANDROID, handler: ['homeassistant', null], redirect_uri: 'homeassistant://something-else' },
    400,
    { message: 'invalid client id or redirect uri' },
  ],
  [
    'an unknown handler',
    { client_id: ANDROID, handler: ['insecure_example', null], redirect_uri: ANDROID_REDIRECT },
    404,
    { message: 'Invalid handler specified' },
  ],
];

t.test('bad login flow starts', async (t) => {
  const { url } = await startTestHub(t);
  for (const [what, body, status, answer] of BAD_FLOW_STARTS) {
    const res = await fetch(`${url}/auth/login_flow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    t.equal(res.status, status, what);
    t.same(await res.json(), answer, what);
  }
});

t.test('bad login flow steps, bad token requests', async (t) => {
  const { url } = await hubWithPassword(t);
  const start = (await (
    await postJson(`${url}/auth/login_flow`, { client_id: ANDROID, handler: ['homeassistant', null], redirect_uri: ANDROID_REDIRECT })
  ).json()) as Flow;
  const step = (flow: string, body: unknown) => postJson(`${url}/auth/login_flow/${flow}`, body);
  let res = await step('0123', { client_id: ANDROID, username: 'owner', password: PASSWORD });
  t.equal(res.status, 404);
  t.same(await res.json(), { message: 'Invalid flow specified' });
  res = await step(start.flow_id, { client_id: 'ftp://x/', username: 'owner', password: PASSWORD });
  t.equal(res.status, 400);
  t.same(await res.json(), { message: 'Invalid client id' });
  res = await step(start.flow_id, { client_id: ANDROID, username: 'owner' });
  t.equal(res.status, 400);
  t.same(await res.json(), { message: 'User input malformed' });
  res = await step(start.flow_id, { client_id: ANDROID, username: 'owner', password: PASSWORD, totp: 1 });
  t.same(await res.json(), { message: 'User input malformed' }, 'keys the form does not have');
  res = await fetch(`${url}/auth/login_flow/${start.flow_id}`, { method: 'DELETE' });
  t.same(await res.json(), { message: 'Flow aborted' });
  res = await step(start.flow_id, { client_id: ANDROID, username: 'owner', password: PASSWORD });
  t.equal(res.status, 404, 'an aborted flow is gone');

  const tokenCases: readonly [string, Record<string, string>, unknown][] = [
    ['no grant type', {}, { error: 'unsupported_grant_type' }],
    ['a password grant', { grant_type: 'password', username: 'owner', password: PASSWORD }, { error: 'unsupported_grant_type' }],
    [
      'a code grant without a client id',
      { grant_type: 'authorization_code', code: 'x' },
      { error: 'invalid_request', error_description: 'Invalid client id' },
    ],
    [
      'a code grant without a code',
      { grant_type: 'authorization_code', client_id: ANDROID },
      { error: 'invalid_request', error_description: 'Invalid code' },
    ],
    [
      'an unknown code',
      { grant_type: 'authorization_code', client_id: ANDROID, code: 'f'.repeat(32) },
      { error: 'invalid_request', error_description: 'Invalid code' },
    ],
    ['a refresh grant without a token', { grant_type: 'refresh_token', client_id: ANDROID }, { error: 'invalid_request' }],
    [
      'an unknown refresh token',
      { grant_type: 'refresh_token', client_id: ANDROID, refresh_token: 'a'.repeat(128) },
      { error: 'invalid_grant' },
    ],
    [
      'a bad client id',
      { grant_type: 'refresh_token', client_id: 'http://user:pw@x/', refresh_token: 'a' },
      { error: 'invalid_request', error_description: 'Invalid client id' },
    ],
  ];
  for (const [what, fields, answer] of tokenCases) {
    const r = await postForm(`${url}/auth/token`, fields);
    t.equal(r.status, 400, what);
    t.same(await r.json(), answer, what);
  }
  const revoke = await postForm(`${url}/auth/revoke`, { token: 'not a token' });
  t.equal(revoke.status, 200, 'revoke answers 200 whatever the token (RFC 7009)');
  const revokeAction = await postForm(`${url}/auth/token`, { action: 'revoke', token: 'nope' });
  t.equal(revokeAction.status, 200, 'and so does action=revoke on the token endpoint');
  const huge = await postForm(`${url}/auth/token`, { grant_type: 'refresh_token', refresh_token: 'x'.repeat(20_000) });
  t.ok(huge.status < 500, `an oversized form is refused, not a crash (${huge.status})`);
});

t.test('guessing passwords through the login flow is throttled like the login page', async (t) => {
  const { url } = await hubWithPassword(t);
  const start = (await (
    await postJson(`${url}/auth/login_flow`, { client_id: ANDROID, handler: ['homeassistant', null], redirect_uri: ANDROID_REDIRECT })
  ).json()) as Flow;
  const statuses: number[] = [];
  for (let i = 0; i < 8; i++) {
    const res = await postJson(`${url}/auth/login_flow/${start.flow_id}`, {
      client_id: ANDROID,
      username: 'owner',
      password: `guess number ${i}`,
    });
    statuses.push(res.status);
    await res.arrayBuffer();
  }
  t.ok(statuses.includes(429), `later guesses wait (statuses ${statuses.join(',')})`);
});
