import t from 'tap';
import { ConfigFileError, formatIssue, parseConfigText } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/hub.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';

const CAST = 'https://cast.home-assistant.io';
const MINE = 'https://dash.example.org';

function problems(http: string): string[] {
  try {
    parseConfigText(`${MINIMAL_CONFIG}http:\n${http}`, null, SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map(formatIssue);
    throw err;
  }
  return [];
}

t.test("Home Assistant's default: its Cast app may call the API from its origin, no other origin may", async (t) => {
  const h = await startTestHub(t);
  const cast = await h.api('/api/', { headers: { origin: CAST } });
  t.equal(cast.status, 200);
  t.equal(cast.headers.get('access-control-allow-origin'), CAST);
  t.equal(cast.headers.get('access-control-allow-credentials'), null, 'as Home Assistant: no credentials (bearer tokens only)');

  const other = await h.api('/api/', { headers: { origin: 'https://evil.example' } });
  t.equal(other.status, 200);
  t.equal(other.headers.get('access-control-allow-origin'), null, 'another origin: no CORS header');
  t.equal((await h.api('/api/')).headers.get('access-control-allow-origin'), null, 'no Origin: none');

  const unauthorized = await fetch(`${h.url}/api/states`, { headers: { origin: CAST } });
  t.equal(unauthorized.status, 401);
  t.equal(unauthorized.headers.get('access-control-allow-origin'), CAST, 'errors carry it too, so the page can read them');
});

t.test('cors_allowed_origins replaces the default; preflight as aiohttp_cors answers it', async (t) => {
  const h = await startTestHub(t, { yaml: `${MINIMAL_CONFIG}http:\n  cors_allowed_origins:\n    - ${MINE}\n` });
  const preflight = (origin: string | undefined, method: string | undefined, headers?: string) => {
    const init: Record<string, string> = {};
    if (origin !== undefined) init.origin = origin;
    if (method !== undefined) init['access-control-request-method'] = method;
    if (headers !== undefined) init['access-control-request-headers'] = headers;
    return fetch(`${h.url}/api/services/light/turn_on`, { method: 'OPTIONS', headers: init });
  };
  const ok = await preflight(MINE, 'POST', 'authorization, content-type');
  t.equal(ok.status, 200);
  t.equal(ok.headers.get('access-control-allow-origin'), MINE);
  t.equal(ok.headers.get('access-control-allow-methods'), 'POST');
  t.equal(ok.headers.get('access-control-allow-headers'), 'AUTHORIZATION,CONTENT-TYPE');

  const cast = await preflight(CAST, 'GET');
  t.equal(cast.status, 403, 'the default origin is replaced');
  t.equal(await cast.text(), `CORS preflight request failed: origin '${CAST}' is not allowed`);
  t.equal(cast.headers.get('access-control-allow-origin'), null);

  const noMethod = await preflight(MINE, undefined);
  t.equal(noMethod.status, 403);
  t.match(await noMethod.text(), /'Access-Control-Request-Method' header is not specified/);
  const noOrigin = await preflight(undefined, 'GET');
  t.equal(noOrigin.status, 403);
  t.match(await noOrigin.text(), /origin header is not specified/);
  const badHeader = await preflight(MINE, 'POST', 'x-secret');
  t.equal(badHeader.status, 403);
  t.equal(await badHeader.text(), 'CORS preflight request failed: headers are not allowed: X-SECRET');

  const call = await h.api('/api/services/light/turn_on', {
    method: 'POST',
    headers: { origin: MINE, 'content-type': 'application/json' },
    body: JSON.stringify({ entity_id: 'light.kitchen' }),
  });
  t.equal(call.status, 200);
  t.equal(call.headers.get('access-control-allow-origin'), MINE, 'the actual request after the preflight');
  t.equal((await h.api('/api/', { headers: { origin: CAST } })).headers.get('access-control-allow-origin'), null);
});

t.test('check-config: cors_allowed_origins is a list of origins, or one', async (t) => {
  t.same(problems(`  cors_allowed_origins: ${MINE}\n`), []);
  t.same(problems(`  cors_allowed_origins: [${MINE}, http://localhost:8123]\n`), []);
  t.match(problems('  cors_allowed_origins: {a: 1}\n'), [/http\.cors_allowed_origins: .*expected/]);
});
