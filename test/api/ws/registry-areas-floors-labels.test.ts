import t from 'tap';
import { type Entry, error, result, setup } from './registry-setup.js';

/** config/area_registry/*, config/floor_registry/* and config/label_registry/*, and their events. */

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
