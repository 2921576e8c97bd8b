import t from 'tap';
import { CONTENT_SECURITY_POLICY } from '../../src/web/http-util.js';
import { FormBrowser, onboard, startWebHub } from './helpers.js';

t.test('first start: / leads to creating the owner; then onboarding is closed for good', async (t) => {
  const web = await startWebHub(t);
  const browser = new FormBrowser(web.url);

  const root = await browser.get('/');
  t.equal(root.status, 302);
  t.equal(root.location, '/onboarding');
  t.equal((await browser.get('/login')).location, '/onboarding', 'nobody can log in yet');

  const form = await browser.get('/onboarding');
  t.equal(form.status, 200);
  t.match(form.text, /Create the owner account/);
  t.match(form.text, /name="password_confirm"/);
  t.equal(form.headers.get('content-security-policy'), CONTENT_SECURITY_POLICY);
  t.equal(form.headers.get('x-frame-options'), 'DENY');
  t.equal(form.headers.get('cache-control'), 'no-store');
  t.notMatch(form.text, /<script(?![^>]*\bsrc=)/, 'no inline script');
  t.match(browser.setCookies[0], /^hearth_form=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/, 'the form cookie');

  const noToken = await browser.post('/onboarding', { name: 'Eve', username: 'eve', password: 'password1', password_confirm: 'password1' });
  t.equal(noToken.status, 400, 'a post without the CSRF token is refused');
  t.match(noToken.text, /form had expired/);

  const bad = await browser.post('/onboarding', {
    csrf: form.csrf,
    name: '',
    username: 'Ada Lovelace',
    password: 'short',
    password_confirm: 'short',
  });
  t.equal(bad.status, 400);
  t.match(bad.text, /Your name must have 1 to 100 characters/);
  t.match(bad.text, /Username must have 1 to 64 characters/);
  t.match(bad.text, /Password must have at least 8 characters/);
  t.match(bad.text, /value="Ada Lovelace"/, 'what was typed is kept (but never the password)');
  const differ = await browser.post('/onboarding', {
    csrf: form.csrf,
    name: 'Ada',
    username: 'ada',
    password: 'password1',
    password_confirm: 'password2',
  });
  t.match(differ.text, /The two passwords differ/);
  t.equal(web.hub.auth.users().length, 0, 'no user was created by the refused forms');

  const done = await browser.post('/onboarding', {
    csrf: form.csrf,
    name: 'Ada <Lovelace>',
    username: 'Ada',
    password: 'analytical engine',
    password_confirm: 'analytical engine',
  });
  t.equal(done.status, 302);
  t.equal(done.location, '/');
  const session = browser.setCookies.find((c) => c.startsWith('hearth_session='));
  t.match(
    session,
    /^hearth_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=2592000$/,
    'HttpOnly, SameSite=Strict, no Secure over plain HTTP',
  );
  const owner = web.hub.auth.ownerUser();
  t.equal(owner?.name, 'Ada <Lovelace>');
  t.equal(owner?.username, 'ada');

  const dashboard = await browser.get('/');
  t.equal(dashboard.status, 200);
  t.match(dashboard.text, /Ada &lt;Lovelace&gt;/, 'names are escaped');
  t.notMatch(dashboard.text, /Ada <Lovelace>/);
  t.match(dashboard.text, /<meta name="hearth-csrf" content="[\w-]{43}">/);
  t.match(dashboard.text, /<script type="module" src="\/static\/[0-9a-f]{12}\/dashboard\.js"><\/script>/);

  t.equal((await browser.get('/onboarding')).location, '/', 'onboarding is closed');
  const stranger = new FormBrowser(web.url);
  t.equal((await stranger.get('/onboarding')).location, '/login');
  const again = await stranger.submit('/login', '/onboarding', {
    name: 'Eve',
    username: 'eve',
    password: 'password1',
    password_confirm: 'password1',
  });
  t.equal(again.location, '/login', 'a second owner cannot be made');
  t.equal(web.hub.auth.users().length, 1);
});

