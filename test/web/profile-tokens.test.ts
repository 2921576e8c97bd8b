import t from 'tap';
import { WsClient } from '../api/ws/client.js';
import { FormBrowser, onboard, rest, startWebHub } from './helpers.js';

function createdToken(text: string): string {
  const token = /id="new-token" class="token" readonly value="([^"]+)"/.exec(text)?.[1];
  if (token === undefined) throw new Error('no token on the page');
  return token;
}

t.test('profile: create a long-lived token (shown once), use it on REST and WebSocket, revoke it', async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const profile = await browser.get('/profile');
  t.equal(profile.status, 200);
  t.match(profile.text, /<h1>Ada Lovelace<\/h1>/);
  t.match(profile.text, /<dd>ada<\/dd>/, 'the username');
  t.match(profile.text, /No tokens yet/);

  const created = await browser.post('/profile/tokens', { csrf: profile.csrf, name: 'Node-RED' });
  t.equal(created.status, 201);
  t.equal(created.headers.get('cache-control'), 'no-store', 'the page with the token is never cached');
  const token = createdToken(created.text);
  t.match(created.text, /Copy it now: it is not shown again/);
  t.match(created.text, /data-copy="new-token" hidden>Copy</, 'the copy button (shown by profile.js)');
  t.match(
    created.text,
    /<td>Node-RED<\/td>\n<td><time datetime="[^"]+">[^<]+ UTC<\/time><\/td>\n<td>never<\/td>/,
    'listed: name, created, last used',
  );

  t.equal((await rest(web, '/api/', token)).status, 200, 'usable on REST at once');
  const ws = await WsClient.authenticated(web.wsUrl, token);
  const listed = await browser.get('/profile');
  t.notMatch(listed.text, /id="new-token"/, 'shown only once');
  t.notMatch(listed.text, /<td>never<\/td>/, 'last used is filled in');

  const dup = await browser.post('/profile/tokens', { csrf: profile.csrf, name: 'Node-RED' });
  t.equal(dup.status, 400);
  t.match(dup.text, /already have a token named “Node-RED”/);
  const empty = await browser.post('/profile/tokens', { csrf: profile.csrf, name: '   ' });
  t.match(empty.text, /A token name needs 1 to 100 characters/);
  const forged = await browser.post('/profile/tokens', { csrf: 'x'.repeat(43), name: 'sneaky' });
  t.equal(forged.status, 400, 'a wrong CSRF token creates nothing');
  t.same(
    web.hub.auth.listTokens().map((x) => x.name),
    ['Node-RED'],
  );

  const id = web.hub.auth.listTokens()[0]?.id ?? '';
  const revoked = await browser.post('/profile/tokens/revoke', { csrf: profile.csrf, token_id: id });
  t.equal(revoked.status, 302);
  t.equal(revoked.location, '/profile?revoked');
  t.equal((await rest(web, '/api/', token)).status, 401, 'REST gets 401 at once');
  const closed = await ws.waitClosed();
  t.equal(closed.code, 1008, 'the WebSocket opened with it is closed');
  t.match((await browser.get('/profile?revoked')).text, /Token revoked/);
  const again = await browser.post('/profile/tokens/revoke', { csrf: profile.csrf, token_id: id });
  t.equal(again.status, 404);
});

t.test("another user's token cannot be revoked from the profile page", async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const owner = web.hub.auth.ownerUser();
  const other = await web.hub.auth.createToken(owner?.id ?? '', 'cli');
  const profile = await browser.get('/profile');
  const res = await browser.post('/profile/tokens/revoke', { csrf: profile.csrf, token_id: 'not-a-token' });
  t.equal(res.status, 404);
  t.equal((await rest(web, '/api/', other)).status, 200);
});

