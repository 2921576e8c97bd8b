import t from 'tap';
import type { Events } from 'zigbee-herdsman';
import { findByDevice } from 'zigbee-herdsman-converters';
import { CATALOGUE, type CatalogueKey } from '../../fixtures/zigbee/catalogue.js';
import { fakeStickController, interviewed } from '../../fixtures/zigbee/controller.js';
import { FakeStick, quietZigbeeLogs } from '../../fixtures/zigbee/fake-stick.js';

// The fixture itself: herdsman's real Controller on the fake stick, every catalogue device joined and interviewed.

await quietZigbeeLogs();

t.test('every catalogue device joins, is interviewed and resolves to its model', async (t) => {
  const stick = new FakeStick();
  const controller = (await fakeStickController(t, stick)).controller;
  t.equal(await controller.start(), 'reset');
  await controller.permitJoin(254);
  t.same(stick.permitJoinCalls.at(-1), { seconds: 254, networkAddress: undefined });
  for (const key of Object.keys(CATALOGUE) as CatalogueKey[]) {
    const sim = CATALOGUE[key];
    const done = interviewed(controller, sim.ieee);
    stick.join(key);
    const event = await done;
    t.equal(event.status, 'successful', `${key} interview`);
    const device = controller.getDeviceByIeeeAddr(sim.ieee);
    t.equal(device?.modelID, sim.modelID);
    t.equal(device?.manufacturerName, sim.manufacturerName);
    const definition = device === undefined ? undefined : await findByDevice(device);
    t.equal(definition?.model, sim.expectedModel, `${key} resolves to ${sim.expectedModel}`);
  }
});

t.test('a report becomes a message; a command reaches the stick and the device answers with a report', async (t) => {
  const stick = new FakeStick();
  const controller = (await fakeStickController(t, stick)).controller;
  await controller.start();
  const done = interviewed(controller, CATALOGUE.bulb.ieee);
  stick.join('bulb');
  await done;
  const messages: Events.MessagePayload[] = [];
  controller.on('message', (m) => messages.push(m));
  stick.report(CATALOGUE.bulb.ieee, 1, 'genLevelCtrl', { currentLevel: 200 });
  t.match(messages.at(-1), { type: 'attributeReport', cluster: 'genLevelCtrl', data: { currentLevel: 200 } });
  const device = controller.getDeviceByIeeeAddr(CATALOGUE.bulb.ieee);
  const reported = new Promise<Events.MessagePayload>((resolve) => controller.on('message', (m) => m.cluster === 'genOnOff' && resolve(m)));
  await device?.getEndpoint(1)?.command('genOnOff', 'on', {});
  t.match(stick.sent.at(-1), { cluster: 'genOnOff', command: 'on' });
  t.match((await reported).data, { onOff: 1 });
  const read = await device?.getEndpoint(1)?.read('genOnOff', ['onOff']);
  t.same(read, { onOff: 1 });
});

t.test("a remote's button: the Hue dimmer's hueNotification on its custom cluster reaches the converters as an action", async (t) => {
  const stick = new FakeStick();
  const controller = (await fakeStickController(t, stick)).controller;
  await controller.start();
  const done = interviewed(controller, CATALOGUE.dimmer.ieee);
  stick.join('dimmer');
  await done;
  const device = controller.getDeviceByIeeeAddr(CATALOGUE.dimmer.ieee);
  if (device === undefined) throw new Error('no dimmer');
  const definition = await findByDevice(device);
  // What a definition's extend does for its device: herdsman learns the manufacturer's cluster.
  await definition?.onEvent?.({ type: 'start', data: { device, deviceExposesChanged: () => {}, state: {}, options: {} } } as never);
  t.ok(device.customClusters.manuSpecificPhilips, 'the custom cluster is known');
  const messages: Events.MessagePayload[] = [];
  controller.on('message', (m) => messages.push(m));
  stick.sendCommand(
    device.ieeeAddr,
    2,
    'manuSpecificPhilips',
    'hueNotification',
    { button: 1, unknown1: 3145728, type: 0, unknown2: 0, time: 0, unknown3: 0 },
    {
      direction: 'server_to_client',
      manufacturerCode: 0x100b,
      customClusters: device.customClusters,
    },
  );
  const message = messages.at(-1);
  t.match(message, { type: 'commandHueNotification', cluster: 'manuSpecificPhilips', data: { button: 1, type: 0 } });
  const converter = definition?.fromZigbee.find(
    (c) => c.cluster === 'manuSpecificPhilips' && [c.type].flat().includes('commandHueNotification'),
  );
  const result = converter?.convert(definition as never, message as never, () => {}, {}, {
    state: {},
    device,
    deviceExposesChanged: () => {},
  } as never);
  t.match(result, { action: 'on_press' });
});
