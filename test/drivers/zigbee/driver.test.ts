import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { WsClient } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, until, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// The Zigbee driver in a hub on the fake stick: start, pairing, join and interview, services, leave.

const bulb = CATALOGUE.bulb;
const weather = CATALOGUE.weather;

async function pair(z: Awaited<ReturnType<typeof startZigbeeHub>>, key: 'bulb' | 'weather' | 'plug' | 'contact'): Promise<void> {
  const sim = CATALOGUE[key];
  const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === sim.ieee && d.status !== 'started');
  z.stick.join(key);
  await done;
}

async function callWs(
  z: Awaited<ReturnType<typeof startZigbeeHub>>,
  service: string,
  data: Record<string, unknown> = {},
  returnResponse = false,
) {
  const client = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  try {
    return await client.command('call_service', {
      domain: 'zigbee',
      service,
      service_data: data,
      ...(returnResponse ? { return_response: true } : {}),
    });
  } finally {
    client.close();
  }
}

t.test('start: the coordinator, permit join off, a backup with its time, network settings 0600', async (t) => {
  const z = await startZigbeeHub(t);
  const permit = await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  t.same(permit.attributes.ends_at, null);
  const backup = await waitForState(z.core, 'sensor.zigbee_coordinator_backup', (s) => s.state !== 'unavailable' && s.state !== 'unknown');
  t.equal(backup.state, '2026-11-25T09:00:00+00:00', 'the backup time, from the hub clock');
  t.equal(backup.attributes.device_class, 'timestamp');
  const entry = z.th.hub.registries?.entities.get('sensor.zigbee_coordinator_backup');
  t.equal(entry?.entity_category, 'diagnostic');
  const dir = join(z.th.dataDir, 'zigbee');
  const coordinatorBackup = JSON.parse(await readFile(join(dir, 'coordinator_backup.json'), 'utf8')) as { coordinator_ieee: string };
  t.equal(coordinatorBackup.coordinator_ieee, '00124b0012345678');
  t.equal((await stat(join(dir, 'network.json'))).mode & 0o777, 0o600);
  t.equal((await stat(join(dir, 'coordinator_backup.json'))).mode & 0o777, 0o600, 'the backup holds the key too');
  t.equal((await stat(dir)).mode & 0o777, 0o700);
  const coordinator = [...z.core.devices.all()].find((d) => d.identifiers.some((i) => i[0] === 'zigbee' && i[1] === 'coordinator'));
  t.match(coordinator, { name: 'Zigbee coordinator', model: 'zStack3x0', sw_version: '20240710', serial_number: '0x00124b0012345678' });
  t.equal(z.stick.opens, 1);
});

t.test('permit join: the service and the switch, with the countdown attribute', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  const reply = await callWs(z, 'permit_join', { duration: 120 });
  t.equal(reply.success, true);
  const on = await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'on');
  t.equal(on.attributes.ends_at, '2026-11-25T09:02:00+00:00', 'ends_at = now + duration');
  t.same(z.stick.permitJoinCalls.at(-1), { seconds: 120, networkAddress: undefined });
  await z.core.services.call('switch', 'turn_off', { entity_id: 'switch.zigbee_permit_join' });
  const off = await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  t.same(off.attributes.ends_at, null);
  t.same(z.stick.permitJoinCalls.at(-1), { seconds: 0, networkAddress: undefined });
  await z.core.services.call('switch', 'turn_on', { entity_id: 'switch.zigbee_permit_join' });
  t.equal(
    (await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'on')).attributes.ends_at,
    '2026-11-25T09:04:14+00:00',
  );
  // When herdsman's countdown ends (its own timer, one real second here), the switch goes off by itself.
  await callWs(z, 'permit_join', { duration: 1 });
  t.equal(
    (await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'on')).attributes.ends_at,
    '2026-11-25T09:00:01+00:00',
  );
  t.same((await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 3000)).attributes.ends_at, null);
  const bad = await callWs(z, 'permit_join', { duration: 300 });
  t.equal(bad.success, false);
  t.match((bad.error as { message: string }).message, /duration/);
  const unknownRouter = await callWs(z, 'permit_join', { ieee_address: '0x0000000000000001' });
  t.match((unknownRouter.error as { message: string }).message, /not a paired Zigbee device/);

  // Through one router: the plug (mains, a router) may; the sleeping sensor may not.
  await pair(z, 'plug');
  await pair(z, 'weather');
  t.equal((await callWs(z, 'permit_join', { duration: 60, ieee_address: CATALOGUE.plug.ieee })).success, true);
  t.same(z.stick.permitJoinCalls.at(-1), { seconds: 60, networkAddress: CATALOGUE.plug.networkAddress });
  const endDevice = await callWs(z, 'permit_join', { ieee_address: weather.ieee });
  t.match((endDevice.error as { message: string }).message, /is an end device \(EndDevice\), not a router/);
});

