import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { JsonObject } from '../../src/core/json.js';
import { recordAll, recordEvents, startCore, tempDir, testSwitch } from './helpers.js';

t.test('areas, floors and labels: ids from names, names unique, Home Assistant JSON and events', async (t) => {
  const { core, registries } = await startCore(t);
  const events = recordAll(core, ['area_registry_updated', 'floor_registry_updated', 'label_registry_updated']);
  const floor = registries.floors.create({ name: 'Ground Floor', level: 0, icon: 'mdi:home-floor-0' });
  t.same(Object.keys(floor), ['aliases', 'created_at', 'floor_id', 'icon', 'level', 'name', 'modified_at']);
  t.match(floor, { floor_id: 'ground_floor', name: 'Ground Floor', level: 0, icon: 'mdi:home-floor-0', aliases: [] });
  t.equal(typeof floor.created_at, 'number');
  t.ok(Math.abs((floor.created_at as number) - core.clock.now() / 1e6) < 1e-6, 'epoch seconds as a float');

  const label = registries.labels.create({ name: 'Christmas', color: 'red', description: 'Seasonal' });
  t.same(Object.keys(label), ['color', 'created_at', 'description', 'icon', 'label_id', 'name', 'modified_at']);
  t.match(label, { label_id: 'christmas', color: 'red', description: 'Seasonal', icon: null });

  const kitchen = registries.areas.create({ name: 'Kitchen', floor_id: 'ground_floor', labels: ['christmas'] });
  t.same(Object.keys(kitchen), [
    'aliases',
    'area_id',
    'floor_id',
    'humidity_entity_id',
    'icon',
    'labels',
    'name',
    'picture',
    'temperature_entity_id',
    'created_at',
    'modified_at',
  ]);
  t.match(kitchen, { area_id: 'kitchen', floor_id: 'ground_floor', labels: ['christmas'], picture: null });

  t.throws(() => registries.areas.create({ name: ' KITCHEN ' }), { message: 'The name KITCHEN (kitchen) is already in use' });
  // Renaming keeps the id; the name becomes free for a new area, whose id then gets a suffix.
  registries.areas.update('kitchen', { name: 'Old Kitchen' });
  t.equal(registries.areas.create({ name: 'Kitchen' }).area_id, 'kitchen_2');
  t.equal(registries.areas.create({ name: 'Küche' }).area_id, 'kuche');

  t.throws(() => registries.areas.create({ name: 'Hall', floor_id: 'attic' }), {
    message: "no floor with id 'attic' exists for dictionary value @ data['floor_id']",
  });
  t.throws(() => registries.areas.create({ name: 'Hall', labels: ['nope'] }), {
    message: /no label with id 'nope' exists .*data\['labels'\]/,
  });
  t.throws(() => registries.areas.create({ name: 'Hall', icon: 'sofa' }), {
    message: /Icons should be specified in the form "prefix:name".*data\['icon'\]/,
  });
  t.throws(() => registries.areas.create({ name: '   ' }), { message: "expected a non-empty name for dictionary value @ data['name']" });
  t.throws(() => registries.floors.create({ name: 'Mezzanine', level: 1.5 }), { message: /expected an integer.*data\['level'\]/ });
  t.throws(() => registries.labels.create({ name: 'Odd', color: 'Not a colour' }), { message: /colour name.*data\['color'\]/ });
  t.throws(() => registries.areas.update('attic', { name: 'x' }), { message: "Area ID doesn't exist" });
  t.throws(() => registries.labels.delete('attic'), { name: 'HubError', kind: 'not_found' });

  // Nothing changed: no event, no new modified_at.
  const before = events.length;
  registries.areas.update('kitchen', { name: 'Old Kitchen' });
  t.equal(events.length, before);

  t.same(events.slice(0, 3), [
    { type: 'floor_registry_updated', data: { action: 'create', floor_id: 'ground_floor' } },
    { type: 'label_registry_updated', data: { action: 'create', label_id: 'christmas' } },
    { type: 'area_registry_updated', data: { action: 'create', area_id: 'kitchen' } },
  ]);
  t.same(events[3], { type: 'area_registry_updated', data: { action: 'update', area_id: 'kitchen' } });
  t.same(
    registries.areas.list().map((a) => a.area_id),
    ['kitchen', 'kitchen_2', 'kuche'],
  );
});

