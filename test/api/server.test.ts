import t from 'tap';
import { isNativeUws, nativeBinaryPath } from '../../src/http/uws.js';
import { startTestHub } from '../helpers/hub.js';

t.test('the native uWS binary is the one in use', async (t) => {
  t.ok(isNativeUws(), 'SSLApp is a function only in the native build');
  t.match(nativeBinaryPath(), /uws_linux_[a-z0-9]+_\d+\.node$/);
});

t.test('unknown paths get 404 and known paths with a wrong method get 405 with Allow', async (t) => {
  const { url } = await startTestHub(t);
  const notFound = await fetch(`${url}/api/nope`);
  t.equal(notFound.status, 404);
  t.equal(await notFound.text(), '404: Not Found');
  t.equal(notFound.headers.get('x-content-type-options'), 'nosniff');
  // Outside the API a browser gets a page saying so, with a way on (issue 36).
  const page = await fetch(`${url}/nope`);
  t.equal(page.status, 404);
  t.match(await page.text(), /<h1>Page not found<\/h1>/);
  t.equal(page.headers.get('x-content-type-options'), 'nosniff');
  t.equal((await fetch(`${url}/nope`, { method: 'POST' })).status, 404, 'any other method too');
});
