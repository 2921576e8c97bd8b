import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import { WsClient, type WsMessage } from '../../api/ws/client.js';
import { CATALOGUE, cloneDevice } from '../../fixtures/zigbee/catalogue.js';
import { FakeStick } from '../../fixtures/zigbee/fake-stick.js';
import { startZigbeeHub, until, waitForEvent, type ZigbeeHub } from '../../fixtures/zigbee/harness.js';
import { startTestHub } from '../../helpers/hub.js';
import { waitForState } from '../../helpers/wait.js';

// Zigbee groups over the WebSocket API (zigbee/group/*), on herdsman's Controller and the fake stick with real
// device entities: create, two bulbs added, the group light toggled (one groupcast; both bulbs follow), the group
// found again after a restart, removed; and every bad input answered with an error naming it.

const bulb1 = CATALOGUE.bulb;
const bulb2 = cloneDevice(CATALOGUE.bulb, 2);
const ZIGBEE = `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${bulb1.ieee}': {friendly_name: Lamp one}\n    '${bulb2.ieee}': {friendly_name: Lamp two}`;

async function hub(t: Test, dataDir: string, stick: FakeStick): Promise<{ z: ZigbeeHub; ws: WsClient }> {
  const z = await startZigbeeHub(t, { zigbee: ZIGBEE, factory: createDeviceEntities, dataDir, stick });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  const ws = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => ws.close());
  return { z, ws };
}

function ok(t: Test, reply: WsMessage, what: string): Record<string, unknown> {
  t.equal(reply.success, true, `${what}: ${JSON.stringify(reply.error ?? '')}`);
  return reply.result as Record<string, unknown>;
}

