import t from 'tap';
import type { Logger } from '../../../src/core/log.js';
import { startTestHub } from '../../helpers/hub.js';
import { jsonPost, type RawResponse, rawBody, rawHttp } from './helpers.js';

const MIB = 1024 * 1024;

/** A logger that keeps error-level records, so a test can assert that no request failed inside the hub. */
function recordingLogger(errors: string[]): Logger {
  const log: Logger = {
    trace() {},
    debug() {},
    info() {},
    warn() {},
    error(obj: object | string, msg?: string) {
      errors.push(typeof obj === 'string' ? obj : `${msg ?? ''} ${String((obj as { err?: unknown }).err ?? '')}`);
    },
    fatal(obj: object | string, msg?: string) {
      errors.push(typeof obj === 'string' ? obj : (msg ?? 'fatal'));
    },
    child: () => log,
  };
  return log;
}

t.test('bodies over 1 MiB get 413; the connection is closed and the hub carries on', async (t) => {
  const { api, hub, token } = await startTestHub(t);
  const big = 'x'.repeat(2 * MIB);

  for (const path of ['/api/services/light/turn_on', '/api/states/sensor.big', '/api/events/big']) {
    const res = await api(path, { method: 'POST', body: big });
    t.equal(res.status, 413, path);
    t.same(await res.json(), { message: 'Request body is larger than 1048576 bytes.' });
  }

  const raw = await rawHttp(
    hub.port,
    `POST /api/services/light/turn_on HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${token}\r\nContent-Length: ${big.length}\r\n\r\n${big}`,
  );
  t.equal(raw.status, 413);
  t.ok(raw.closed, 'the server closes the connection, so the unread rest is never taken for a request');

  // Just under the limit is fine.
  const padding = 'y'.repeat(MIB - 100);
  const under = await api('/api/events/big', jsonPost({ padding }));
  t.equal(under.status, 200, 'a body just under 1 MiB is accepted');

  t.equal((await api('/api/')).status, 200, 'and the hub still answers');
  t.notOk(hub.core.states.has('sensor.big'));

  // A service call whose body arrives in many chunks is read whole: here the data names its extra key.
  const chunked = await api('/api/services/light/turn_on', jsonPost({ entity_id: 'light.hallway', padding }));
  t.equal(chunked.status, 400);
  t.match(await chunked.json(), { message: /padding/ });
  const call = await api('/api/services/light/turn_on', jsonPost({ entity_id: 'light.hallway', brightness: 12 }));
  t.equal(call.status, 200, 'and the next call on the hub works');
});

t.test('malformed paths get 400, never a 5xx', async (t) => {
  const { api } = await startTestHub(t);
  const cases: [string, string][] = [
    ['GET', '/api/states/%E0%A4%A'],
    ['GET', '/api/states/light.%ZZkitchen'],
    ['POST', '/api/states/%E0%A4%A'],
    ['DELETE', '/api/states/%'],
    ['POST', '/api/services/%E0/turn_on'],
    ['POST', '/api/services/light/turn_%'],
    ['POST', '/api/events/%C0%AF'],
  ];
  for (const [method, path] of cases) {
    const res = await api(path, { method, body: method === 'POST' ? '{}' : undefined });
    t.equal(res.status, 400, `${method} ${path}`);
    t.match(((await res.json()) as { message: string }).message, /^Malformed percent-encoding in (entity_id|domain|service|event_type): /);
  }
  const nul = await api('/api/states/light.kit%00chen');
  t.equal(nul.status, 404, 'a NUL decodes to an id that does not exist');
  const nulWrite = await api('/api/states/sensor.a%00b', jsonPost({ state: 'x' }));
  t.equal(nulWrite.status, 400, 'and is no valid id to write');
});

