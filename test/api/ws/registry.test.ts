import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import WebSocket from 'ws';
import type { Hub } from '../../../src/hub.js';
import { writeGuestAuth } from '../../helpers/guest.js';
import { startTestHub, type Teardown, type TestHub } from '../../helpers/hub.js';
import { WsClient, type WsMessage, withDeadline } from './client.js';

const YAML = `
hub:
  name: Test Home
  latitude: 52.37
  longitude: 4.89
  elevation: 3
  time_zone: Europe/Amsterdam
floors:
  - name: Ground Floor
    level: 0
  - name: Upstairs
    level: 1
labels:
  - name: Christmas
    color: red
areas:
  - name: Kitchen
    floor: ground_floor
  - name: Living Room
    floor: Ground Floor
    labels: [christmas]
  - name: Bedroom
    floor: upstairs
virtual:
  - platform: light
    id: kitchen_ceiling
    name: Kitchen Ceiling
    device: {name: Kitchen Lights, manufacturer: IKEA, model: TRADFRI, area: kitchen}
  - platform: light
    id: kitchen_counter
    name: Kitchen Counter
    device: {name: Kitchen Lights}
  - platform: light
    id: sofa
    name: Sofa Lamp
  - platform: light
    id: bedside
    name: Bedside
  - platform: switch
    id: tree
    name: Tree
customize:
  light.kitchen_counter: {area: living_room}
  light.sofa: {area: living_room}
  light.bedside: {area: Bedroom, labels: [Christmas]}
  switch.tree: {area: living_room, icon: "mdi:pine-tree"}
`;

async function setup(t: Teardown, yaml = YAML): Promise<{ th: TestHub; client: WsClient }> {
  const th = await startTestHub(t, { yaml });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { th, client };
}

function result<T = unknown>(m: WsMessage): T {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result as T;
}

function error(m: WsMessage): { code: string; message: string } {
  if (m.success !== false) throw new Error(`command succeeded: ${JSON.stringify(m)}`);
  return m.error as { code: string; message: string };
}

function deviceIdOf(hub: Hub, name: string): string {
  const device = [...hub.core.devices.all()].find((d) => d.name === name);
  if (device === undefined) throw new Error(`no device ${name}`);
  return device.id;
}

type Entry = Record<string, unknown>;

t.test('the five list commands answer with the registries in Home Assistant shape', async (t) => {
  const { th, client } = await setup(t);
  const reg = th.hub.registries;

  const entities = result<Entry[]>(await client.command('config/entity_registry/list'));
  t.same(entities, reg.entities.list());
  const bedside = entities.find((e) => e.entity_id === 'light.bedside');
  t.same(Object.keys(bedside ?? {}).sort(), [
    'area_id',
    'categories',
    'config_entry_id',
    'created_at',
    'device_id',
    'disabled_by',
    'entity_category',
    'entity_id',
    'has_entity_name',
    'hidden_by',
    'icon',
    'id',
    'labels',
    'modified_at',
    'name',
    'options',
    'original_name',
    'platform',
    'translation_key',
    'unique_id',
  ]);
  t.match(bedside, { area_id: 'bedroom', labels: ['christmas'], platform: 'virtual', original_name: 'Bedside' });

  const devices = result<Entry[]>(await client.command('config/device_registry/list'));
  t.same(devices, reg.devices.list());
  t.match(
    devices.find((d) => d.name === 'Kitchen Lights'),
    { area_id: 'kitchen', manufacturer: 'IKEA', model: 'TRADFRI', name_by_user: null, labels: [], disabled_by: null },
  );

  const areas = result<Entry[]>(await client.command('config/area_registry/list'));
  t.same(
    areas.map((a) => [a.area_id, a.name, a.floor_id, a.labels]),
    [
      ['kitchen', 'Kitchen', 'ground_floor', []],
      ['living_room', 'Living Room', 'ground_floor', ['christmas']],
      ['bedroom', 'Bedroom', 'upstairs', []],
    ],
  );
  t.same(Object.keys(areas[0] ?? {}).sort(), [
    'aliases',
    'area_id',
    'created_at',
    'floor_id',
    'humidity_entity_id',
    'icon',
    'labels',
    'modified_at',
    'name',
    'picture',
    'temperature_entity_id',
  ]);

  const floors = result<Entry[]>(await client.command('config/floor_registry/list'));
  t.match(floors, [
    { floor_id: 'ground_floor', name: 'Ground Floor', level: 0, icon: null, aliases: [] },
    { floor_id: 'upstairs', name: 'Upstairs', level: 1 },
  ]);
  const labels = result<Entry[]>(await client.command('config/label_registry/list'));
  t.match(labels, [{ label_id: 'christmas', name: 'Christmas', color: 'red', icon: null, description: null }]);

  const extra = await client.command('config/area_registry/list', { verbose: true });
  t.same(error(extra), {
    code: 'invalid_format',
    message: "extra keys not allowed @ data['verbose']. Got true. This command takes only id and type.",
  });
});