t.test('create, add two bulbs, toggle the group light, restart, remove', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-groups-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const stick = new FakeStick();
  const { z, ws } = await hub(t, dataDir, stick);
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const sim of [bulb1, bulb2]) {
    const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === sim.ieee && d.status === 'successful');
    stick.join(sim);
    await done;
  }
  // The bulbs say they are off (as their configured reports would).
  for (const sim of [bulb1, bulb2]) stick.report(sim.ieee, 1, 'genOnOff', { onOff: 0 });
  await waitForState(z.core, 'light.lamp_one', (s) => s.state === 'off');
  await waitForState(z.core, 'light.lamp_two', (s) => s.state === 'off');

  const created = ok(t, await ws.command('zigbee/group/create', { friendly_name: 'Living room', group_id: 5 }), 'create');
  t.same(created, { id: 5, friendly_name: 'Living room', entity_id: null, members: [] }, 'no members yet: no entity');
  ok(t, await ws.command('zigbee/group/add_member', { group: 'Living room', device: 'Lamp one' }), 'add one');
  const added = ok(t, await ws.command('zigbee/group/add_member', { group: 5, device: bulb2.ieee, endpoint: 1 }), 'add two');
  t.same(added.members, [
    { ieee_address: bulb1.ieee, friendly_name: 'Lamp one', endpoint: 1 },
    { ieee_address: bulb2.ieee, friendly_name: 'Lamp two', endpoint: 1 },
  ]);
  t.same(
    stick.groups.membersOf(5).map((m) => m.ieee),
    [bulb1.ieee, bulb2.ieee],
    'each bulb was told (genGroups add)',
  );
  const listed = ok(t, await ws.command('zigbee/group/list'), 'list') as { groups: { entity_id: string }[] };
  t.match(listed.groups, [{ id: 5, friendly_name: 'Living room', entity_id: 'light.living_room' }]);
  const group = await waitForState(z.core, 'light.living_room', (s) => s.state === 'off');
  t.same(group.attributes.supported_color_modes, ['color_temp'], "the members' colour modes");

  // One groupcast, and both bulbs (and so the group) are on: at once, before any report (groupOptimistic).
  stick.autoReport = false;
  stick.broadcasts.length = 0;
  const sentBefore = stick.sent.length;
  const toggled = await ws.command('call_service', { domain: 'light', service: 'toggle', target: { entity_id: 'light.living_room' } });
  t.equal(toggled.success, true);
  await waitForState(z.core, 'light.lamp_one', (s) => s.state === 'on');
  await waitForState(z.core, 'light.lamp_two', (s) => s.state === 'on');
  await waitForState(z.core, 'light.living_room', (s) => s.state === 'on');
  t.same(stick.broadcasts, [{ to: 'group:5', cluster: 'genOnOff', command: 'on' }], 'one groupcast');
  t.equal(stick.sent.slice(sentBefore).filter((s) => !s.global).length, 0, 'no command to each bulb');
  t.same(
    [bulb1, bulb2].map((b) => stick.attributesOf(b.ieee, 1, 'genOnOff').onOff),
    [1, 1],
    'the groupcast reached both bulbs',
  );
  stick.autoReport = true;

  // Brightness is the mean of the members that are on; one off leaves the group on (any member on).
  await z.core.services.call('light', 'turn_on', { entity_id: 'light.lamp_one', brightness: 100 });
  await z.core.services.call('light', 'turn_on', { entity_id: 'light.lamp_two', brightness: 200 });
  await waitForState(z.core, 'light.living_room', (s) => s.attributes.brightness === 150);
  // A colour temperature: one groupcast, both bulbs there, the group the mean.
  stick.broadcasts.length = 0;
  await z.core.services.call('light', 'turn_on', { entity_id: 'light.living_room', color_temp_kelvin: 3000 });
  t.same(stick.broadcasts, [{ to: 'group:5', cluster: 'lightingColorCtrl', command: 'moveToColorTemp' }]);
  await waitForState(
    z.core,
    'light.living_room',
    (s) => s.attributes.color_temp_kelvin === 3003 && s.attributes.color_mode === 'color_temp',
  );
  t.equal(stick.attributesOf(bulb2.ieee, 1, 'lightingColorCtrl').colorTemperature, 333, 'the bulb got 333 mireds');
  await z.core.services.call('light', 'turn_off', { entity_id: 'light.lamp_one' });
  await waitForState(z.core, 'light.living_room', (s) => s.state === 'on' && s.attributes.brightness === 200);
  await z.core.services.call('light', 'turn_off', { entity_id: 'light.living_room' });
  // The bulbs say they are off (as their configured reports would).
  for (const sim of [bulb1, bulb2]) stick.report(sim.ieee, 1, 'genOnOff', { onOff: 0 });
  await waitForState(z.core, 'light.lamp_one', (s) => s.state === 'off');
  await waitForState(z.core, 'light.lamp_two', (s) => s.state === 'off');
  await waitForState(z.core, 'light.living_room', (s) => s.state === 'off');

  ok(t, await ws.command('zigbee/group/rename', { group: 5, friendly_name: 'Lounge' }), 'rename');
  await waitForState(z.core, 'light.living_room', (s) => s.attributes.friendly_name === 'Lounge');
  ws.close();
  await z.th.hub.stop();

  // herdsman's database keeps the group, its name and members; the entity is there again.
  const again = await hub(t, dataDir, stick);
  await waitForState(again.z.core, 'light.living_room', (s) => s.state === 'off' && s.attributes.friendly_name === 'Lounge');
  const relisted = ok(t, await again.ws.command('zigbee/group/list'), 'list after restart') as { groups: unknown[] };
  t.match(relisted.groups, [{ id: 5, friendly_name: 'Lounge', members: [{ ieee_address: bulb1.ieee }, { ieee_address: bulb2.ieee }] }]);
  await again.z.core.services.call('light', 'turn_on', { entity_id: 'light.living_room' });
  await waitForState(again.z.core, 'light.lamp_one', (s) => s.state === 'on');

  ok(t, await again.ws.command('zigbee/group/remove_member', { group: 'lounge', device: 'Lamp one' }), 'remove a member');
  t.same(
    stick.groups.membersOf(5).map((m) => m.ieee),
    [bulb2.ieee],
  );
  const removed = ok(t, await again.ws.command('zigbee/group/remove', { group: 'Lounge' }), 'remove');
  t.same(removed, { id: 5, friendly_name: 'Lounge', force: false });
  t.same(stick.groups.membersOf(5), [], 'the last member was told to leave');
  t.equal(again.z.core.states.get('light.living_room'), undefined, 'the entity is gone');
  t.same((ok(t, await again.ws.command('zigbee/group/list'), 'empty') as { groups: unknown[] }).groups, []);
});