t.test('the coordinator backup is written again every 24 hours, its time on the diagnostic sensor', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'sensor.zigbee_coordinator_backup', (s) => s.state === '2026-11-25T09:00:00+00:00');
  const file = join(z.th.dataDir, 'zigbee', 'coordinator_backup.json');
  const before = (await stat(file)).mtimeMs;
  z.scheduler.advance(24 * 3600_000);
  await waitForState(z.core, 'sensor.zigbee_coordinator_backup', (s) => s.state === '2026-11-26T09:00:00+00:00');
  t.ok((await stat(file)).mtimeMs >= before, 'the file was written again');
  t.equal((await callWs(z, 'backup')).success, true);
  t.equal(z.core.states.get('sensor.zigbee_coordinator_backup')?.state, '2026-11-26T09:00:00+00:00');
});

t.test('a join and an interview: events on the bus and over a WebSocket, the factory called, list_devices', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  const client = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => client.close());
  for (const type of ['zigbee_device_joined', 'zigbee_device_interviewed']) {
    t.equal((await client.command('subscribe_events', { event_type: type })).success, true);
  }
  await callWs(z, 'permit_join', {});
  const joined = waitForEvent(z.core, 'zigbee_device_joined');
  await pair(z, 'bulb');
  t.match((await joined).data, { ieee_address: bulb.ieee, friendly_name: bulb.ieee, network_address: bulb.networkAddress });
  const wsEvents = await client.waitForCount((m) => m.type === 'event', 3);
  const statuses = wsEvents.map(
    (m) =>
      (m.event as { event_type: string; data: { status?: string } }).event_type +
      ':' +
      ((m.event as { data: { status?: string } }).data.status ?? ''),
  );
  t.same(statuses, ['zigbee_device_joined:', 'zigbee_device_interviewed:started', 'zigbee_device_interviewed:successful']);
  const success = wsEvents[2]?.event as { data: Record<string, unknown> };
  t.match(success.data, {
    ieee_address: bulb.ieee,
    model: `model:${bulb.modelID}`,
    model_id: bulb.modelID,
    manufacturer: 'IKEA of Sweden',
    supported: true,
  });
  t.equal(z.recorded.calls.length, 1, 'the factory made the bulb once');
  await until(() => z.recorded.byIeee.get(bulb.ieee)?.configured === 1, 'configure after pairing');

  z.stick.report(bulb.ieee, 1, 'genOnOff', { onOff: 1 }, { linkquality: 87 });
  await waitForState(z.core, `sensor.zigbee_${bulb.ieee.slice(2)}_messages`, (s) => s.state === '1');
  t.match(z.recorded.byIeee.get(bulb.ieee)?.messages[0], { cluster: 'genOnOff', data: { onOff: 1 }, linkquality: 87 });

  const listed = await callWs(z, 'list_devices', {}, true);
  t.equal(listed.success, true);
  const result = listed.result as { response: { devices: Record<string, unknown>[]; permit_join: boolean } };
  t.equal(result.response.permit_join, true);
  t.same(result.response.devices, [
    {
      ieee_address: bulb.ieee,
      friendly_name: bulb.ieee,
      network_address: bulb.networkAddress,
      type: 'Router',
      model: `model:${bulb.modelID}`,
      vendor: 'IKEA of Sweden',
      description: 'test device',
      supported: true,
      model_id: bulb.modelID,
      manufacturer: 'IKEA of Sweden',
      power_source: 'Mains (single phase)',
      link_quality: 87,
      last_seen: '2026-11-25T09:00:00+00:00',
      available: true,
      interview: 'successful',
      ota: false,
    },
  ]);
  const withoutResponse = await callWs(z, 'list_devices');
  t.equal(withoutResponse.success, false, 'list_devices only answers with return_response');
});