t.test('config/entity_registry/get and get_entries', async (t) => {
  const { client } = await setup(t);
  const entry = result<Entry>(await client.command('config/entity_registry/get', { entity_id: 'switch.tree' }));
  t.match(entry, {
    entity_id: 'switch.tree',
    icon: 'mdi:pine-tree',
    area_id: 'living_room',
    aliases: [],
    capabilities: null,
    device_class: null,
    original_icon: null,
  });
  t.ok('original_device_class' in entry);

  t.same(error(await client.command('config/entity_registry/get', { entity_id: 'switch.nope' })), {
    code: 'not_found',
    message: 'Entity not found',
  });
  t.same(error(await client.command('config/entity_registry/get', { entity_id: 'not an id' })), {
    code: 'invalid_format',
    message: "Entity ID not an id is an invalid entity ID for dictionary value @ data['entity_id']",
  });
  t.same(error(await client.command('config/entity_registry/get')), {
    code: 'invalid_format',
    message: "required key not provided @ data['entity_id']. Got None",
  });

  const many = result<Record<string, Entry | null>>(
    await client.command('config/entity_registry/get_entries', { entity_ids: ['light.sofa', 'light.ghost'] }),
  );
  t.match(many, { 'light.sofa': { entity_id: 'light.sofa', area_id: 'living_room' }, 'light.ghost': null });
});

t.test('config/entity_registry/list_for_display: short keys, categories, disabled left out', async (t) => {
  const { th, client } = await setup(t);
  th.hub.registries.entities.update('light.sofa', { disabled_by: 'user' });
  th.hub.registries.entities.update('light.kitchen_ceiling', { entity_category: 'config', hidden_by: 'user', name: 'Ceiling' });
  const display = result<{ entity_categories: Record<string, string>; entities: Entry[] }>(
    await client.command('config/entity_registry/list_for_display'),
  );
  t.same(display.entity_categories, { 0: 'config', 1: 'diagnostic' });
  const byId = new Map(display.entities.map((e) => [e.ei, e]));
  t.notOk(byId.has('light.sofa'), 'disabled entities are left out');
  t.same(byId.get('light.kitchen_ceiling'), {
    ei: 'light.kitchen_ceiling',
    pl: 'virtual',
    lb: [],
    di: deviceIdOf(th.hub, 'Kitchen Lights'),
    ec: 0,
    hb: true,
    en: 'Ceiling',
  });
  t.same(byId.get('switch.tree'), {
    ei: 'switch.tree',
    pl: 'virtual',
    ai: 'living_room',
    lb: [],
    di: deviceIdOf(th.hub, 'Tree'),
    ic: 'mdi:pine-tree',
    en: 'Tree',
  });
});