t.test('bad input: each error names what was wrong, with Home Assistant codes', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-groups-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const stick = new FakeStick();
  const { z, ws } = await hub(t, dataDir, stick);
  await z.core.services.call('zigbee', 'permit_join', {});
  const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === bulb1.ieee && d.status === 'successful');
  stick.join(bulb1);
  await done;
  ok(t, await ws.command('zigbee/group/create', { friendly_name: 'Hall' }), 'create');

  const cases: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['zigbee/group/create', { friendly_name: 'hall' }, 'service_validation_error', /friendly_name 'hall' is already in use \(by group 1\)/],
    ['zigbee/group/create', { friendly_name: 'Lamp one' }, 'service_validation_error', /already in use \(by device/],
    ['zigbee/group/create', { friendly_name: 'a#b' }, 'service_validation_error', /MQTT wildcard/],
    ['zigbee/group/create', { friendly_name: 'x', group_id: 1 }, 'service_validation_error', /Group ID '1' is already in use/],
    ['zigbee/group/create', { friendly_name: 'x', group_id: 70000 }, 'invalid_format', /group_id/],
    ['zigbee/group/create', {}, 'invalid_format', /friendly_name/],
    ['zigbee/group/create', { friendly_name: 'x', colour: 1 }, 'invalid_format', /extra keys not allowed @ data\['colour'\]/],
    ['zigbee/group/rename', { group: 9, friendly_name: 'y' }, 'not_found', /Zigbee group "9" does not exist/],
    ['zigbee/group/add_member', { group: 'Nowhere', device: 'Lamp one' }, 'not_found', /"Nowhere" does not exist/],
    [
      'zigbee/group/add_member',
      { group: 'Hall', device: 'Lamp nine' },
      'service_validation_error',
      /"Lamp nine" is not a paired Zigbee device/,
    ],
    [
      'zigbee/group/add_member',
      { group: 'Hall', device: 'Lamp one', endpoint: 7 },
      'service_validation_error',
      /does not have endpoint '7': it has 1/,
    ],
    ['zigbee/group/remove', { group: '__proto__' }, 'not_found', /"__proto__" does not exist/],
  ];
  for (const [type, fields, code, message] of cases) {
    const reply = await ws.command(type, fields);
    t.equal(reply.success, false, `${type} ${JSON.stringify(fields)} fails`);
    t.match(reply.error, { code, message }, `${type} ${JSON.stringify(fields)}`);
  }
  // A bulb out of range: the failure is the device's, the group unchanged.
  stick.setReachable(bulb1.ieee, false);
  const unreachable = await ws.command('zigbee/group/add_member', { group: 'Hall', device: 'Lamp one' }, 30_000);
  t.match(unreachable.error, { code: 'home_assistant_error', message: /Failed to add to group/ });
  t.same((ok(t, await ws.command('zigbee/group/list'), 'list') as { groups: { members: unknown[] }[] }).groups[0]?.members, []);

  // A member removed from the network leaves its groups; the group without members has no entity.
  stick.setReachable(bulb1.ieee, true);
  ok(t, await ws.command('zigbee/group/add_member', { group: 'Hall', device: 'Lamp one' }), 'add');
  await waitForState(z.core, 'light.hall', () => true);
  await z.core.services.call('zigbee', 'remove_device', { ieee_address: bulb1.ieee, force: true });
  await until(() => z.core.states.get('light.hall') === undefined, 'the group light to go');
  t.same((ok(t, await ws.command('zigbee/group/list'), 'list') as { groups: { members: unknown[] }[] }).groups[0]?.members, []);
});

