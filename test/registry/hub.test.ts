import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { Hub } from '../../src/hub.js';
import { startTestHub, type TestHub } from '../helpers/hub.js';
import { memoryLogger, REGISTRY_HOME_YAML, recordAll, tempDir } from './helpers.js';

interface StateJson {
  readonly entity_id: string;
  readonly state: string;
  readonly attributes: Record<string, unknown>;
}

async function post(h: TestHub, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await h.api(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() };
}

/** Turns every light off, then on with `target`; the ids the call turned on, sorted. */
async function lightsTurnedOnBy(h: TestHub, target: Record<string, unknown>): Promise<string[]> {
  await post(h, '/api/services/light/turn_off', { entity_id: 'all' });
  const { status, body } = await post(h, '/api/services/light/turn_on', target);
  if (status !== 200) throw new Error(`turn_on answered ${status}: ${JSON.stringify(body)}`);
  return [...new Set((body as StateJson[]).filter((s) => s.state === 'on').map((s) => s.entity_id))].sort();
}

function deviceIdOf(hub: Hub, name: string): string {
  const device = [...hub.core.devices.all()].find((d) => d.name === name);
  if (device === undefined) throw new Error(`no device ${name}`);
  return device.id;
}

t.test('REST service calls expand area_id, device_id, floor_id and label_id as Home Assistant does', async (t) => {
  const h = await startTestHub(t, { yaml: REGISTRY_HOME_YAML });
  t.same(await lightsTurnedOnBy(h, { area_id: 'kitchen' }), ['light.kitchen_ceiling'], 'the counter has an area of its own');
  t.same(await lightsTurnedOnBy(h, { area_id: 'living_room' }), ['light.kitchen_counter', 'light.sofa']);
  t.same(await lightsTurnedOnBy(h, { device_id: deviceIdOf(h.hub, 'Kitchen Lights') }), ['light.kitchen_ceiling', 'light.kitchen_counter']);
  t.same(await lightsTurnedOnBy(h, { floor_id: 'ground_floor' }), ['light.kitchen_ceiling', 'light.kitchen_counter', 'light.sofa']);
  t.same(await lightsTurnedOnBy(h, { floor_id: ['upstairs'] }), ['light.bedside']);
  t.same(
    await lightsTurnedOnBy(h, { label_id: 'christmas' }),
    ['light.bedside', 'light.kitchen_counter', 'light.sofa'],
    'the label of an area and of an entity',
  );
  t.same(await lightsTurnedOnBy(h, { area_id: ['kitchen', 'bedroom'], entity_id: 'light.sofa' }), [
    'light.bedside',
    'light.kitchen_ceiling',
    'light.sofa',
  ]);
  t.same(await lightsTurnedOnBy(h, { area_id: 'garage' }), [], 'a missing area is not an error');
  const bad = await post(h, '/api/services/light/turn_on', { area_id: 42 });
  t.equal(bad.status, 400);

  // Only the service's own domain: the tree (a switch) is in the living room too.
  const sw = await post(h, '/api/services/switch/turn_on', { area_id: 'living_room' });
  t.same(
    (sw.body as StateJson[]).map((s) => s.entity_id),
    ['switch.tree'],
  );
  t.equal(h.hub.core.states.get('switch.tree')?.attributes.icon, 'mdi:pine-tree', 'customize sets the icon');
});

t.test('virtual items get devices: the one they name, else their own', async (t) => {
  const h = await startTestHub(t, { yaml: REGISTRY_HOME_YAML });
  const devices = h.hub.registries.devices.list();
  t.match(
    devices.find((d) => d.name === 'Kitchen Lights'),
    { manufacturer: 'IKEA', model: 'TRADFRI', area_id: 'kitchen', identifiers: [['virtual', 'device:kitchen_lights']] },
  );
  t.match(
    devices.find((d) => d.name === 'Sofa Lamp'),
    { manufacturer: 'hearth', model: 'Virtual light', area_id: null, identifiers: [['virtual', 'light.sofa']] },
  );
  t.equal(devices.length, 4, 'two kitchen lights share one device');
  const kitchenLights = deviceIdOf(h.hub, 'Kitchen Lights');
  t.match(h.hub.registries.entities.get('light.kitchen_counter'), {
    device_id: kitchenLights,
    area_id: 'living_room',
    platform: 'virtual',
  });
});

t.test('a disabled entity is absent from GET /api/states and services do not act on it', async (t) => {
  const h = await startTestHub(t, { yaml: REGISTRY_HOME_YAML });
  h.hub.registries.entities.update('light.sofa', { disabled_by: 'user' });
  const states = (await (await h.api('/api/states')).json()) as StateJson[];
  t.notOk(states.some((s) => s.entity_id === 'light.sofa'));
  t.equal((await h.api('/api/states/light.sofa')).status, 404);
  t.same(await lightsTurnedOnBy(h, { entity_id: 'light.sofa' }), []);
  t.same(await lightsTurnedOnBy(h, { area_id: 'living_room' }), ['light.kitchen_counter']);
  t.same(await lightsTurnedOnBy(h, { entity_id: 'all' }), ['light.bedside', 'light.kitchen_ceiling', 'light.kitchen_counter']);
  h.hub.registries.entities.update('light.sofa', { disabled_by: null });
  t.equal((await h.api('/api/states/light.sofa')).status, 200, 'enabled again at once');
  t.same(await lightsTurnedOnBy(h, { entity_id: 'light.sofa' }), ['light.sofa']);
});