t.test('config/entity_registry/update changes the entry and the state, and fires the event', async (t) => {
  const { th, client } = await setup(t);
  await client.command('subscribe_events', { event_type: 'entity_registry_updated' });
  result(await client.command('config/label_registry/create', { name: 'Outdoor' }));

  const reply = result<{ entity_entry: Entry }>(
    await client.command('config/entity_registry/update', {
      entity_id: 'light.kitchen_ceiling',
      name: 'Reading Lamp',
      icon: 'mdi:lamp',
      area_id: 'bedroom',
      labels: ['outdoor'],
      aliases: ['reader'],
      hidden_by: 'user',
      entity_category: 'diagnostic',
    }),
  );
  t.same(Object.keys(reply), ['entity_entry'], 'no require_restart: hearth applies changes at once');
  t.match(reply.entity_entry, {
    entity_id: 'light.kitchen_ceiling',
    name: 'Reading Lamp',
    icon: 'mdi:lamp',
    area_id: 'bedroom',
    labels: ['outdoor'],
    aliases: ['reader'],
    hidden_by: 'user',
    entity_category: 'diagnostic',
  });
  t.same(reply.entity_entry, th.hub.registries.entities.get('light.kitchen_ceiling'));
  t.match(th.hub.core.states.get('light.kitchen_ceiling')?.attributes, { friendly_name: 'Reading Lamp', icon: 'mdi:lamp' });
  const event = await client.waitFor((m) => m.type === 'event' && m.id === 1);
  t.match((event.event as { data: unknown }).data, {
    action: 'update',
    entity_id: 'light.kitchen_ceiling',
    changes: { name: null, icon: null, area_id: null, labels: [], aliases: [], hidden_by: null, entity_category: null },
  });

  const renamed = result<{ entity_entry: Entry }>(
    await client.command('config/entity_registry/update', {
      entity_id: 'light.kitchen_ceiling',
      new_entity_id: 'light.reading',
      name: null,
    }),
  );
  t.match(renamed.entity_entry, { entity_id: 'light.reading', name: null, unique_id: 'light.kitchen_ceiling' });
  t.equal(th.hub.core.states.get('light.kitchen_ceiling'), undefined);
  t.equal(th.hub.core.states.get('light.reading')?.attributes.friendly_name, 'Kitchen Ceiling');

  result(await client.command('config/entity_registry/update', { entity_id: 'light.reading', disabled_by: 'user' }));
  t.equal(th.hub.core.states.get('light.reading'), undefined, 'disabling removes the state');
  result(await client.command('config/entity_registry/update', { entity_id: 'light.reading', disabled_by: null }));
  t.ok(th.hub.core.states.get('light.reading'), 'enabling writes it again at once');
});

t.test('config/entity_registry/update refuses bad fields, naming them, and YAML-locked ones', async (t) => {
  const { client } = await setup(t);
  const update = async (fields: Record<string, unknown>) =>
    error(await client.command('config/entity_registry/update', { entity_id: 'light.sofa', ...fields }));

  t.same(await update({ disabled_by: 'integration' }), {
    code: 'invalid_format',
    message: "expected one of 'user' or None for dictionary value @ data['disabled_by']. Got 'integration'",
  });
  t.same(await update({ entity_category: 'system' }), {
    code: 'invalid_format',
    message: "expected one of 'config', 'diagnostic' or None for dictionary value @ data['entity_category']. Got 'system'",
  });
  t.same(await update({ name: 5 }), {
    code: 'invalid_format',
    message: "expected str or None for dictionary value @ data['name']. Got 5",
  });
  t.same(await update({ labels: ['christmas', 3] }), { code: 'invalid_format', message: "expected str @ data['labels'][1]. Got 3" });
  t.same(await update({ labels: 'christmas' }), {
    code: 'invalid_format',
    message: "expected list for dictionary value @ data['labels']. Got 'christmas'",
  });
  t.match(await update({ area_id: 'garage' }), { code: 'invalid_format', message: /no area with id 'garage' exists.*data\['area_id'\]/ });
  t.match(await update({ labels: ['nope'] }), { code: 'invalid_format', message: /no label with id 'nope' exists.*data\['labels'\]/ });
  t.match(await update({ icon: 'sofa' }), { code: 'invalid_format', message: /prefix:name.*data\['icon'\]/ });
  t.match(await update({ new_entity_id: 'switch.sofa' }), { code: 'invalid_format', message: /domain change/ });
  t.match(await update({ new_entity_id: 'light.bedside' }), {
    code: 'invalid_format',
    message: 'Entity with this ID is already registered',
  });
  t.match(await update({ original_name: 'Sofa' }), {
    code: 'invalid_format',
    message: /extra keys not allowed @ data\['original_name'\].*Allowed keys: entity_id, new_entity_id, name, icon, area_id/,
  });

  // customize: sets the bedside's area and labels; those belong to the configuration file.
  const locked = error(await client.command('config/entity_registry/update', { entity_id: 'light.bedside', area_id: 'kitchen' }));
  t.match(locked, { code: 'not_allowed', message: /area_id of light.bedside is set in the configuration file \(customize:\)/ });
  result(await client.command('config/entity_registry/update', { entity_id: 'light.bedside', name: 'Night Light' }));

  t.same(error(await client.command('config/entity_registry/update', { entity_id: 'light.ghost', name: 'x' })), {
    code: 'not_found',
    message: 'Entity not found',
  });
});