t.test('a batch of hostile requests gets no 5xx and leaves the hub working', async (t) => {
  const errors: string[] = [];
  const { api, hub, token } = await startTestHub(t, { log: recordingLogger(errors) });
  const port = hub.port;
  const auth = `Authorization: Bearer ${token}\r\n`;
  const post = (path: string, body: string | Buffer, extra = ''): Buffer =>
    Buffer.concat([
      Buffer.from(
        `POST ${path} HTTP/1.1\r\nHost: h\r\n${auth}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n`,
      ),
      Buffer.isBuffer(body) ? body : Buffer.from(body),
    ]);
  const get = (path: string | Buffer, extra = ''): Buffer =>
    Buffer.concat([
      Buffer.from('GET '),
      Buffer.from(path),
      Buffer.from(` HTTP/1.1\r\nHost: h\r\n${auth}${extra}Connection: close\r\n\r\n`),
    ]);

  const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deepObject = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
  const bodies: (string | Buffer)[] = [
    '{"entity_id": ',
    '}{',
    '{"a":1,}',
    'NaN',
    'undefined',
    "{'entity_id': 'light.kitchen'}",
    '\u0000\u0001',
    Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x80]),
    Buffer.concat([Buffer.from('{"entity_id": "light.'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    Buffer.concat([Buffer.from('{"state": "'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    deep(500_000),
    `{"entity_id": "light.kitchen", "x": ${deep(100_000)}}`,
    `{"state": "on", "attributes": ${deepObject(50_000)}}`,
    '{"entity_id": {"a": 1}}',
    '{"entity_id": "light.kitchen", "brightness": [1, 2]}',
    '{"entity_id": "light.kitchen", "brightness": 1e400}',
    '{"entity_id": "light.kitchen", "brightness": -0}',
    '{"entity_id": "light.kitchen", "brightness": 123456789012345678901234567890}',
    '{"entity_id": "light.kitchen", "rgb_color": {"r": 1}}',
    '{"entity_id": "light.kitchen", "hs_color": [1e400, -1e400]}',
    '{"entity_id": "light.kitchen", "transition": "soon"}',
    '{"entity_id": "light.kitchen", "flash": ["short"]}',
    '{"entity_id": "light.kitchen", "effect": {"a": [1]}}',
    '{"__proto__": {"admin": true}, "entity_id": "light.kitchen"}',
    '{"constructor": {"prototype": {"polluted": 1}}, "entity_id": "toString"}',
    '{"entity_id": "__proto__"}',
    '{"state": ["on"], "attributes": 5}',
    '{"state": "on", "attributes": {"__proto__": {"polluted": true}}}',
    '{"state": "on", "force_update": {"yes": 1}}',
    '{"device_id": 5, "area_id": [1]}',
    '{"entity_id": "light.kitchen", "target": {"area_id": "x"}}',
    JSON.stringify({ entity_id: Array.from({ length: 50_000 }, (_, i) => `light.l${i}`) }),
    JSON.stringify({ entity_id: 'light.kitchen', effect: 'x'.repeat(500_000) }),
  ];
  const paths = [
    '/api/services/light/turn_on',
    '/api/services/light/turn_on?return_response',
    '/api/services/switch/toggle',
    '/api/states/sensor.hostile',
    '/api/events/hostile',
  ];

  const requests: { label: string; data: Buffer; end?: boolean }[] = [];
  bodies.forEach((body, i) => {
    for (const path of paths) requests.push({ label: `body ${i} to ${path}`, data: post(path, body) });
  });
  requests.push(
    { label: 'huge header', data: get('/api/states', `X-Big: ${'a'.repeat(100_000)}\r\n`) },
    { label: 'many headers', data: get('/api/states', Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${i}\r\n`).join('')) },
    { label: 'huge url', data: get(`/api/states/${'a'.repeat(60_000)}`) },
    { label: 'huge query', data: get(`/api/states?${'q=1&'.repeat(20_000)}`) },
    {
      label: 'non-UTF-8 path',
      data: get(Buffer.from([0x2f, 0x61, 0x70, 0x69, 0x2f, 0x73, 0x74, 0x61, 0x74, 0x65, 0x73, 0x2f, 0xff, 0xfe])),
    },
    { label: 'non-UTF-8 service path', data: post(Buffer.from([0x2f, 0x61, 0x70, 0x69, 0x2f, 0xc0, 0xaf]).toString('latin1'), '{}') },
    { label: 'long domain', data: post(`/api/services/${'d'.repeat(5000)}/${'s'.repeat(5000)}`, '{}') },
    { label: 'long event type', data: post(`/api/events/${'e'.repeat(10_000)}`, '{}') },
    { label: 'bad percent in query', data: post('/api/services/light/turn_on?%E0%A4%A=1', '{}') },
    {
      label: 'bad authorization bytes',
      data: Buffer.from(
        `GET /api/states HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer \xff\xfe\u0000\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
      end: true,
    },
    {
      label: 'huge authorization',
      data: Buffer.from(`GET /api/states HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer ${'t.'.repeat(50_000)}\r\nConnection: close\r\n\r\n`),
    },
    { label: 'negative content-length', data: post('/api/services/light/turn_on', '{}', 'Content-Length: -5\r\n') },
    {
      label: 'text content-length',
      data: Buffer.from(`POST /api/events/x HTTP/1.1\r\nHost: h\r\n${auth}Content-Length: ten\r\n\r\n{}`),
      end: true,
    },
    {
      label: 'enormous content-length',
      data: Buffer.from(`POST /api/events/x HTTP/1.1\r\nHost: h\r\n${auth}Content-Length: 99999999999999999999\r\n\r\n{}`),
      end: true,
    },
    {
      label: 'short body then close',
      data: Buffer.from(`POST /api/events/x HTTP/1.1\r\nHost: h\r\n${auth}Content-Length: 100\r\n\r\n{"a":`),
      end: true,
    },
    {
      label: 'bad chunked body',
      data: Buffer.from(`POST /api/events/x HTTP/1.1\r\nHost: h\r\n${auth}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`),
      end: true,
    },
    {
      label: 'chunked and content-length',
      data: Buffer.from(
        `POST /api/events/x HTTP/1.1\r\nHost: h\r\n${auth}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ),
      end: true,
    },
    { label: 'unknown method', data: Buffer.from(`FOO /api/states HTTP/1.1\r\nHost: h\r\n${auth}Connection: close\r\n\r\n`) },
    { label: 'HTTP/0.9', data: Buffer.from('GET /api/states\r\n\r\n'), end: true },
    { label: 'no host', data: Buffer.from(`GET /api/states HTTP/1.1\r\n${auth}\r\n`), end: true },
    { label: 'binary garbage', data: Buffer.from([0, 1, 2, 3, 0xff, 13, 10, 13, 10]), end: true },
    { label: 'header without colon', data: Buffer.from(`GET /api/states HTTP/1.1\r\nHost: h\r\nBroken header\r\n${auth}\r\n`), end: true },
    { label: 'pipelined mixture', data: Buffer.concat([get('/api/states/%E0'), post('/api/services/light/turn_on', '}'), get('/api/')]) },
  );

  const results: { label: string; res: RawResponse }[] = await Promise.all(
    requests.map(async ({ label, data, end }) => ({ label, res: await rawHttp(port, data, { end, deadlineMs: 5000 }) })),
  );
  let answered = 0;
  for (const { label, res } of results) {
    if (res.status === 0) continue; // closed or ignored by the HTTP parser: no answer is fine, a crash is not
    answered++;
    if (res.status >= 500) t.fail(`${label}: ${res.status} ${rawBody(res).slice(0, 200)}`);
  }
  t.ok(answered > requests.length / 2, `most hostile requests got an answer (${answered} of ${requests.length})`);
  t.same(errors, [], 'no request failed inside the hub');

  const root = await api('/api/');
  t.equal(root.status, 200, 'the hub still answers');
  const states = (await (await api('/api/states')).json()) as { entity_id: string }[];
  t.ok(
    ['light.kitchen', 'light.hallway', 'switch.coffee_maker'].every((id) => states.some((s) => s.entity_id === id)),
    'its entities are all there',
  );
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype was polluted');
  t.equal(({} as Record<string, unknown>).admin, undefined);
  const call = await api('/api/services/light/turn_on', jsonPost({ entity_id: 'light.hallway', brightness: 10 }));
  t.equal(call.status, 200, 'and service calls still work');
  t.equal(hub.core.states.get('light.hallway')?.attributes.brightness, 10);
});