t.test('deleting a floor, label or area clears what referred to it', async (t) => {
  const { core, registries } = await startCore(t);
  registries.floors.create({ name: 'Upstairs' });
  registries.labels.create({ name: 'Night' });
  registries.areas.create({ name: 'Bedroom', floor_id: 'upstairs', labels: ['night'] });
  const device = core.devices.register({ identifiers: [['test', 'lamp']], name: 'Lamp', owner: 'test' });
  registries.devices.update(device.id, { area_id: 'bedroom', labels: ['night'] });
  const sw = testSwitch(core, 'switch.lamp', { deviceId: device.id });
  registries.entities.update('switch.lamp', { area_id: 'bedroom', labels: ['night'] });

  const events = recordAll(core, [
    'area_registry_updated',
    'floor_registry_updated',
    'label_registry_updated',
    'entity_registry_updated',
    'device_registry_updated',
  ]);
  registries.floors.delete('upstairs');
  t.equal(registries.areas.get('bedroom')?.floor_id, null);
  registries.labels.delete('night');
  t.same(registries.areas.get('bedroom')?.labels, []);
  t.same(registries.devices.get(device.id)?.labels, []);
  t.same(registries.entities.get('switch.lamp').labels, []);
  registries.areas.delete('bedroom');
  t.equal(registries.devices.get(device.id)?.area_id, null);
  t.equal(registries.entities.get('switch.lamp').area_id, null);
  t.same(
    events.map((e) => `${e.type}:${(e.data as { action: string }).action}`),
    [
      'floor_registry_updated:remove',
      'area_registry_updated:update',
      'label_registry_updated:remove',
      'area_registry_updated:update',
      'device_registry_updated:update',
      'entity_registry_updated:update',
      'area_registry_updated:remove',
      'device_registry_updated:update',
      'entity_registry_updated:update',
    ],
    'each remove event comes before the updates it causes',
  );
  t.same(events.at(-1)?.data, { action: 'update', entity_id: 'switch.lamp', changes: { area_id: 'bedroom' } });
  t.equal(sw.entity.id, 'switch.lamp');
});

t.test('items from the configuration file: clients cannot delete them or change what the file sets', async (t) => {
  const { registries } = await startCore(t, {
    sections: {
      floors: [{ name: 'Ground Floor', level: 0 }],
      labels: [{ name: 'Lights', color: 'amber' }],
      areas: [
        { name: 'Kitchen', floor: 'Ground Floor', labels: ['lights'] },
        { id: 'lounge', name: 'Living Room', floor: 'basement' },
      ],
    },
  });
  t.match(registries.areas.get('kitchen'), { name: 'Kitchen', floor_id: 'ground_floor', labels: ['lights'] });
  t.match(registries.areas.get('lounge'), { name: 'Living Room', floor_id: null }, 'an unknown floor is left out (and logged)');
  t.throws(() => registries.areas.delete('kitchen'), {
    message: 'Area kitchen is defined in the configuration file (areas:); remove it there',
  });
  t.throws(() => registries.areas.update('kitchen', { name: 'Cookery' }), {
    message: 'name of area kitchen is set in the configuration file (areas:); change it there',
  });
  t.throws(() => registries.labels.delete('lights'), { name: 'HubError', kind: 'not_allowed' });
  // What the file does not set, clients may.
  t.match(registries.areas.update('kitchen', { icon: 'mdi:stove', aliases: ['Cooking'] }), { icon: 'mdi:stove', aliases: ['Cooking'] });
  t.match(registries.areas.update('lounge', { floor_id: 'ground_floor' }), { floor_id: 'ground_floor' });
  // Setting the same value the file sets is not a change.
  t.doesNotThrow(() => registries.areas.update('kitchen', { name: 'Kitchen' }));
});