t.test('the dashboard gets a short-lived token for the WebSocket; logout closes that WebSocket', async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const page = await browser.get('/');
  const csrf = /name="hearth-csrf" content="([^"]+)"/.exec(page.text)?.[1] ?? '';

  const anonymous = await fetch(`${web.url}/web/token`, { method: 'POST' });
  t.equal(anonymous.status, 401);
  const noHeader = await browser.request('/web/token', { method: 'POST' });
  t.equal(noHeader.status, 403, 'the CSRF header is required');
  const wrongHeader = await browser.request('/web/token', { method: 'POST', headers: { 'x-csrf-token': 'nope' } });
  t.equal(wrongHeader.status, 403);
  t.equal((await browser.get('/web/token')).status, 405, 'never over GET');

  const issued = await browser.request('/web/token', { method: 'POST', headers: { 'x-csrf-token': csrf } });
  t.equal(issued.status, 200);
  t.equal(issued.headers.get('cache-control'), 'no-store');
  const body = JSON.parse(issued.text) as { access_token: string; token_type: string; expires_in: number };
  t.equal(body.token_type, 'Bearer');
  t.equal(body.expires_in, 1800);
  t.same(web.hub.auth.listTokens(), [], 'not a long-lived token');

  const ws = await WsClient.authenticated(web.wsUrl, body.access_token);
  const states = await ws.command('get_states');
  t.equal(states.success, true);
  t.equal((await rest(web, '/api/states/light.kitchen', body.access_token)).status, 200, 'REST takes it too');

  const profile = await browser.get('/profile');
  await browser.post('/logout', { csrf: profile.csrf });
  const closed = await ws.waitClosed();
  t.equal(closed.code, 1008, 'logging out closes the page WebSockets');
  t.equal((await rest(web, '/api/states/light.kitchen', body.access_token)).status, 401);
});

t.test('auth/long_lived_access_token over the WebSocket makes the same kind of token, listed on the profile page', async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const page = await browser.get('/');
  const csrf = /name="hearth-csrf" content="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const issued = JSON.parse((await browser.request('/web/token', { method: 'POST', headers: { 'x-csrf-token': csrf } })).text) as {
    access_token: string;
  };
  const ws = await WsClient.authenticated(web.wsUrl, issued.access_token);
  const reply = await ws.command('auth/long_lived_access_token', { lifespan: 3650, client_name: 'Phone app' });
  t.equal(reply.success, true);
  const token = String(reply.result);
  t.equal((await rest(web, '/api/', token)).status, 200);
  t.match((await browser.get('/profile')).text, /<td>Phone app<\/td>/);
  ws.close();
});

t.test('static assets: one content-derived id, cached for a year, gzip when asked, preact served with its imports rewritten', async (t) => {
  const web = await startWebHub(t);
  const browser = new FormBrowser(web.url);
  const page = await browser.get('/onboarding');
  const id = /\/static\/([0-9a-f]{12})\/hearth\.css/.exec(page.text)?.[1] ?? '';
  t.match(id, /^[0-9a-f]{12}$/);

  const plain = await fetch(`${web.url}/static/${id}/dashboard.js`, { headers: { 'accept-encoding': 'identity' } });
  t.equal(plain.status, 200);
  t.equal(plain.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.equal(plain.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.equal(plain.headers.get('content-encoding'), null);
  const source = await plain.text();
  t.match(source, /from '\.\/vendor\/preact\.js'/);

  const { gunzipSync } = await import('node:zlib');
  const raw = await import('node:http').then(
    (http) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        http
          .get(`${web.url}/static/${id}/vendor/hooks.js`, { headers: { 'accept-encoding': 'gzip, deflate' } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      }),
  );
  t.equal(raw.headers['content-encoding'], 'gzip');
  t.equal(raw.headers.vary, 'Accept-Encoding');
  const hooks = gunzipSync(raw.body).toString('utf8');
  t.match(hooks, /from"\.\/preact\.js"/, 'the bare "preact" import points at the served file');
  t.notMatch(hooks, /from"preact"/);
  t.notMatch(hooks, /sourceMappingURL/);

  for (const path of [
    `/static/${id}/vendor/preact.js`,
    `/static/${id}/vendor/htm.js`,
    `/static/${id}/hearth.css`,
    `/static/${id}/icon.svg`,
  ]) {
    t.equal((await fetch(web.url + path)).status, 200, path);
  }
  t.equal((await fetch(`${web.url}/static/000000000000/dashboard.js`)).status, 404, 'an old bundle id');
  t.equal((await fetch(`${web.url}/static/${id}/../../package.json`)).status, 404);
  t.equal((await fetch(`${web.url}/static/${id}/nope.js`)).status, 404);
});
