import { mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { paintScene, type SceneInput } from '../../drivers/virtual/camera-scene.js';
import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import type { VirtualContext } from '../../drivers/virtual/types.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { addCamera, type CameraModel, cameraDomain, findCamera } from '../../src/domains/camera.js';
import { PNG_SIGNATURE } from '../../src/util/png.js';
import { Timers } from '../../src/util/timers.js';
import { waitForState } from '../helpers/wait.js';

interface Teardown {
  teardown(fn: () => unknown): void;
}

const ID = 'camera.front_door';

async function tempDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-camera-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

function setup(t: Teardown, item: JsonObject = {}, dataDir?: string) {
  const core = new Core({ log: silentLogger });
  cameraDomain.registerServices(core);
  const timers = new Timers((err) => {
    throw err;
  });
  t.teardown(() => timers.stopAll());
  const issues: ConfigIssue[] = [];
  // Visitors are rare by default, so tests that do not ask for motion see none.
  const [parsed] = parseVirtualSection([{ platform: 'camera', name: 'Front Door', motion_interval: 3600, ...item }], ['virtual'], issues);
  if (parsed === undefined || issues.length > 0) throw new Error(`bad test config: ${JSON.stringify(issues)}`);
  const base: VirtualContext = { core, log: silentLogger, owner: 'virtual', timers, random: seededRandom(5) };
  // A driver context that carries the hub's data folder gives the camera its default snapshot folder.
  const ctx: VirtualContext = dataDir === undefined ? base : { ...base, ...{ dataDir } };
  parsed.platform.create(ctx, { entityId: parsed.entityId, name: parsed.name }, parsed.options);
  const state = () => core.states.get(ID) as State;
  const camera = () => {
    const c = findCamera(core, ID);
    if (c === undefined) throw new Error('no camera');
    return c;
  };
  return {
    core,
    state,
    camera,
    timers,
    call: (service: string, data: Record<string, JsonValue> = {}) => core.services.call('camera', service, { entity_id: ID, ...data }),
    waitFor: (pred: (s: State) => boolean, ms?: number) => waitForState(core, ID, pred, ms),
  };
}

function parseIssues(item: JsonObject): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection([{ platform: 'camera', name: 'Front Door', ...item }], ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

t.test('a camera shows its access token, model, brand, motion detection and a proxy picture URL', async (t) => {
  const { state, camera } = setup(t);
  t.equal(state().state, 'idle');
  const a = state().attributes;
  t.match(a.access_token, /^[0-9a-f]{64}$/);
  t.same(a, {
    friendly_name: 'Front Door',
    supported_features: 1,
    access_token: a.access_token,
    model_name: 'Virtual Camera',
    brand: 'hearth',
    motion_detection: true,
    entity_picture: `/api/camera_proxy/camera.front_door?token=${a.access_token}`,
  });
  t.ok(camera().hasToken(a.access_token as string));
  t.notOk(camera().hasToken('0'.repeat(64)));
  t.ok(camera().isOn);
});

t.test('motion detection can be switched; the attribute is there only while on', async (t) => {
  const { state, call } = setup(t, { model: 'Doorbell Pro', brand: 'Acme' });
  t.match(state().attributes, { model_name: 'Doorbell Pro', brand: 'Acme' });
  await call('disable_motion_detection');
  t.notOk('motion_detection' in state().attributes);
  await call('enable_motion_detection');
  t.equal(state().attributes.motion_detection, true);
});

t.test('an off camera stays idle (as in Home Assistant) and gives no image', async (t) => {
  const { state, call, camera } = setup(t);
  await call('turn_off');
  t.equal(state().state, 'idle');
  t.notOk(camera().isOn);
  await t.rejects(camera().platform.image(), { message: 'the camera is off' });
  await call('turn_on');
  t.ok(camera().isOn);
});

t.test('the image is a PNG of the configured size, encoded at most once a second', async (t) => {
  const { camera } = setup(t, { width: 160, height: 120 });
  const first = await camera().platform.image();
  t.equal(first.contentType, 'image/png');
  t.same(first.body.subarray(0, 8), PNG_SIGNATURE);
  t.equal(first.body.readUInt32BE(16), 160);
  t.equal(first.body.readUInt32BE(20), 120);
  const again = await camera().platform.image();
  t.equal(again.body, first.body, 'the same encoded frame within the second');
});

t.test('the scene changes with the time of day and over the seconds', async (t) => {
  const w = 160;
  const h = 120;
  const base: SceneInput = { hour: 12, seconds: 1000, clock: '12:00:00', label: 'Front Door', recording: false };
  const frame = (s: Partial<SceneInput>) => Buffer.from(paintScene(w, h, new Uint8Array(w * h * 3), { ...base, ...s }).pixels);
  // Top row, clear of clouds, sun, moon and the on-screen text.
  const skyPixel = (b: Buffer) => [...b.subarray((1 * w + 100) * 3, (1 * w + 100) * 3 + 3)];
  const noon = frame({});
  const midnight = frame({ hour: 0 });
  const dusk = frame({ hour: 19 });
  const [nr, ng, nb] = skyPixel(noon) as [number, number, number];
  const [mr, mg, mb] = skyPixel(midnight) as [number, number, number];
  t.ok(nb > 150 && nr < nb, `a blue sky at noon (${nr},${ng},${nb})`);
  t.ok(mr + mg + mb < 150, `a dark sky at midnight (${mr},${mg},${mb})`);
  t.notSame(skyPixel(dusk), skyPixel(noon), 'another colour at dusk');
  t.notOk(frame({ seconds: 1001 }).equals(noon), 'clouds move from one second to the next');
  t.notOk(frame({ seconds: 1020 + 3 }).equals(frame({ seconds: 1020 + 4 })), 'a car crosses at the start of each half minute');
  t.notOk(frame({ visitor: 0.5 }).equals(noon), 'a visitor shows');
  t.notOk(frame({ clock: '12:00:01' }).equals(noon), 'the clock ticks');
  t.notOk(frame({ recording: true }).equals(noon), 'REC shows while recording');
});

t.test('a visitor makes a camera with motion detection record, then go back to idle', async (t) => {
  const { waitFor, call } = setup(t, { motion_interval: 0.05, recording_time: 0.05 });
  const recording = await waitFor((s) => s.state === 'recording');
  t.equal(recording.attributes.motion_detection, true);
  await waitFor((s) => s.state === 'idle');
  await call('disable_motion_detection');
  t.pass('recording ends with the visit');
});

t.test('the access token rotates; the current and the previous one stay valid', async (t) => {
  const core = new Core({ log: silentLogger });
  cameraDomain.registerServices(core);
  const timers = new Timers(() => {});
  t.teardown(() => timers.stopAll());
  const model: CameraModel = { on: true };
  const handle = addCamera(core, {
    entityId: 'camera.garden',
    owner: 'test',
    timers,
    platform: {
      turnOn() {},
      turnOff() {},
      enableMotionDetection() {},
      disableMotionDetection() {},
      image: async () => ({ contentType: 'image/jpeg', body: Buffer.from([0xff, 0xd8, 0xff]) }),
    },
  });
  handle.report(model);
  const first = core.states.get('camera.garden')?.attributes.access_token as string;
  handle.rotateToken();
  const second = core.states.get('camera.garden')?.attributes.access_token as string;
  t.not(second, first);
  t.equal(core.states.get('camera.garden')?.attributes.entity_picture, `/api/camera_proxy/camera.garden?token=${second}`);
  const access = findCamera(core, 'camera.garden');
  t.ok(access?.hasToken(first) && access.hasToken(second), 'the last two are valid');
  handle.rotateToken();
  t.notOk(access?.hasToken(first), 'the oldest is dropped');
  t.same(handle.accessTokens.length, 2);
  t.equal(findCamera(core, 'camera.nope'), undefined);
});

t.test('snapshot writes the image inside the snapshot folder only', async (t) => {
  const dir = await tempDir(t);
  const { call, core } = setup(t, { snapshot_dir: dir });
  await call('snapshot', { filename: 'door_{{ entity_id.object_id }}.png' });
  const written = await readFile(join(dir, 'door_front_door.png'));
  t.same(written.subarray(0, 8), PNG_SIGNATURE);
  await call('snapshot', { filename: `${dir}/daily/{{entity_id.entity_id}} {{ entity_id.name }}.png` });
  t.ok(
    (await stat(join(dir, 'daily', 'camera.front_door Front Door.png'))).isFile(),
    'absolute paths inside the folder, and subfolders, are fine',
  );

  const refused = (file: string) =>
    `Cannot write \`${file}\`, no access to path; \`allowlist_external_dirs\` may need to be adjusted in \`configuration.yaml\``;
  await t.rejects(call('snapshot', { filename: '../escape.png' }), { kind: 'hub_error', message: refused('../escape.png') });
  await t.rejects(call('snapshot', { filename: '/etc/hearth.png' }), { message: refused('/etc/hearth.png') });
  await t.rejects(call('snapshot', { filename: '.' }), { message: refused('.') });
  const outside = await tempDir(t);
  await symlink(outside, join(dir, 'link'));
  await t.rejects(call('snapshot', { filename: 'link/x.png' }), { message: refused('link/x.png') }, 'no way out through a symlink');
  await t.rejects(call('snapshot', { filename: 'link/sub/x.png' }), { message: refused('link/sub/x.png') });
  t.same(await readdir(outside), [], 'not even a folder is made outside');
  await symlink(join(outside, 'file.png'), join(dir, 'file.png'));
  await t.rejects(call('snapshot', { filename: 'file.png' }), { message: refused('file.png') }, 'nor through a symlinked file');
  await t.rejects(call('snapshot', { filename: '{{ now() }}.png' }), {
    kind: 'service_validation',
    message: 'Template in filename is not supported: use {{ entity_id.entity_id }}, {{ entity_id.object_id }} or {{ entity_id.name }}',
  });
  await t.rejects(call('snapshot'), { kind: 'invalid_service_data', message: "required key not provided @ data['filename']" });
  await t.rejects(call('snapshot', { filename: 'x'.repeat(1025) }), {
    kind: 'invalid_service_data',
    message: "length of value must be at most 1024 for dictionary value @ data['filename']",
  });

  await core.services.call('camera', 'turn_off', { entity_id: ID });
  await t.rejects(call('snapshot', { filename: 'off.png' }), { kind: 'hub_error', message: `Unable to get image from ${ID}` });
});

t.test("snapshots default to snapshots/ in the hub's data folder when the driver knows it", async (t) => {
  const dataDir = await tempDir(t);
  const { call } = setup(t, {}, dataDir);
  await call('snapshot', { filename: 'latest.png' });
  t.same((await readFile(join(dataDir, 'snapshots', 'latest.png'))).subarray(0, 8), PNG_SIGNATURE);
  await t.rejects(
    call('snapshot', { filename: join(dataDir, 'auth.json') }),
    { message: 'no access to path' },
    'not the rest of the data folder',
  );
});

t.test('without a snapshot folder every snapshot is refused with the allowlist message', async (t) => {
  const { call } = setup(t);
  await t.rejects(call('snapshot', { filename: 'x.png' }), { kind: 'hub_error', message: 'Cannot write `x.png`, no access to path' });
});

t.test('scenes: reproduceState switches motion detection', async (t) => {
  const { core, state } = setup(t);
  await cameraDomain.reproduceState?.(core, ID, { state: 'idle', attributes: {} }, core.newContext());
  t.notOk('motion_detection' in state().attributes);
  await cameraDomain.reproduceState?.(core, ID, { state: 'idle', attributes: { motion_detection: true } }, core.newContext());
  t.equal(state().attributes.motion_detection, true);
});

t.test('YAML options are validated with the allowed values in the message', async (t) => {
  t.same(parseIssues({}), []);
  t.same(parseIssues({ width: 10 }), ['virtual.0.width: 10 is not allowed: expected an integer from 64 to 1920']);
  t.same(parseIssues({ motion_detection: 'maybe' }), ['virtual.0.motion_detection: "maybe" is not allowed: expected true or false']);
  t.same(parseIssues({ recording_time: 0 }), ['virtual.0.recording_time: 0 is not allowed: expected a number from 0.05 to 600']);
});