t.test('rename, reconfigure, remove and a device leaving on its own', async (t) => {
  const z = await startZigbeeHub(t, { zigbee: `  devices:\n    '${weather.ieee}':\n      friendly_name: Balcony` });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await callWs(z, 'permit_join', {});
  await pair(z, 'bulb');
  await pair(z, 'weather');
  t.equal(z.recorded.byIeee.get(weather.ieee)?.name, 'Balcony', 'the configured friendly name');

  t.equal((await callWs(z, 'rename_device', { ieee_address: bulb.ieee, name: 'Desk lamp' })).success, true);
  t.equal(z.recorded.byIeee.get(bulb.ieee)?.name, 'Desk lamp');
  await z.driver().names.settled();
  const names = JSON.parse(await readFile(join(z.th.dataDir, 'zigbee', 'names.json'), 'utf8')) as unknown;
  t.same(names, { [bulb.ieee]: 'Desk lamp' });
  const taken = await callWs(z, 'rename_device', { ieee_address: 'desk lamp', name: 'balcony' });
  t.match((taken.error as { message: string }).message, /already the name of/);
  const configured = await callWs(z, 'rename_device', { ieee_address: 'Balcony', name: 'Terrace' });
  t.match((configured.error as { message: string }).message, /named in the configuration \(zigbee\.devices\./);

  t.equal((await callWs(z, 'reconfigure_device', { ieee_address: 'Desk lamp' })).success, true);
  t.equal(z.recorded.byIeee.get(bulb.ieee)?.configured, 2);

  const left = waitForEvent(z.core, 'zigbee_device_left', (d) => d.ieee_address === bulb.ieee);
  t.equal((await callWs(z, 'remove_device', { ieee_address: 'Desk lamp' })).success, true);
  t.match((await left).data, { ieee_address: bulb.ieee, friendly_name: 'Desk lamp', reason: 'removed' });
  t.ok(z.recorded.byIeee.get(bulb.ieee)?.removed);
  t.ok(
    z.stick.zdoSent.some((z2) => z2.ieee === bulb.ieee && z2.clusterId === 0x0034),
    'a leave request went to the bulb',
  );
  t.notOk(z.core.states.get(`sensor.zigbee_${bulb.ieee.slice(2)}_messages`), 'its entity is gone');
  const unknown = await callWs(z, 'remove_device', { ieee_address: bulb.ieee });
  t.match((unknown.error as { message: string }).message, /is not a paired Zigbee device/);

  const leaving = waitForEvent(z.core, 'zigbee_device_left', (d) => d.ieee_address === weather.ieee);
  z.stick.leave(weather.ieee);
  t.match((await leaving).data, { friendly_name: 'Balcony', reason: 'left', model: `model:${weather.modelID}` });
  const listed = await callWs(z, 'list_devices', {}, true);
  t.same((listed.result as { response: { devices: unknown[] } }).response.devices, []);
});

t.test('an interview that fails: the event says so, no entities, list_devices shows it', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await callWs(z, 'permit_join', {});
  const failed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'failed');
  const plug = CATALOGUE.plug;
  z.stick.join('plug');
  // It joined, then went out of range before answering the interview.
  z.stick.setReachable(plug.ieee, false);
  t.match((await failed).data, { ieee_address: plug.ieee, friendly_name: plug.ieee, status: 'failed' });
  t.equal(z.recorded.calls.length, 0, 'no entities for a device that was not interviewed');
  const listed = await callWs(z, 'list_devices', {}, true);
  t.match((listed.result as { response: { devices: unknown[] } }).response.devices, [
    { ieee_address: plug.ieee, interview: 'failed', supported: false },
  ]);
});

t.test('remove_device of a device that does not answer: a clear error, then force forgets it', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await callWs(z, 'permit_join', {});
  await pair(z, 'contact');
  const contact = CATALOGUE.contact;
  z.stick.setReachable(contact.ieee, false);
  const refused = await callWs(z, 'remove_device', { ieee_address: contact.ieee });
  t.equal(refused.success, false);
  t.match(
    (refused.error as { message: string }).message,
    /did not answer the leave request .*; call again with force: true to forget it anyway/,
  );
  t.notOk((refused.error as { message: string }).message.includes('    at '), 'no stack trace');
  const left = waitForEvent(z.core, 'zigbee_device_left', (d) => d.ieee_address === contact.ieee);
  t.equal((await callWs(z, 'remove_device', { ieee_address: contact.ieee, force: true })).success, true);
  t.match((await left).data, { reason: 'removed' });
  t.ok(z.recorded.byIeee.get(contact.ieee)?.removed);
});
