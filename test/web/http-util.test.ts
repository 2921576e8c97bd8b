import t from 'tap';
import { formatCode } from '../../src/auth/onboarding.js';
import type { Request } from '../../src/http/http.js';
import { vendorText } from '../../src/web/assets.js';
import { escapeHtml, html, raw } from '../../src/web/html.js';
import { cookie, crossSiteProblem, parseCookies, safeNext } from '../../src/web/http-util.js';
import { acceptsGzip } from '../../src/web/routes/static-routes.js';

t.test('html escapes every interpolation, in text and attributes, unless it is markup already', async (t) => {
  const evil = `"><script>alert('x')</script>&`;
  t.equal(escapeHtml(evil), '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;');
  t.equal(html`<p title="${evil}">${evil}</p>`.text, `<p title="${escapeHtml(evil)}">${escapeHtml(evil)}</p>`);
  t.equal(html`<ul>${['a', '<b>'].map((x) => html`<li>${x}</li>`)}</ul>`.text, '<ul><li>a</li><li>&lt;b&gt;</li></ul>');
  t.equal(html`${null}${undefined}${false}${0}${raw('<br>')}`.text, '0<br>');
});

t.test('cookies: parsed leniently and bounded; set HttpOnly, SameSite=Strict, Secure over TLS', async (t) => {
  t.same(
    [...parseCookies('a=1; b = 2;c=x=y; a=3; =nope; junk')],
    [
      ['a', '1'],
      ['b', '2'],
      ['c', 'x=y'],
    ],
  );
  t.equal(parseCookies('').size, 0);
  t.equal(parseCookies(Array.from({ length: 1000 }, (_, i) => `k${i}=v`).join('; ')).size, 32);
  t.equal(cookie('s', 'v', { maxAgeS: 60, secure: true }), 's=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure');
  t.equal(cookie('s', 'v', { secure: false }), 's=v; Path=/; HttpOnly; SameSite=Strict');
});

t.test('after login, only paths of this site are followed', async (t) => {
  for (const bad of [undefined, '', 'https://evil.example/', '//evil.example/', '/\\evil.example', '/a b', `/${'x'.repeat(300)}`]) {
    t.equal(safeNext(bad), '/', JSON.stringify(bad));
  }
  t.equal(safeNext('/profile'), '/profile');
  t.equal(safeNext('/profile?revoked'), '/profile?revoked');
});

t.test('cross-site posts are told apart by Sec-Fetch-Site, else by Origin', async (t) => {
  const req = (headers: Record<string, string>): Request => ({
    method: 'POST',
    url: '/login',
    query: '',
    params: [],
    authorization: '',
    header: (name) => headers[name] ?? '',
  });
  t.equal(crossSiteProblem(req({ 'sec-fetch-site': 'same-origin', origin: 'null' })), undefined);
  t.match(crossSiteProblem(req({ 'sec-fetch-site': 'cross-site' })), /another site/);
  t.match(crossSiteProblem(req({ 'sec-fetch-site': 'same-site' })), /another site/);
  t.equal(crossSiteProblem(req({ origin: 'http://hub.local:8123', host: 'hub.local:8123' })), undefined);
  t.match(crossSiteProblem(req({ origin: 'http://evil.example', host: 'hub.local:8123' })), /another site/);
  t.match(crossSiteProblem(req({ origin: 'garbage', host: 'hub.local:8123' })), /not a URL/);
  t.equal(crossSiteProblem(req({})), undefined, 'tools send neither; the CSRF token decides');
});

t.test('small helpers', async (t) => {
  t.ok(acceptsGzip('gzip, deflate, br'));
  t.ok(acceptsGzip('br;q=1.0, gzip;q=0.8'));
  t.ok(acceptsGzip('*'));
  t.notOk(acceptsGzip('gzip;q=0'));
  t.notOk(acceptsGzip('identity'));
  t.notOk(acceptsGzip(''));
  t.equal(formatCode('ABCDEFGH'), 'ABCD-EFGH');
  t.equal(vendorText('import{a}from"preact";export{a};\n//# sourceMappingURL=hooks.mjs.map'), 'import{a}from"./preact.js";export{a};\n');
  t.equal(vendorText("import { a } from 'preact';"), "import { a } from './preact.js';");
});
