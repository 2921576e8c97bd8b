// /auth/authorize as the Companion apps open it: sign in, back to the app with a code and its state; the code buys
// tokens at /auth/token; the profile page lists the app and signs it out.
import t from 'tap';
import { FormBrowser, onboard, rest, startWebHub } from './helpers.js';

const ANDROID = 'https://home-assistant.io/android';
const CALLBACK = 'homeassistant://auth-callback';
const AUTHORIZE = `/auth/authorize?response_type=code&client_id=${encodeURIComponent(ANDROID)}&redirect_uri=${encodeURIComponent(CALLBACK)}&state=app%20state%3D1`;

async function exchange(url: string, code: string): Promise<{ access_token: string; refresh_token: string }> {
  const res = await fetch(`${url}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: ANDROID }).toString(),
  });
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

t.test('the app opens /auth/authorize, the user signs in, the browser goes back to the app with code and state', async (t) => {
  const web = await startWebHub(t);
  await onboard(web);
  const phone = new FormBrowser(web.url);
  const page = await phone.get(AUTHORIZE);
  t.equal(page.status, 200);
  t.match(page.text, /Sign in to Test Home with the Home Assistant app for Android/);
  t.match(
    page.headers.get('content-security-policy') ?? '',
    /form-action 'self' homeassistant:;/,
    "the form may redirect to the app's scheme",
  );

  const wrong = await phone.post('/auth/authorize', {
    csrf: page.csrf,
    client_id: ANDROID,
    redirect_uri: CALLBACK,
    state: 'app state=1',
    username: 'ada',
    password: 'wrong password',
  });
  t.equal(wrong.status, 401);
  t.match(wrong.text, /Wrong username or password/);

  const done = await phone.post('/auth/authorize', {
    csrf: wrong.csrf,
    client_id: ANDROID,
    redirect_uri: CALLBACK,
    state: 'app state=1',
    username: 'ada',
    password: 'analytical engine',
  });
  t.equal(done.status, 302);
  const back = new URL(done.location ?? '');
  t.equal(`${back.protocol}//${back.host}`, CALLBACK);
  t.equal(back.searchParams.get('state'), 'app state=1', 'the state comes back as given');
  const tokens = await exchange(web.url, back.searchParams.get('code') ?? '');
  t.equal((await rest(web, '/api/', tokens.access_token)).status, 200, 'the code buys working tokens');
});

t.test('a browser that is logged in signs the app in with one button; the profile lists the app and signs it out', async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const page = await browser.get(AUTHORIZE);
  t.match(page.text, /Continue as Ada Lovelace/);
  const done = await browser.post('/auth/authorize', {
    csrf: page.csrf,
    client_id: ANDROID,
    redirect_uri: CALLBACK,
    state: 's',
    use_session: '1',
  });
  t.equal(done.status, 302);
  const tokens = await exchange(web.url, new URL(done.location ?? '').searchParams.get('code') ?? '');

  const profile = await browser.get('/profile');
  t.match(profile.text, /Signed-in apps/);
  t.match(profile.text, new RegExp(`<td>${ANDROID.replace(/[/.]/g, '\\$&')}</td>`), 'the app is listed');
  const appId = /name="app_id" value="([^"]+)"/.exec(profile.text)?.[1] ?? '';
  const out = await browser.post('/profile/apps/sign-out', { csrf: profile.csrf, app_id: appId });
  t.equal(out.location, '/profile?signed_out');
  t.equal((await rest(web, '/api/', tokens.access_token)).status, 401, "the app's access token stops working");
  t.match((await browser.get('/profile?signed_out')).text, /No app is signed in/);
});

t.test('bad authorize requests: foreign redirect, bad client id, forged form', async (t) => {
  const web = await startWebHub(t);
  await onboard(web);
  const phone = new FormBrowser(web.url);
  const evil = await phone.get(
    `/auth/authorize?response_type=code&client_id=${encodeURIComponent(ANDROID)}&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
  );
  t.equal(evil.status, 400);
  t.match(evil.text, /does not accept/);
  const ftp = await phone.get('/auth/authorize?client_id=ftp%3A%2F%2Fx&redirect_uri=ftp%3A%2F%2Fx%2Fcb');
  t.equal(ftp.status, 400);
  const forged = await phone.post('/auth/authorize', {
    csrf: 'x'.repeat(43),
    client_id: ANDROID,
    redirect_uri: CALLBACK,
    username: 'ada',
    password: 'analytical engine',
  });
  t.equal(forged.status, 400, 'no code without the form token');
  const foreignPost = await phone.post('/auth/authorize', {
    csrf: 'x',
    client_id: ANDROID,
    redirect_uri: 'https://evil.example/cb',
    username: 'ada',
    password: 'analytical engine',
  });
  t.equal(foreignPost.status, 400, 'a posted foreign redirect is refused too');
});

t.test("the app's web view signs in with the app's own token (external auth)", async (t) => {
  const web = await startWebHub(t);
  await onboard(web);
  const owner = web.hub.auth.ownerUser();
  const token = await web.hub.auth.createToken(owner?.id ?? '', 'app');
  const view = new FormBrowser(web.url);
  const first = await view.get('/?external_auth=1');
  t.equal(first.status, 302);
  t.equal(first.location, '/auth/external?next=%2F');
  const bridge = await view.get('/auth/external?next=%2F');
  t.equal(bridge.status, 200);
  t.match(bridge.text, /external-auth\.js/, 'the page that asks the app for its token');
  const refused = await view.request('/auth/external/session', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  t.equal(refused.status, 403, 'only with the bridge header');
  const wrong = await view.request('/auth/external/session', {
    method: 'POST',
    headers: { authorization: 'Bearer nope.nope', 'x-requested-with': 'external-auth' },
  });
  t.equal(wrong.status, 401);
  const ok = await view.request('/auth/external/session', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'external-auth' },
  });
  t.equal(ok.status, 200);
  const dashboard = await view.get('/');
  t.equal(dashboard.status, 200, 'the web view is signed in');
});