t.test('a group of plugs is a switch; unreachable members: remove refused, then forced; the adapter gone', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-groups-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const stick = new FakeStick();
  const { z, ws } = await hub(t, dataDir, stick);
  const plug = CATALOGUE.plug;
  await z.core.services.call('zigbee', 'permit_join', {});
  const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === plug.ieee && d.status === 'successful');
  stick.join('plug');
  await done;
  stick.report(plug.ieee, 1, 'genOnOff', { onOff: 0 });
  ok(t, await ws.command('zigbee/group/create', { friendly_name: 'Sockets' }), 'create');
  ok(t, await ws.command('zigbee/group/add_member', { group: 'Sockets', device: plug.ieee }), 'add');
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'off');
  stick.broadcasts.length = 0;
  await z.core.services.call('switch', 'turn_on', { entity_id: 'switch.sockets' });
  t.same(stick.broadcasts, [{ to: 'group:1', cluster: 'genOnOff', command: 'on' }]);
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'on');

  stick.setReachable(plug.ieee, false);
  const refused = await ws.command('zigbee/group/remove', { group: 'Sockets' }, 30_000);
  t.match(refused.error, { code: 'home_assistant_error', message: /removing Zigbee group Sockets failed: .*force: true/ });
  t.ok(z.core.states.get('switch.sockets'), 'still there');
  ok(t, await ws.command('zigbee/group/remove', { group: 'Sockets', force: true }), 'forced');
  t.equal(z.core.states.get('switch.sockets'), undefined, 'gone');

  // The adapter gone: the group command is refused with why.
  ok(t, await ws.command('zigbee/group/create', { friendly_name: 'Sockets' }), 'again');
  stick.setReachable(plug.ieee, true);
  ok(t, await ws.command('zigbee/group/add_member', { group: 'Sockets', device: plug.ieee }), 'add again');
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'on');
  stick.unplug();
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'unavailable');
  const gone = await z.core.services.call('switch', 'turn_off', { entity_id: 'switch.sockets' }).catch((e: Error) => e);
  t.match(String(gone), /the Zigbee adapter \(zstack on \/dev\/ttyACM0\) is not connected/);
  // The list answers meanwhile, as list_devices does (the groups as last known).
  const listed = ok(t, await ws.command('zigbee/group/list'), 'list while away') as { groups: unknown[] };
  t.match(listed.groups, [{ friendly_name: 'Sockets', entity_id: 'switch.sockets' }]);
  const create = await ws.command('zigbee/group/create', { friendly_name: 'Later' });
  t.match(create.error, { code: 'home_assistant_error', message: /not connected; try again when it is back/ });

  // Back: the group's entity is made on herdsman's new Group and works again.
  stick.plugIn();
  await until(() => z.scheduler.waiting.includes(1000), 'a retry');
  z.scheduler.advance(1000);
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'on');
  stick.broadcasts.length = 0;
  await z.core.services.call('switch', 'turn_off', { entity_id: 'switch.sockets' });
  t.same(stick.broadcasts, [{ to: 'group:1', cluster: 'genOnOff', command: 'off' }]);
  await waitForState(z.core, 'switch.sockets', (s) => s.state === 'off');
});

t.test('without a zigbee: section the commands say so', async (t) => {
  const th = await startTestHub(t);
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  for (const type of ['zigbee/group/list', 'zigbee/configure_reporting']) {
    const reply = await ws.command(type);
    t.match(reply.error, { code: 'unknown_command', message: /Zigbee is not configured \(no zigbee: section\)/ }, type);
  }
});