t.test('config/entity_registry/remove: only entries whose entity is gone', async (t) => {
  const { th, client } = await setup(t);
  t.match(error(await client.command('config/entity_registry/remove', { entity_id: 'light.sofa' })), {
    code: 'not_allowed',
    message: /light.sofa is provided by virtual/,
  });
  t.same(error(await client.command('config/entity_registry/remove', { entity_id: 'light.ghost' })), {
    code: 'not_found',
    message: 'Entity not found',
  });
  // The entry outlives its entity once the user changed it.
  result(await client.command('config/entity_registry/update', { entity_id: 'light.sofa', name: 'Old Lamp' }));
  th.hub.core.entities.remove('light.sofa');
  t.ok(th.hub.registries.entities.entry('light.sofa'));
  t.match(await client.command('config/entity_registry/remove', { entity_id: 'light.sofa' }), {
    type: 'result',
    success: true,
    result: null,
  });
  t.equal(th.hub.registries.entities.entry('light.sofa'), undefined);
});

t.test('config/device_registry/update sets name_by_user, area, labels and disabled_by', async (t) => {
  const { th, client } = await setup(t);
  const id = deviceIdOf(th.hub, 'Kitchen Lights');
  const updated = result<Entry>(
    await client.command('config/device_registry/update', {
      device_id: id,
      name_by_user: 'Counter and Ceiling',
      area_id: 'living_room',
      labels: ['christmas'],
    }),
  );
  t.match(updated, { id, name: 'Kitchen Lights', name_by_user: 'Counter and Ceiling', area_id: 'living_room', labels: ['christmas'] });
  t.same(updated, th.hub.registries.devices.get(id));

  result(await client.command('config/device_registry/update', { device_id: id, disabled_by: 'user' }));
  t.equal(th.hub.core.states.get('light.kitchen_ceiling'), undefined, "a disabled device's entities are disabled");
  t.match(th.hub.registries.entities.get('light.kitchen_ceiling'), { disabled_by: 'device' });
  t.same(error(await client.command('config/entity_registry/update', { entity_id: 'light.kitchen_ceiling', disabled_by: null })), {
    code: 'invalid_format',
    message: 'Device is disabled',
  });
  result(await client.command('config/device_registry/update', { device_id: id, disabled_by: null }));
  t.ok(th.hub.core.states.get('light.kitchen_ceiling'));

  t.same(error(await client.command('config/device_registry/update', { device_id: 'nope', name_by_user: 'x' })), {
    code: 'not_found',
    message: 'Device not found',
  });
  t.match(error(await client.command('config/device_registry/update', { device_id: id, area_id: 'garage' })), {
    code: 'invalid_format',
    message: /data\['area_id'\]/,
  });
  t.same(error(await client.command('config/device_registry/update', { device_id: id, disabled_by: 'integration' })), {
    code: 'invalid_format',
    message: "expected one of 'user' or None for dictionary value @ data['disabled_by']. Got 'integration'",
  });
});