t.test('renaming an entity id moves its state and fires the events', async (t) => {
  const h = await startTestHub(t, { yaml: REGISTRY_HOME_YAML });
  await post(h, '/api/services/light/turn_on', { entity_id: 'light.bedside', brightness: 100 });
  const events = recordAll(h.hub.core, ['entity_registry_updated', 'state_changed']);
  const result = h.hub.registries.entities.update('light.bedside', { new_entity_id: 'light.bed_lamp' });
  t.match(result, { entity_entry: { entity_id: 'light.bed_lamp', unique_id: 'light.bedside', area_id: 'bedroom' } });
  t.same(events[0], {
    type: 'entity_registry_updated',
    data: { action: 'update', entity_id: 'light.bed_lamp', changes: { entity_id: 'light.bedside' }, old_entity_id: 'light.bedside' },
  });
  t.match(events.slice(1), [
    { type: 'state_changed', data: { entity_id: 'light.bedside', new_state: null } },
    {
      type: 'state_changed',
      data: { entity_id: 'light.bed_lamp', old_state: null, new_state: { state: 'on', attributes: { brightness: 100 } } },
    },
  ]);
  t.equal((await h.api('/api/states/light.bedside')).status, 404);
  const moved = (await (await h.api('/api/states/light.bed_lamp')).json()) as StateJson;
  t.match(moved, { state: 'on', attributes: { friendly_name: 'Bedside', brightness: 100 } });
  t.same(await lightsTurnedOnBy(h, { area_id: 'bedroom' }), ['light.bed_lamp'], 'targets follow the new id');
});

t.test('areas, names and renames survive a restart', async (t) => {
  const dataDir = await tempDir(t);
  const first = await startTestHub(t, { yaml: REGISTRY_HOME_YAML, dataDir });
  const reg = first.hub.registries;
  const garage = reg.areas.create({ name: 'Garage', icon: 'mdi:garage' });
  reg.areas.update('kitchen', { icon: 'mdi:stove' });
  reg.labels.create({ name: 'Outdoor', color: '#00ff00' });
  reg.entities.update('light.sofa', { name: 'Reading Lamp', labels: ['outdoor'] });
  reg.entities.update('light.kitchen_ceiling', { new_entity_id: 'light.kitchen_main', area_id: 'garage' });
  reg.entities.update('light.bedside', { hidden_by: 'user' });
  reg.devices.update(deviceIdOf(first.hub, 'Tree'), { area_id: 'garage', name_by_user: 'Xmas tree' });
  await first.hub.stop();

  const second = await startTestHub(t, { yaml: REGISTRY_HOME_YAML, dataDir });
  const again = second.hub.registries;
  t.same(again.areas.get('garage'), garage, 'created_at and everything else kept');
  t.equal(again.areas.get('kitchen')?.icon, 'mdi:stove');
  t.match(again.labels.get('outdoor'), { color: '#00ff00' });
  const sofa = (await (await second.api('/api/states/light.sofa')).json()) as StateJson;
  t.equal(sofa.attributes.friendly_name, 'Reading Lamp');
  t.equal((await second.api('/api/states/light.kitchen_ceiling')).status, 404);
  t.equal(
    (await second.api('/api/states/light.kitchen_main')).status,
    200,
    'the driver asked for light.kitchen_ceiling; it lives as light.kitchen_main',
  );
  t.match(again.entities.get('light.kitchen_main'), { area_id: 'garage', unique_id: 'light.kitchen_ceiling' });
  t.match(again.entities.get('light.bedside'), { hidden_by: 'user' });
  t.match(again.devices.get(deviceIdOf(second.hub, 'Tree')), { area_id: 'garage', name_by_user: 'Xmas tree' });
  t.same(await lightsTurnedOnBy(second, { area_id: 'garage' }), ['light.kitchen_main']);
  t.same(await lightsTurnedOnBy(second, { label_id: 'outdoor' }), ['light.sofa']);
});

t.test('a corrupt registry file is moved aside and logged; the hub starts', async (t) => {
  const dataDir = await tempDir(t);
  await mkdir(join(dataDir, 'registry'), { recursive: true });
  await writeFile(join(dataDir, 'registry', 'entities.json'), '\u0000\u0001 not json');
  const log = memoryLogger();
  const h = await startTestHub(t, { yaml: REGISTRY_HOME_YAML, dataDir, log });
  t.equal((await h.api('/api/states/light.sofa')).status, 200);
  t.ok(h.hub.registries.entities.list().some((e) => e.entity_id === 'light.sofa'));
  t.ok(log.entries.some((e) => e.level === 'error' && /registry file was corrupt/.test(e.msg)));
  t.ok((await readdir(join(dataDir, 'registry'))).some((f) => /^entities\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
});
