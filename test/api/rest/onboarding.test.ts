// Home Assistant's onboarding API on a fresh hub: the owner created over HTTP, its authorization code exchanged for
// tokens, the WebSocket API with them, and the Companion app's sign-in with the new password afterwards.
// Cases from home-assistant/core tests/components/onboarding/test_views.py (test_onboarding_user,
// test_onboarding_user_already_done, test_onboarding_user_invalid_name, test_onboarding_user_race,
// test_onboarding_installation_type_after_done, test_onboarding_core_no_rpi...), commit 003f9aa.
import { Auth, createConnection, getUser } from 'home-assistant-js-websocket';
import t from 'tap';
import WebSocket from 'ws';
import { startWebHub } from '../../web/helpers.js';

(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;

const CLIENT = 'https://example.com';
const USER = { name: 'Test Name', username: 'test-user', password: 'test-pass-word', client_id: CLIENT, language: 'en' };

function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

interface Tokens {
  readonly access_token: string;
  readonly refresh_token: string;
  readonly expires_in: number;
}

async function exchange(url: string, code: string, clientId = CLIENT): Promise<Response> {
  return fetch(`${url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: clientId }).toString(),
  });
}

t.test('a fresh hub: the steps are open, the owner is created, the code signs in, and the steps close', async (t) => {
  const { url, hub } = await startWebHub(t);
  t.same(await (await fetch(`${url}/api/onboarding`)).json(), [
    { step: 'user', done: false },
    { step: 'core_config', done: false },
    { step: 'analytics', done: false },
    { step: 'integration', done: false },
  ]);
  const type = await fetch(`${url}/api/onboarding/installation_type`);
  t.equal(type.status, 200);
  t.same(await type.json(), { installation_type: 'Unknown' });

  const res = await postJson(`${url}/api/onboarding/users`, USER);
  t.equal(res.status, 200);
  const { auth_code } = (await res.json()) as { auth_code: string };
  t.type(auth_code, 'string');
  const owner = hub.auth.ownerUser();
  t.equal(owner?.name, 'Test Name');
  t.equal(owner?.isAdmin, true);

  // The code is bound to the client id it was made for, and good once.
  t.equal((await exchange(url, auth_code, 'https://other.example.com')).status, 400);
  const tokenRes = await exchange(url, auth_code);
  t.equal(tokenRes.status, 200);
  const tokens = (await tokenRes.json()) as Tokens;
  t.equal((await exchange(url, auth_code)).status, 400, 'a used code is refused');

  const auth = new Auth({
    hassUrl: url,
    clientId: CLIENT,
    expires: Date.now() + tokens.expires_in * 1000,
    refresh_token: tokens.refresh_token,
    access_token: tokens.access_token,
    expires_in: tokens.expires_in,
  });
  const conn = await createConnection({ auth });
  t.teardown(() => conn.close());
  const user = await getUser(conn);
  t.equal(user.name, 'Test Name');
  t.equal(user.is_owner, true);

  t.same(await (await fetch(`${url}/api/onboarding`)).json(), [
    { step: 'user', done: true },
    { step: 'core_config', done: true },
    { step: 'analytics', done: true },
    { step: 'integration', done: true },
  ]);
  t.equal((await fetch(`${url}/api/onboarding/installation_type`)).status, 401);
  const again = await postJson(`${url}/api/onboarding/users`, { ...USER, username: 'someone-else' });
  t.equal(again.status, 403);
  t.same(await again.json(), { message: 'User step already done' });
  const core = await postJson(`${url}/api/onboarding/core_config`, {}, { authorization: `Bearer ${tokens.access_token}` });
  t.equal(core.status, 403);
  t.same(await core.json(), { message: 'Core config step already done' });
  t.equal((await postJson(`${url}/api/onboarding/core_config`, {})).status, 401, 'the later steps need a token');

  // The password works in the login flow, as the Companion app signs in.
  const start = (await (
    await postJson(`${url}/auth/login_flow`, { client_id: CLIENT, handler: ['homeassistant', null], redirect_uri: `${CLIENT}/` })
  ).json()) as { flow_id: string };
  const done = (await (
    await postJson(`${url}/auth/login_flow/${start.flow_id}`, { client_id: CLIENT, username: 'test-user', password: 'test-pass-word' })
  ).json()) as { type: string };
  t.equal(done.type, 'create_entry');
});

t.test('bad bodies are refused with Home Assistant’s messages, and create nobody', async (t) => {
  const { url, hub } = await startWebHub(t);
  const cases: [unknown, string][] = [
    ['not an object', 'Invalid JSON.'],
    [{ ...USER, name: undefined }, "Message format incorrect: required key not provided @ data['name']"],
    [{ ...USER, language: undefined }, "Message format incorrect: required key not provided @ data['language']"],
    [{ ...USER, username: 42 }, "Message format incorrect: expected str for dictionary value @ data['username']"],
    [{ ...USER, extra: 1 }, "Message format incorrect: extra keys not allowed @ data['extra']"],
    [{ ...USER, name: '  ' }, 'Message format incorrect: name must have 1 to 100 characters'],
    [{ ...USER, password: 'short' }, 'Message format incorrect: password must have at least 8 characters'],
    [
      { ...USER, username: '__proto__' },
      'Message format incorrect: username must have 1 to 64 characters: letters, digits and . _ @ -, starting with a letter or digit',
    ],
  ];
  for (const [body, message] of cases) {
    const res = await postJson(`${url}/api/onboarding/users`, body);
    t.equal(res.status, 400, message);
    t.same(await res.json(), { message });
  }
  const raw = await fetch(`${url}/api/onboarding/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
  t.equal(raw.status, 400);
  t.equal(hub.auth.users().length, 0);
});

t.test('two clients racing: one owner, one code; the other is told the step is done', async (t) => {
  const { url, hub } = await startWebHub(t);
  const [a, b] = await Promise.all([
    postJson(`${url}/api/onboarding/users`, USER),
    postJson(`${url}/api/onboarding/users`, { ...USER, username: 'other-user' }),
  ]);
  t.same([a.status, b.status].sort(), [200, 403]);
  t.equal(hub.auth.users().length, 1);
});

t.test('an owner made by `hearth token create` is not claimed over the API without the one-time code', async (t) => {
  const { url, hub } = await startWebHub(t);
  await hub.auth.ensureOwner('Owner');
  const res = await postJson(`${url}/api/onboarding/users`, USER);
  t.equal(res.status, 403);
  t.match(((await res.json()) as { message: string }).message, /one-time code/);
  t.same(await (await fetch(`${url}/api/onboarding`)).json(), [
    { step: 'user', done: false },
    { step: 'core_config', done: false },
    { step: 'analytics', done: false },
    { step: 'integration', done: false },
  ]);
});