t.test('areas: create, update, delete; names unique; configuration-file areas locked', async (t) => {
  const { th, client } = await setup(t);
  await client.command('subscribe_events', { event_type: 'area_registry_updated' });
  const garage = result<Entry>(
    await client.command('config/area_registry/create', {
      name: 'Garage',
      icon: 'mdi:garage',
      floor_id: 'ground_floor',
      aliases: ['shed'],
    }),
  );
  t.match(garage, { area_id: 'garage', name: 'Garage', icon: 'mdi:garage', floor_id: 'ground_floor', aliases: ['shed'], labels: [] });
  t.match((await client.waitFor((m) => m.type === 'event')).event, {
    event_type: 'area_registry_updated',
    data: { action: 'create', area_id: 'garage' },
  });

  const updated = result<Entry>(
    await client.command('config/area_registry/update', { area_id: 'garage', name: 'Car Port', labels: ['christmas'] }),
  );
  t.match(updated, { area_id: 'garage', name: 'Car Port', labels: ['christmas'] });

  t.same(error(await client.command('config/area_registry/create', { name: ' kitchen ' })), {
    code: 'invalid_format',
    message: 'The name kitchen (kitchen) is already in use',
  });
  t.match(error(await client.command('config/area_registry/create', { name: 'Attic', floor_id: 'roof' })), {
    code: 'invalid_format',
    message: /no floor with id 'roof' exists.*data\['floor_id'\]/,
  });
  t.same(error(await client.command('config/area_registry/create', {})), {
    code: 'invalid_format',
    message: "required key not provided @ data['name']. Got None",
  });
  t.match(error(await client.command('config/area_registry/update', { area_id: 'kitchen', floor_id: 'upstairs' })), {
    code: 'not_allowed',
    message: /floor_id of area kitchen is set in the configuration file \(areas:\)/,
  });
  result(await client.command('config/area_registry/update', { area_id: 'kitchen', icon: 'mdi:stove' }));
  t.match(error(await client.command('config/area_registry/delete', { area_id: 'kitchen' })), { code: 'not_allowed' });
  t.same(error(await client.command('config/area_registry/update', { area_id: 'nope', name: 'x' })), {
    code: 'not_found',
    message: "Area ID doesn't exist",
  });

  result(await client.command('config/entity_registry/update', { entity_id: 'light.kitchen_ceiling', area_id: 'garage' }));
  const deleted = await client.command('config/area_registry/delete', { area_id: 'garage' });
  t.equal(result(deleted), 'success', 'Home Assistant answers an area deletion with "success"');
  t.equal(th.hub.registries.entities.get('light.kitchen_ceiling').area_id, null, "the entity's area is cleared");
  t.same(error(await client.command('config/area_registry/delete', { area_id: 'garage' })), {
    code: 'not_found',
    message: "Area ID doesn't exist",
  });
});

t.test('floors and labels: create, update, delete', async (t) => {
  const { th, client } = await setup(t);
  const attic = result<Entry>(await client.command('config/floor_registry/create', { name: 'Attic', level: 2, icon: 'mdi:home-roof' }));
  t.match(attic, { floor_id: 'attic', name: 'Attic', level: 2, icon: 'mdi:home-roof', aliases: [] });
  t.match(result(await client.command('config/floor_registry/update', { floor_id: 'attic', level: null })), { level: null });
  t.same(error(await client.command('config/floor_registry/update', { floor_id: 'attic', level: 1.5 })), {
    code: 'invalid_format',
    message: "expected int or None for dictionary value @ data['level']. Got 1.5",
  });
  t.match(error(await client.command('config/floor_registry/update', { floor_id: 'attic', level: 5000 })), {
    code: 'invalid_format',
    message: /data\['level'\]/,
  });
  t.match(error(await client.command('config/floor_registry/delete', { floor_id: 'upstairs' })), { code: 'not_allowed' });
  t.same(await client.command('config/floor_registry/delete', { floor_id: 'attic' }), {
    id: 6,
    type: 'result',
    success: true,
    result: null,
  });
  t.same(error(await client.command('config/floor_registry/delete', { floor_id: 'attic' })), {
    code: 'not_found',
    message: "Floor ID doesn't exist",
  });

  const outdoor = result<Entry>(
    await client.command('config/label_registry/create', { name: 'Outdoor', color: '#00ff00', description: 'Outside the house' }),
  );
  t.match(outdoor, { label_id: 'outdoor', color: '#00ff00', description: 'Outside the house', icon: null });
  t.match(error(await client.command('config/label_registry/update', { label_id: 'outdoor', color: 'not a colour!' })), {
    code: 'invalid_format',
    message: /data\['color'\]/,
  });
  t.match(result(await client.command('config/label_registry/update', { label_id: 'outdoor', name: 'Garden' })), {
    label_id: 'outdoor',
    name: 'Garden',
  });
  result(await client.command('config/entity_registry/update', { entity_id: 'light.sofa', labels: ['outdoor'] }));
  t.same(await client.command('config/label_registry/delete', { label_id: 'outdoor' }), {
    id: 12,
    type: 'result',
    success: true,
    result: null,
  });
  t.same(th.hub.registries.entities.get('light.sofa').labels, [], "the entity's label is removed");
  t.same(error(await client.command('config/label_registry/delete', { label_id: 'outdoor' })), {
    code: 'not_found',
    message: "Label ID doesn't exist",
  });
});

