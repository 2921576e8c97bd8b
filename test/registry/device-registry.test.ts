import t from 'tap';
import { recordAll, startCore, tempDir, testSwitch } from './helpers.js';

/** Device entries: updates with checks, disabling, and settings kept across a restart. */

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
