import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { registerRestApi } from '../../../src/api/rest.js';
import { LoginGuard } from '../../../src/auth/bans.js';
import { AuthStore } from '../../../src/auth/store.js';
import { parseConfigText } from '../../../src/config/load.js';
import { Core } from '../../../src/core/core.js';
import { silentLogger } from '../../../src/core/log.js';
import type { ApiContext } from '../../../src/http/context.js';
import { HttpServer } from '../../../src/http/server.js';
import { SECTION_VALIDATORS } from '../../../src/hub.js';
import { Registries } from '../../../src/registry/index.js';
import { ErrorLog } from '../../../src/util/error-log.js';
import { HUB_VERSION } from '../../../src/version.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown } from '../../helpers/hub.js';
import { jsonPost, recordEvents } from './helpers.js';

t.test('GET /api/, /api/config, /api/core/state and /api/components', async (t) => {
  const { api, hub } = await startTestHub(t);
  const root = await api('/api/');
  t.equal(root.status, 200);
  t.equal(root.headers.get('content-type'), 'application/json');
  t.same(await root.json(), { message: 'API running.' });

  const config = await api('/api/config');
  t.equal(config.status, 200);
  const body = (await config.json()) as Record<string, unknown>;
  t.match(body, {
    location_name: 'Test Home',
    latitude: 52.37,
    longitude: 4.89,
    elevation: 3,
    time_zone: 'Europe/Amsterdam',
    version: HUB_VERSION,
    state: 'RUNNING',
    unit_system: { temperature: '°C', length: 'km' },
  });
  t.same(body.components, hub.components());
  t.ok((body.components as string[]).includes('light.virtual'));

  const core = await api('/api/core/state');
  t.equal(core.status, 200);
  t.same(await core.json(), { state: 'RUNNING', recorder_state: { migration_in_progress: false, migration_is_live: false } });

  const components = await api('/api/components');
  t.equal(components.status, 200);
  const list = (await components.json()) as string[];
  for (const name of ['api', 'light', 'switch', 'light.virtual', 'switch.virtual']) t.ok(list.includes(name), name);

  t.equal((await api('/api')).status, 404, 'the trailing slash is part of the path');
});

t.test('GET /api/events lists listener counts', async (t) => {
  const { api, hub } = await startTestHub(t);
  recordEvents(t, hub.core.bus, 'doorbell_pressed');
  recordEvents(t, hub.core.bus, 'doorbell_pressed');
  const res = await api('/api/events');
  t.equal(res.status, 200);
  const counts = (await res.json()) as { event: string; listener_count: number }[];
  t.same(counts, hub.core.bus.listenerCounts());
  t.same(
    counts.find((c) => c.event === 'doorbell_pressed'),
    { event: 'doorbell_pressed', listener_count: 2 },
  );
});

t.test('POST /api/events/<event_type> fires the event', async (t) => {
  const { api, hub } = await startTestHub(t);
  const owner = hub.auth.ownerUser();
  const events = recordEvents(t, hub.core.bus, 'doorbell_pressed');

  const res = await api('/api/events/doorbell_pressed', jsonPost({ door: 'front', times: 2 }));
  t.equal(res.status, 200);
  t.same(await res.json(), { message: 'Event doorbell_pressed fired.' });
  t.equal(events.length, 1);
  t.same(events[0]?.data, { door: 'front', times: 2 });
  t.equal(events[0]?.origin, 'REMOTE');
  t.equal(events[0]?.context.user_id, owner?.id);

  t.equal((await api('/api/events/doorbell_pressed', { method: 'POST' })).status, 200, 'an empty body');
  t.same(events[1]?.data, {}, 'is no data');
  t.equal((await api('/api/events/doorbell_pressed', jsonPost('null'))).status, 200, 'null');
  t.same(events[2]?.data, {}, 'is no data too');

  const encoded = recordEvents(t, hub.core.bus, 'door bell');
  t.equal((await api('/api/events/door%20bell', jsonPost({}))).status, 200);
  t.equal(encoded.length, 1, 'the event type is URL-decoded');

  const longest = 'e'.repeat(64);
  const fired = recordEvents(t, hub.core.bus, longest);
  t.equal((await api(`/api/events/${longest}`, jsonPost({}))).status, 200, '64 characters are allowed');
  t.equal(fired.length, 1);
});

