import t from 'tap';
import { APP_ROUTES } from '../../src/web/pages/app-paths.js';
import { FormBrowser, onboard, startWebHub } from './helpers.js';

/** Home Assistant's paths the sidebar links (the check in issue 36). */
const HA_PATHS = [
  '/config',
  '/config/entities',
  '/config/devices',
  '/config/areas',
  '/config/labels',
  '/config/helpers',
  '/config/automation/dashboard',
  '/config/script/dashboard',
  '/config/scene/dashboard',
  '/config/users',
  '/history',
  '/logbook',
  '/developer-tools/state',
  '/developer-tools/action',
  '/developer-tools/template',
  '/developer-tools/event',
];

t.test("Home Assistant's paths answer a page with the navigation, or the login; unknown paths a styled 404", async (t) => {
  const web = await startWebHub(t);
  const stranger = new FormBrowser(web.url);
  await onboard(web);
  for (const path of HA_PATHS) {
    const page = await stranger.get(path);
    t.equal(page.status, 302, `${path} without a session`);
    t.equal(page.location, `/login?next=${encodeURIComponent(path)}`);
  }
  const browser = await onboard(web).catch(() => undefined);
  t.equal(browser, undefined, 'onboarding is closed');

  const owner = new FormBrowser(web.url);
  const login = await owner.submit('/login', '/login', { username: 'ada', password: 'analytical engine', next: '/' });
  t.equal(login.status, 302);
  for (const path of [...HA_PATHS, '/config/devices/device/abc', '/config/automation/edit/new', '/config/automation/trace/1']) {
    const page = await owner.get(path);
    t.equal(page.status, 200, `${path} answers a page`);
    t.match(page.text, /<nav class="side" aria-label="Pages">/, `${path} has the sidebar`);
    const route = [...APP_ROUTES.keys()].find((p) => p === path || (p.includes(':') && path.startsWith(p.slice(0, p.indexOf(':')))));
    t.ok(route !== undefined && page.text.includes(`/${APP_ROUTES.get(route)?.script}`), `${path} loads its module`);
  }
  const current = await owner.get('/config/entities');
  t.match(current.text, /<a href="\/config\/entities" aria-current="page">Entities<\/a>/);

  const missing = await owner.get('/no/such/page');
  t.equal(missing.status, 404);
  t.match(missing.headers.get('content-type'), /text\/html/);
  t.match(missing.text, /Page not found/);
  t.match(missing.text, /<nav class="side"/, 'with the navigation');
  const anonymous = await stranger.get('/no/such/page');
  t.equal(anonymous.status, 404);
  t.match(anonymous.text, /href="\/login"/, 'a way to log in');

  const api = await stranger.get('/api/no/such');
  t.equal(api.status, 404);
  t.equal(api.text, '404: Not Found', 'API clients keep the plain 404');
  const post = await stranger.request('/no/such/page', { method: 'POST' });
  t.equal(post.status, 404, 'other methods too');
  t.equal((await stranger.get('/api/')).status, 401, 'the API root still asks for a token');
  t.equal((await stranger.get('/login')).status, 200, 'the login page is unaffected');
});
