import t from 'tap';
import { deviceIdOf, type Entry, error, result, setup } from './registry-setup.js';

/** config/entity_registry/* and config/device_registry/update. */

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