t.test('entity entries: Home Assistant fields; a name and an icon replace the attributes; customize', async (t) => {
  const { core, registries } = await startCore(t, {
    sections: {
      areas: [{ name: 'Hall' }],
      labels: [{ name: 'Night' }],
      customize: { 'switch.porch': { name: 'Porch Light', icon: 'mdi:lamp', area: 'Hall', labels: ['Night'], entity_category: 'config' } },
    },
  });
  const events = recordAll(core, ['entity_registry_updated', 'state_changed']);
  testSwitch(core, 'switch.fan', { name: 'Fan' });
  testSwitch(core, 'switch.porch', { name: 'Porch' });
  const list = registries.entities.list();
  t.same(Object.keys(list[0] as JsonObject), [
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
  t.match(list[0], {
    entity_id: 'switch.fan',
    platform: 'test',
    unique_id: 'switch.fan',
    name: null,
    original_name: 'Fan',
    id: /^[0-9a-f]{32}$/,
  });
  const porch = registries.entities.get('switch.porch');
  t.match(porch, {
    name: 'Porch Light',
    icon: 'mdi:lamp',
    area_id: 'hall',
    labels: ['night'],
    entity_category: 'config',
    original_name: 'Porch',
  });
  t.ok('aliases' in porch && 'original_icon' in porch && 'capabilities' in porch, 'get gives the extended form');
  t.match(core.states.get('switch.porch')?.attributes, { friendly_name: 'Porch Light', icon: 'mdi:lamp' });
  t.throws(() => registries.entities.update('switch.porch', { name: 'Other' }), {
    message: 'name of switch.porch is set in the configuration file (customize:); change it there',
  });

  const result = registries.entities.update('switch.fan', { name: 'Ceiling Fan', icon: 'mdi:fan' });
  t.match(result, { entity_entry: { entity_id: 'switch.fan', name: 'Ceiling Fan', icon: 'mdi:fan', original_name: 'Fan' } });
  t.same(core.states.get('switch.fan')?.attributes, { friendly_name: 'Ceiling Fan', icon: 'mdi:fan' });
  registries.entities.update('switch.fan', { name: null, icon: null });
  t.same(core.states.get('switch.fan')?.attributes, { friendly_name: 'Fan' }, 'clearing the name brings back the original');
  const updates = events.filter((e) => e.type === 'entity_registry_updated' && (e.data as { action: string }).action === 'update');
  t.same(updates.at(-2)?.data, { action: 'update', entity_id: 'switch.fan', changes: { name: null, icon: null } });
  t.same(updates.at(-1)?.data, { action: 'update', entity_id: 'switch.fan', changes: { name: 'Ceiling Fan', icon: 'mdi:fan' } });

  t.throws(() => registries.entities.get('switch.nothing'), { message: 'Entity not found' });
  t.throws(() => registries.entities.update('switch.fan', { area_id: 'garage' }), {
    message: /no area with id 'garage'.*data\['area_id'\]/,
  });
  t.throws(() => registries.entities.update('switch.fan', { disabled_by: 'integration' as 'user' }), { message: /expected user or None/ });
});

t.test('renaming an entity moves its state and fires the events Home Assistant fires', async (t) => {
  const { core, registries } = await startCore(t);
  const sw = testSwitch(core, 'switch.coffee', { name: 'Coffee' });
  testSwitch(core, 'switch.tea');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee' });
  const events = recordAll(core, ['entity_registry_updated', 'state_changed']);
  t.throws(() => registries.entities.update('switch.coffee', { new_entity_id: 'switch.tea' }), {
    message: 'Entity with this ID is already registered',
  });
  t.throws(() => registries.entities.update('switch.coffee', { new_entity_id: 'light.coffee' }), {
    message: /Entity domain change is not supported/,
  });
  t.throws(() => registries.entities.update('switch.coffee', { new_entity_id: 'switch.Bad' }), {
    message: /invalid entity ID.*new_entity_id/,
  });

  registries.entities.update('switch.coffee', { new_entity_id: 'switch.espresso' });
  t.same(
    events.map((e) => e.type),
    ['entity_registry_updated', 'state_changed', 'state_changed'],
  );
  t.same(events[0]?.data, {
    action: 'update',
    entity_id: 'switch.espresso',
    changes: { entity_id: 'switch.coffee' },
    old_entity_id: 'switch.coffee',
  });
  t.match(events[1]?.data, { entity_id: 'switch.coffee', old_state: { state: 'on' }, new_state: null });
  t.match(events[2]?.data, {
    entity_id: 'switch.espresso',
    old_state: null,
    new_state: { state: 'on', attributes: { friendly_name: 'Coffee' } },
  });
  t.equal(core.states.get('switch.coffee'), undefined);
  t.equal(sw.entity.id, 'switch.espresso', "the provider's handle follows");
  await core.services.call('switch', 'turn_off', { entity_id: 'switch.espresso' });
  t.equal(core.states.get('switch.espresso')?.state, 'off', 'services reach it under the new id');
  t.same(sw.calls, ['on:switch.coffee', 'off:switch.espresso']);
  // The provider removes it by the id it asked for.
  t.ok(core.entities.remove('switch.coffee'));
  t.equal(core.states.get('switch.espresso'), undefined);
});

t.test('a disabled entity has no state and services do not reach it; enabling writes its last report', async (t) => {
  const { core, registries } = await startCore(t, { sections: { areas: [{ name: 'Hall' }] } });
  const a = testSwitch(core, 'switch.a');
  testSwitch(core, 'switch.b');
  registries.entities.update('switch.a', { area_id: 'hall' });
  registries.entities.update('switch.b', { area_id: 'hall' });
  const events = recordAll(core, ['entity_registry_updated', 'state_changed']);
  registries.entities.update('switch.a', { disabled_by: 'user' });
  t.same(
    events.map((e) => e.type),
    ['entity_registry_updated', 'state_changed'],
  );
  t.match(events[1]?.data, { entity_id: 'switch.a', new_state: null });
  t.equal(core.states.get('switch.a'), undefined);
  t.equal(core.entities.get('switch.a'), undefined);
  await core.services.call('switch', 'turn_on', { entity_id: ['switch.a', 'switch.b'] });
  await core.services.call('switch', 'turn_on', { area_id: 'hall' });
  t.same(a.calls, [], 'neither by id nor by area');
  t.equal(core.states.get('switch.b')?.state, 'on');
  // The provider keeps reporting; it is kept for when the entity is enabled.
  a.report(true);
  t.equal(core.states.get('switch.a'), undefined);
  t.equal(a.entity.state, 'on');
  registries.entities.update('switch.a', { disabled_by: null });
  t.equal(core.states.get('switch.a')?.state, 'on');
  await core.services.call('switch', 'turn_off', { area_id: 'hall' });
  t.same(a.calls, ['off:switch.a']);
});

t.test('devices: update with checks; a disabled device disables its entities; settings survive a restart', async (t) => {
  const dir = await tempDir(t);
  const first = await startCore(t, { dir, sections: { areas: [{ name: 'Garage' }], labels: [{ name: 'Power' }] } });
  const init = { identifiers: [['test', 'relay-1']] as [string, string][], name: 'Relay board', owner: 'test', manufacturer: 'ACME' };
  const device = first.core.devices.register(init);
  testSwitch(first.core, 'switch.relay_1', { deviceId: device.id });
  t.match(first.registries.entities.get('switch.relay_1'), { device_id: device.id });
  const events = recordAll(first.core, ['device_registry_updated', 'entity_registry_updated']);
  const updated = first.registries.devices.update(device.id, { name_by_user: 'Garage relays', area_id: 'garage', labels: ['power'] });
  t.match(updated, {
    id: device.id,
    name: 'Relay board',
    name_by_user: 'Garage relays',
    area_id: 'garage',
    labels: ['power'],
    identifiers: [['test', 'relay-1']],
  });
  t.same(events[0]?.data, { action: 'update', device_id: device.id, changes: { name_by_user: null, area_id: null, labels: [] } });
  t.throws(() => first.registries.devices.update(device.id, { area_id: 'attic' }), { message: /no area with id 'attic'/ });
  t.throws(() => first.registries.devices.update('nope', {}), { message: 'Device not found' });

  first.registries.devices.update(device.id, { disabled_by: 'user' });
  t.match(first.registries.entities.get('switch.relay_1'), { disabled_by: 'device' });
  t.equal(first.core.states.get('switch.relay_1'), undefined);
  t.throws(() => first.registries.entities.update('switch.relay_1', { disabled_by: null }), { message: 'Device is disabled' });
  first.registries.devices.update(device.id, { disabled_by: null });
  t.match(first.registries.entities.get('switch.relay_1'), { disabled_by: null });
  t.equal(first.core.states.get('switch.relay_1')?.state, 'off');
  await first.registries.stop();

  const second = await startCore(t, { dir, sections: { areas: [{ name: 'Garage' }], labels: [{ name: 'Power' }] } });
  const again = second.core.devices.register(init);
  t.equal(again.id, device.id);
  t.match(second.registries.devices.get(device.id), {
    name_by_user: 'Garage relays',
    area_id: 'garage',
    labels: ['power'],
    created_at: device.created_at,
  });
});

t.test('writes are debounced, one per registry file, and a state change never schedules one', async (t) => {
  const { core, registries, writes } = await startCore(t, { saveDelayMs: 30 });
  const sw = testSwitch(core, 'switch.busy');
  t.notOk(registries.savePending, 'an entity without settings is not stored');
  registries.floors.create({ name: 'Ground' });
  for (let i = 0; i < 20; i++) registries.areas.create({ name: `Room ${i}`, floor_id: 'ground' });
  registries.areas.update('room_3', { icon: 'mdi:bed' });
  t.ok(registries.savePending);
  t.same(writes.files, [], 'nothing written before the delay');
  await writes.until(2);
  t.same(writes.files.sort(), ['areas.json', 'floors.json']);
  for (let i = 0; i < 200; i++) sw.report(i % 2 === 0);
  t.notOk(registries.savePending, 'state changes do not touch the registries');
  await registries.flush();
  t.equal(writes.files.length, 2);
  // Nothing changed since: no write on flush either.
  registries.areas.update('room_3', { icon: 'mdi:bed' });
  await registries.flush();
  t.equal(writes.files.length, 2);
});

t.test('a corrupt registry file is moved aside and logged; the registries start empty', async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'registry'), { recursive: true });
  await writeFile(join(dir, 'registry', 'areas.json'), '{"version":1,"items":[{"area_id":"x",');
  await writeFile(join(dir, 'registry', 'labels.json'), '{"something":"else"}');
  await writeFile(
    join(dir, 'registry', 'floors.json'),
    JSON.stringify({ version: 1, items: [{ floor_id: 'ok', name: 'OK' }, { floor_id: 'Bad Id', name: 'Bad' }, 42] }),
  );
  const { registries, log } = await startCore(t, { dir });
  t.same(registries.areas.list(), []);
  t.same(registries.labels.list(), []);
  t.same(
    registries.floors.list().map((f) => f.floor_id),
    ['ok'],
    'valid items of a file survive its invalid ones',
  );
  const files = await readdir(join(dir, 'registry'));
  t.ok(files.some((f) => /^areas\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
  t.ok(files.some((f) => /^labels\.json\.corrupt-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/.test(f)));
  t.ok(log.entries.some((e) => e.level === 'error' && /corrupt/.test(e.msg)));
  t.ok(log.entries.some((e) => e.level === 'warn' && /not valid/.test(e.msg)));
  registries.areas.create({ name: 'Fresh' });
  await registries.flush();
  const saved = JSON.parse(await readFile(join(dir, 'registry', 'areas.json'), 'utf8'));
  t.match(saved, { version: 1, items: [{ area_id: 'fresh', name: 'Fresh' }] });
});

t.test('target expansion follows Home Assistant', async (t) => {
  const { core, registries, log } = await startCore(t, {
    sections: {
      floors: [{ name: 'Ground' }, { name: 'Upstairs' }],
      labels: [{ name: 'Festive' }],
      areas: [
        { name: 'Kitchen', floor: 'ground' },
        { name: 'Lounge', floor: 'ground', labels: ['festive'] },
        { name: 'Bedroom', floor: 'upstairs' },
      ],
    },
  });
  const strip = core.devices.register({ identifiers: [['test', 'strip']], name: 'Power strip', owner: 'test' });
  registries.devices.update(strip.id, { area_id: 'kitchen' });
  const tree = core.devices.register({ identifiers: [['test', 'tree']], name: 'Tree', owner: 'test' });
  registries.devices.update(tree.id, { labels: ['festive'] });
  testSwitch(core, 'switch.kettle', { deviceId: strip.id });
  testSwitch(core, 'switch.toaster', { deviceId: strip.id });
  testSwitch(core, 'switch.strip_led', { deviceId: strip.id });
  testSwitch(core, 'switch.tree', { deviceId: tree.id });
  testSwitch(core, 'switch.lamp');
  testSwitch(core, 'switch.bed');
  registries.entities.update('switch.toaster', { area_id: 'lounge' });
  registries.entities.update('switch.strip_led', { entity_category: 'diagnostic' });
  registries.entities.update('switch.lamp', { area_id: 'lounge' });
  registries.entities.update('switch.bed', { area_id: 'bedroom', labels: ['festive'] });

  const expand = (selector: Record<string, string[]>) => [...registries.expandTarget(selector)].sort();
  t.same(
    expand({ area_id: ['kitchen'] }),
    ['switch.kettle'],
    'device in the area: only its entities without an own area; no diagnostic ones',
  );
  t.same(expand({ device_id: [strip.id] }), ['switch.kettle', 'switch.toaster'], 'a device: all its entities');
  t.same(expand({ area_id: ['lounge'] }), ['switch.lamp', 'switch.toaster']);
  t.same(expand({ floor_id: ['ground'] }), ['switch.kettle', 'switch.lamp', 'switch.toaster']);
  t.same(
    expand({ label_id: ['festive'] }),
    ['switch.bed', 'switch.lamp', 'switch.toaster', 'switch.tree'],
    'entities, devices and areas with the label',
  );
  registries.entities.update('switch.lamp', { hidden_by: 'user' });
  t.same(expand({ area_id: ['lounge', 'bedroom'] }), ['switch.bed', 'switch.toaster'], 'hidden entities are skipped');
  t.same(expand({ area_id: ['garage'], floor_id: ['roof'] }), []);
  t.ok(log.entries.some((e) => e.msg === 'Referenced floors roof, areas garage are missing or not currently available'));
});

t.test('events: entity_registry_updated create for new entities only', async (t) => {
  const { core } = await startCore(t);
  const events = recordEvents(core, ['entity_registry_updated']);
  testSwitch(core, 'switch.one', { uniqueId: 'abc' });
  core.entities.remove('switch.one');
  testSwitch(core, 'switch.one', { uniqueId: 'abc' });
  t.same(
    events.map((e) => e.data),
    [{ action: 'create', entity_id: 'switch.one' }],
    'an entity with a unique id keeps its entry when removed and added again',
  );
});
