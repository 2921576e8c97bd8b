import t from 'tap';
import type { Logger } from '../../src/core/log.js';
import { addCamera, type CameraPlatform } from '../../src/domains/camera.js';
import { PNG_SIGNATURE } from '../../src/util/png.js';
import { Timers } from '../../src/util/timers.js';
import { startTestHub } from '../helpers/hub.js';

const YAML = `
hub:
  name: Test Home
virtual:
  - platform: camera
    id: front_door
    name: Front Door
    motion_interval: 3600
  - platform: light
    id: kitchen
    name: Kitchen
`;

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);

/** A logger that keeps warnings, to check that a failed image is logged with its cause. */
function capturingLogger(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log: Logger = {
    trace() {},
    debug() {},
    info() {},
    warn(obj: object | string, msg?: string) {
      warnings.push(`${typeof obj === 'string' ? obj : JSON.stringify(obj)} ${msg ?? ''}`);
    },
    error() {},
    fatal() {},
    child() {
      return log;
    },
  };
  return { log, warnings };
}

async function setup(t: Parameters<typeof startTestHub>[0]) {
  const { log, warnings } = capturingLogger();
  const h = await startTestHub(t, { yaml: YAML, log });
  const timers = new Timers(() => {});
  t.teardown(() => timers.stopAll());
  const platform = (image: CameraPlatform['image']): CameraPlatform => ({
    turnOn() {},
    turnOff() {},
    enableMotionDetection() {},
    disableMotionDetection() {},
    image,
  });
  const garden = addCamera(h.hub.core, {
    entityId: 'camera.garden',
    owner: 'test',
    timers,
    platform: platform(async () => ({ contentType: 'image/jpeg', body: JPEG })),
  });
  garden.report({ on: true });
  const broken = addCamera(h.hub.core, {
    entityId: 'camera.broken',
    owner: 'test',
    timers,
    platform: platform(async () => {
      throw new Error('RTSP connection refused');
    }),
  });
  broken.report({ on: true });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(h.url + path, { headers });
  const attr = (id: string, key: string) => h.hub.core.states.get(id)?.attributes[key] as string;
  return { ...h, garden, warnings, get, attr };
}

t.test('an unknown camera is 404, with or without credentials', async (t) => {
  const { get, token } = await setup(t);
  for (const path of ['/api/camera_proxy/camera.nope', '/api/camera_proxy/light.kitchen', '/api/camera_proxy/camera.nope?token=x']) {
    const res = await get(path);
    t.equal(res.status, 404, path);
    t.equal(await res.text(), '404: Not Found');
    t.equal((await get(path, { authorization: `Bearer ${token}` })).status, 404);
  }
});

t.test('no credentials is 403; a bad Authorization header is 401, whatever its scheme', async (t) => {
  const { get, token } = await setup(t);
  const path = '/api/camera_proxy/camera.front_door';
  const none = await get(path);
  t.equal(none.status, 403);
  t.equal(await none.text(), '403: Forbidden');
  t.equal((await get(`${path}?token=${'0'.repeat(64)}`)).status, 403, 'a token that is not the camera’s');
  t.equal((await get(`${path}?token=%E0%A4%A`)).status, 403, 'a token that does not even decode');
  for (const header of ['Bearer nope.nope', `bearer ${token}`, `Bearer  ${token}`, `Basic ${token}`, 'Bearer']) {
    const res = await get(path, { authorization: header });
    t.equal(res.status, 401, JSON.stringify(header));
    t.equal(await res.text(), '401: Unauthorized');
  }
});

t.test('a valid bearer token gets the PNG', async (t) => {
  const { get, token } = await setup(t);
  const res = await get('/api/camera_proxy/camera.front_door', { authorization: `Bearer ${token}` });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal(res.headers.get('cache-control'), 'no-store');
  t.equal(res.headers.get('x-content-type-options'), 'nosniff');
  const body = Buffer.from(await res.arrayBuffer());
  t.same(body.subarray(0, 8), PNG_SIGNATURE);
  t.equal(body.readUInt32BE(16), 320);
  t.equal(body.readUInt32BE(20), 240);
});

t.test('entity_picture works as it is, without any header; the token even beats a bad header', async (t) => {
  const { get, attr } = await setup(t);
  const picture = attr('camera.front_door', 'entity_picture');
  t.match(picture, /^\/api\/camera_proxy\/camera\.front_door\?token=[0-9a-f]{64}$/);
  const res = await get(picture);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal((await get(picture, { authorization: 'Bearer wrong.token' })).status, 200, 'as in Home Assistant: bearer OR token');
  t.equal((await get(`${picture}&width=160&height=120`)).status, 200, 'size hints are accepted');
});

t.test('after a rotation the previous token still works; two rotations later it does not', async (t) => {
  const { get, garden, attr } = await setup(t);
  const first = attr('camera.garden', 'access_token');
  const path = (token: string) => `/api/camera_proxy/camera.garden?token=${token}`;
  const ok = await get(path(first));
  t.equal(ok.status, 200);
  t.equal(ok.headers.get('content-type'), 'image/jpeg', "the camera's own content type");
  t.same(Buffer.from(await ok.arrayBuffer()), JPEG);
  garden.rotateToken();
  const second = attr('camera.garden', 'access_token');
  t.not(second, first);
  t.equal((await get(path(first))).status, 200);
  t.equal((await get(path(second))).status, 200);
  garden.rotateToken();
  t.equal((await get(path(first))).status, 403);
  t.equal((await get(path(second))).status, 200);
});

t.test('a camera that is off is 503; one whose image fails is 503 with a message, and the cause is logged', async (t) => {
  const { get, token, hub, warnings } = await setup(t);
  const auth = { authorization: `Bearer ${token}` };
  await hub.core.services.call('camera', 'turn_off', { entity_id: 'camera.front_door' });
  const off = await get('/api/camera_proxy/camera.front_door', auth);
  t.equal(off.status, 503);
  t.equal(await off.text(), '503: Service Unavailable');
  t.equal((await get('/api/camera_proxy/camera.front_door')).status, 403, 'auth is checked before on/off');

  const broken = await get('/api/camera_proxy/camera.broken', auth);
  t.equal(broken.status, 503);
  t.same(await broken.json(), { message: 'Unable to get an image from camera.broken' });
  t.match(warnings.join('\n'), /RTSP connection refused.*camera image failed/);
});

t.test('bad size hints are 400 naming the parameter; other methods are 405', async (t) => {
  const { get, token, url } = await setup(t);
  const auth = { authorization: `Bearer ${token}` };
  for (const q of ['width=abc', 'width=0', 'height=-5', 'height=99999', 'width=1.5']) {
    const res = await get(`/api/camera_proxy/camera.front_door?${q}`, auth);
    t.equal(res.status, 400, q);
    t.match(await res.json(), { message: /^(width|height) must be a whole number from 1 to 8192/ });
  }
  const post = await fetch(`${url}/api/camera_proxy/camera.front_door`, { method: 'POST', headers: auth });
  t.equal(post.status, 405);
  t.equal(post.headers.get('allow'), 'GET');
});