t.test('an owner made by the CLI sets a password once, with the one-time code from the log', async (t) => {
  const web = await startWebHub(t);
  await web.hub.auth.ensureOwner();
  const browser = new FormBrowser(web.url);
  const form = await browser.get('/onboarding');
  t.match(form.text, /has no password yet/);
  const logged = await web.log.waitFor(/one-time code/);
  const code = String(logged.obj.onboardingCode);
  t.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/, 'printed as XXXX-XXXX');

  const fields = { name: 'Grace', username: 'grace', password: 'compiler first', password_confirm: 'compiler first' };
  const wrong = await browser.post('/onboarding', { csrf: form.csrf, code: 'AAAA-AAAA', ...fields });
  t.equal(wrong.status, 401);
  t.match(wrong.text, /one-time code is wrong/);
  t.equal(await web.hub.auth.onboarded(), false);

  const right = await browser.post('/onboarding', { csrf: form.csrf, code: code.toLowerCase().replace('-', ' '), ...fields });
  t.equal(right.status, 302, 'case, spaces and dashes do not matter');
  t.equal(web.hub.auth.ownerUser()?.name, 'Grace');
  t.equal((await web.hub.auth.checkPassword('grace', 'compiler first'))?.isOwner, true);
  t.equal((await new FormBrowser(web.url).get('/onboarding')).location, '/login', 'closed for good');
});

t.test('login, wrong passwords, next=, logout; every form needs its CSRF token', async (t) => {
  const web = await startWebHub(t);
  await (await onboard(web)).get('/');
  const browser = new FormBrowser(web.url);
  t.equal((await browser.get('/')).location, '/login');
  t.equal((await browser.get('/profile')).location, '/login?next=/profile');

  const page = await browser.get('/login?next=/profile');
  t.match(page.text, /name="next" value="\/profile"/);
  const wrong = await browser.post('/login', { csrf: page.csrf, username: 'ada', password: 'difference engine', next: '/profile' });
  t.equal(wrong.status, 401);
  t.match(wrong.text, /Wrong username or password/);
  t.match(wrong.text, /value="ada"/);
  const unknown = await browser.post('/login', { csrf: page.csrf, username: 'nobody', password: 'analytical engine' });
  t.equal(unknown.status, 401, 'an unknown user reads the same');
  t.match(unknown.text, /Wrong username or password/);

  const offsite = await browser.post('/login', {
    csrf: page.csrf,
    username: 'ada',
    password: 'analytical engine',
    next: '//evil.example/',
  });
  t.equal(offsite.location, '/', 'next= never leads off the site');
  const crossSite = await browser.post(
    '/login',
    { csrf: page.csrf, username: 'ada', password: 'analytical engine' },
    { 'sec-fetch-site': 'cross-site' },
  );
  t.equal(crossSite.status, 403, 'a form posted from another site is refused');
  const foreignOrigin = await browser.post(
    '/login',
    { csrf: page.csrf, username: 'ada', password: 'analytical engine' },
    { origin: 'http://evil.example' },
  );
  t.equal(foreignOrigin.status, 403);

  const profile = await browser.get('/profile');
  t.equal(profile.status, 200);
  const noCsrf = await browser.post('/logout', {});
  t.equal(noCsrf.status, 400, 'logout needs the CSRF token too');
  t.equal((await browser.get('/profile')).status, 200, 'still logged in');
  const out = await browser.post('/logout', { csrf: profile.csrf });
  t.equal(out.location, '/login?logged_out');
  t.notOk(browser.cookies.has('hearth_session'), 'the cookie is cleared');
  t.match((await browser.get('/login?logged_out')).text, /You are logged out/);

  const oldCookie = browser.setCookies.find((c) => c.startsWith('hearth_session=') && !c.includes('Max-Age=0'))?.split(';')[0] ?? '';
  const replay = await fetch(`${web.url}/profile`, { headers: { cookie: oldCookie }, redirect: 'manual' });
  t.equal(replay.headers.get('location'), '/login?next=/profile', 'the ended session is gone on the server too');
});

t.test('forms and pages refuse malformed input with clear answers, never a 5xx', async (t) => {
  const web = await startWebHub(t);
  const browser = await onboard(web);
  const json = await browser.request('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.equal(json.status, 400);
  t.match(json.text, /application\/x-www-form-urlencoded/);
  const huge = await browser.post('/login', { username: 'x'.repeat(20_000) });
  t.equal(huge.status, 413);
  t.equal((await browser.get('/login?next=%E0%A4%A')).status, 302, 'a broken next= is ignored');
  t.equal((await browser.request('/profile', { method: 'DELETE' })).status, 405);
  const weird = await browser.post('/profile/tokens', { csrf: (await browser.get('/profile')).csrf, name: '<img src=x onerror=alert(1)>' });
  t.equal(weird.status, 201);
  t.match(weird.text, /&lt;img src=x onerror=alert\(1\)&gt;/);
  t.notMatch(weird.text, /<img src=x/);
});
