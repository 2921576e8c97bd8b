import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { Controller, type Events } from 'zigbee-herdsman';
import { findByDevice } from 'zigbee-herdsman-converters';
import { CATALOGUE, type CatalogueKey } from '../fixtures/zigbee/catalogue.js';
import { FakeStick, quietZigbeeLogs } from '../fixtures/zigbee/fake-stick.js';
import type { Teardown } from '../helpers/hub.js';

// The fixture itself: herdsman's real Controller on the fake stick, every catalogue device joined and interviewed.

await quietZigbeeLogs();

async function startController(t: Teardown, stick: FakeStick): Promise<Controller> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-zh-'));
  const restore = stick.install();
  const controller = new Controller({
    network: { panID: 0x1a62, channelList: [11], extendedPanID: [1, 2, 3, 4, 5, 6, 7, 8], networkKey: [...Array(16).keys()] },
    serialPort: { path: '/dev/ttyFAKE', adapter: 'zstack' },
    databasePath: join(dir, 'database.db'),
    databaseBackupPath: join(dir, 'database.db.backup'),
    backupPath: join(dir, 'coordinator_backup.json'),
    adapter: { disableLED: false },
    acceptJoiningDeviceHandler: async () => true,
  });
  t.teardown(async () => {
    await controller.stop().catch(() => undefined);
    restore();
    await rm(dir, { recursive: true, force: true });
  });
  return controller;
}

function interviewed(controller: Controller, ieee: string): Promise<Events.DeviceInterviewPayload> {
  return new Promise((resolve) => {
    const listener = (event: Events.DeviceInterviewPayload): void => {
      if (event.device.ieeeAddr !== ieee || event.status === 'started') return;
      controller.off('deviceInterview', listener);
      resolve(event);
    };
    controller.on('deviceInterview', listener);
  });
}

t.test('every catalogue device joins, is interviewed and resolves to its model', async (t) => {
  const stick = new FakeStick();
  const controller = await startController(t, stick);
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
  const controller = await startController(t, stick);
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