t.test('POST /api/events/<event_type> rejects bad input', async (t) => {
  const { api, hub } = await startTestHub(t);
  const all = recordEvents(t, hub.core.bus, '*');
  const before = all.length;
  const cases: [string, string, string][] = [
    ['doorbell', '{"door": ', 'Event data should be valid JSON.'],
    ['doorbell', '[1, 2]', 'Event data should be a JSON object'],
    ['doorbell', '"front"', 'Event data should be a JSON object'],
    ['doorbell', '12', 'Event data should be a JSON object'],
    ['doorbell', `{"a": ${'{"a": '.repeat(70)}1${'}'.repeat(70)}}`, 'Request body is nested deeper than 64 levels of arrays and objects.'],
    ['e'.repeat(65), '{}', 'Invalid event_type: an event type has at most 64 characters.'],
    [
      'state_changed',
      '{"entity_id": "light.kitchen"}',
      'Invalid event_type: state_changed is fired by the hub itself and cannot be fired over the API.',
    ],
    ['call_service', '{}', 'Invalid event_type: call_service is fired by the hub itself and cannot be fired over the API.'],
  ];
  for (const [type, body, message] of cases) {
    const res = await api(`/api/events/${type}`, jsonPost(body));
    t.equal(res.status, 400, `${type.slice(0, 20)} ${body.slice(0, 20)}`);
    t.same(await res.json(), { message });
  }
  t.equal(all.length, before, 'nothing was fired');
});

/** The REST API on its own server, with an error log the test controls. */
async function startBareApi(t: Teardown, errorLog: ErrorLog): Promise<{ url: string; token: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-rest-'));
  const core = new Core({ log: silentLogger });
  core.runState = 'RUNNING';
  const auth = await AuthStore.open(dataDir, silentLogger);
  const owner = await auth.ensureOwner();
  const token = await auth.createToken(owner.id, 'test');
  const server = new HttpServer(silentLogger);
  const config = parseConfigText(MINIMAL_CONFIG, null, SECTION_VALIDATORS);
  const registries = await Registries.start({ core, dataDir, sections: {}, log: silentLogger });
  const ctx: ApiContext = {
    core,
    auth,
    registries,
    config,
    log: silentLogger,
    errorLog,
    components: () => ['api'],
    guard: LoginGuard.inert(),
  };
  registerRestApi(server, ctx);
  server.finish();
  const port = await server.listen('127.0.0.1', 0);
  t.teardown(async () => {
    server.close();
    await auth.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { url: `http://127.0.0.1:${port}`, token };
}

t.test('GET /api/error_log is the error log as plain text', async (t) => {
  const errorLog = new ErrorLog(3);
  const { url, token } = await startBareApi(t, errorLog);
  const get = () => fetch(`${url}/api/error_log`, { headers: { authorization: `Bearer ${token}` } });

  const empty = await get();
  t.equal(empty.status, 200);
  t.equal(empty.headers.get('content-type'), 'text/plain; charset=utf-8');
  t.equal(await empty.text(), '');

  errorLog.add('2026-01-01 10:00:00.000 WARNING (virtual) first');
  errorLog.add('2026-01-01 10:00:01.000 ERROR (http) second');
  t.equal(await (await get()).text(), '2026-01-01 10:00:00.000 WARNING (virtual) first\n2026-01-01 10:00:01.000 ERROR (http) second\n');
  t.equal((await fetch(`${url}/api/error_log`)).status, 401, 'needs a token');
});

t.test('unknown paths get 404 and wrong methods 405 with Allow, with or without a token', async (t) => {
  const { url, token } = await startTestHub(t);
  const cases: [string, string, number, string | null][] = [
    ['GET', '/api/nothing', 404, null],
    ['GET', '/api/states/light.kitchen/extra', 404, null],
    ['GET', '/api/services/light', 404, null],
    ['GET', '/api/events/', 404, null],
    ['PUT', '/api/states/light.kitchen', 405, 'GET, POST, DELETE'],
    ['POST', '/api/states', 405, 'GET'],
    ['DELETE', '/api/services', 405, 'GET'],
    ['GET', '/api/services/light/turn_on', 405, 'POST'],
    ['PATCH', '/api/events/doorbell', 405, 'POST'],
    ['POST', '/api/config', 405, 'GET'],
    ['POST', '/api/', 405, 'GET'],
    ['DELETE', '/api/error_log', 405, 'GET'],
  ];
  for (const withToken of [false, true]) {
    for (const [method, path, status, allow] of cases) {
      const headers: Record<string, string> = withToken ? { authorization: `Bearer ${token}` } : {};
      const res = await fetch(url + path, { method, headers });
      const label = `${method} ${path}${withToken ? ' with token' : ''}`;
      t.equal(res.status, status, label);
      t.equal(res.headers.get('allow'), allow, `${label}: Allow`);
      t.equal(await res.text(), status === 404 ? '404: Not Found' : '405: Method Not Allowed');
    }
  }
});