t.test('subscribe_events delivers floor and label registry events', async (t) => {
  const { client } = await setup(t);
  await client.command('subscribe_events', { event_type: 'floor_registry_updated' });
  await client.command('subscribe_events', { event_type: 'label_registry_updated' });
  await client.command('config/floor_registry/create', { name: 'Cellar', level: -1 });
  await client.command('config/label_registry/create', { name: 'Battery' });
  const events = await client.waitForCount((m) => m.type === 'event', 2);
  t.same(
    events.map((m) => [m.id, (m.event as { event_type: string; data: unknown }).event_type, (m.event as { data: unknown }).data]),
    [
      [1, 'floor_registry_updated', { action: 'create', floor_id: 'cellar' }],
      [2, 'label_registry_updated', { action: 'create', label_id: 'battery' }],
    ],
  );
});

t.test('a non-admin user may list the registries but not change them', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ws-registry-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { yaml: YAML, dataDir });
  t.teardown(async () => {
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  for (const kind of ['entity', 'device', 'area', 'floor', 'label']) {
    t.equal((await guest.command(`config/${kind}_registry/list`)).success, true, `${kind} list`);
  }
  const refused = [
    await guest.command('config/entity_registry/update', { entity_id: 'light.sofa', name: 'x' }),
    await guest.command('config/entity_registry/remove', { entity_id: 'light.sofa' }),
    await guest.command('config/device_registry/update', { device_id: deviceIdOf(th.hub, 'Tree'), name_by_user: 'x' }),
    await guest.command('config/area_registry/create', { name: 'Garage' }),
    await guest.command('config/floor_registry/delete', { floor_id: 'upstairs' }),
    await guest.command('config/label_registry/update', { label_id: 'christmas', name: 'Xmas' }),
  ];
  for (const reply of refused) t.same(error(reply), { code: 'unauthorized', message: 'Unauthorized' });
  t.same(
    await guest.command('subscribe_events', { event_type: 'label_registry_updated' }),
    { id: 12, type: 'result', success: true },
    'registry events are allow-listed for non-admins',
  );
});

/** Turns every light off, then calls light.turn_on over WebSocket with `target`; the ids it turned on. */
async function turnedOnBy(th: TestHub, client: WsClient, target: Record<string, unknown>): Promise<string[]> {
  result(await client.command('call_service', { domain: 'light', service: 'turn_off', target: { entity_id: 'all' } }));
  result(await client.command('call_service', { domain: 'light', service: 'turn_on', target }));
  return [...th.hub.core.states.states()]
    .filter((s) => s.entity_id.startsWith('light.') && s.state === 'on')
    .map((s) => s.entity_id)
    .sort();
}

