import t from 'tap';
import type { JsonObject } from '../../src/core/json.js';
import { ENTITY_ENTRY_KEYS, recordAll, recordEvents, startCore, testSwitch } from './helpers.js';

/** Entity entries: Home Assistant's fields, renaming, disabling and their events. */

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
  t.same(Object.keys(list[0] as JsonObject), ENTITY_ENTRY_KEYS);
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
