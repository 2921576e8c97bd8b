import t from 'tap';
import { recordAll, startCore, testSwitch } from './helpers.js';

/** Areas, floors and labels: their ids, names, checks and events, and what their deletion clears. */

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