t.test('call_service targets over WebSocket: area_id, device_id, floor_id, label_id as a string or a list', async (t) => {
  const { th, client } = await setup(t);
  t.same(await turnedOnBy(th, client, { area_id: 'kitchen' }), ['light.kitchen_ceiling']);
  t.same(await turnedOnBy(th, client, { area_id: ['living_room'] }), ['light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { device_id: deviceIdOf(th.hub, 'Kitchen Lights') }), [
    'light.kitchen_ceiling',
    'light.kitchen_counter',
  ]);
  t.same(await turnedOnBy(th, client, { device_id: [deviceIdOf(th.hub, 'Sofa Lamp'), deviceIdOf(th.hub, 'Bedside')] }), [
    'light.bedside',
    'light.sofa',
  ]);
  t.same(await turnedOnBy(th, client, { floor_id: 'ground_floor' }), ['light.kitchen_ceiling', 'light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { floor_id: ['upstairs'] }), ['light.bedside']);
  t.same(await turnedOnBy(th, client, { label_id: 'christmas' }), ['light.bedside', 'light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { label_id: ['christmas'], entity_id: 'light.kitchen_ceiling' }), [
    'light.bedside',
    'light.kitchen_ceiling',
    'light.kitchen_counter',
    'light.sofa',
  ]);
  t.same(await turnedOnBy(th, client, { area_id: 'garage' }), [], 'a missing area is not an error');

  // Targets follow registry changes made over WebSocket.
  result(await client.command('config/area_registry/create', { name: 'Garage' }));
  result(await client.command('config/device_registry/update', { device_id: deviceIdOf(th.hub, 'Kitchen Lights'), area_id: 'garage' }));
  t.same(
    await turnedOnBy(th, client, { area_id: 'garage' }),
    ['light.kitchen_ceiling'],
    "the ceiling follows its device's area; the counter has one of its own",
  );
  result(await client.command('config/entity_registry/update', { entity_id: 'light.kitchen_ceiling', area_id: 'bedroom' }));
  t.same(await turnedOnBy(th, client, { area_id: 'garage' }), []);
  t.same(await turnedOnBy(th, client, { floor_id: 'upstairs' }), ['light.bedside', 'light.kitchen_ceiling']);

  const bad = await client.command('call_service', { domain: 'light', service: 'turn_on', target: { area_id: 42 } });
  t.equal(error(bad).code, 'invalid_format');
});

t.test('Node-RED connection details', async (t) => {
  const { th, client } = await setup(t);

  t.test('an auth message sent on open, before auth_required arrives, is accepted', async (t) => {
    const ws = new WebSocket(th.wsUrl);
    const received: unknown[] = [];
    const two = new Promise<void>((resolve, reject) => {
      ws.on('message', (data: Buffer) => {
        received.push(JSON.parse(data.toString()));
        if (received.length === 2) resolve();
      });
      ws.on('error', reject);
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: th.token })));
    t.teardown(() => ws.close());
    await withDeadline(two, 3000, 'auth_required and auth_ok');
    t.match(received, [{ type: 'auth_required' }, { type: 'auth_ok', ha_version: /^\d{4}\.\d+/ }]);
  });

  t.test('subscribe_events accepts any event type, including ones the hub never fires', async (t) => {
    for (const type of ['nodered', 'tag_scanned', 'ios.action_fired', 'x'.repeat(200)]) {
      t.same(result(await client.command('subscribe_events', { event_type: type })), undefined, type.slice(0, 20));
    }
  });

  t.test('get_config has components (a list) and state RUNNING', async (t) => {
    const config = result<{ components: unknown; state: unknown }>(await client.command('get_config'));
    t.ok(Array.isArray(config.components));
    t.ok((config.components as string[]).includes('light'));
    t.ok((config.components as string[]).every((c) => typeof c === 'string'));
    t.equal(config.state, 'RUNNING');
  });

  t.test('call_service with return_response false and no service_data', async (t) => {
    const reply = result<{ context: { id: string }; response: unknown }>(
      await client.command('call_service', {
        domain: 'switch',
        service: 'toggle',
        target: { entity_id: 'switch.tree' },
        return_response: false,
      }),
    );
    t.match(reply.context.id, /^[0-9a-f]{32}$/);
    t.equal(th.hub.core.states.get('switch.tree')?.state, 'on');
  });
});
