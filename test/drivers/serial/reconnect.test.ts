import t from 'tap';
import { addSensor } from '../../../src/domains/sensor.js';
import { pms5003Frame, sds011Frame } from '../../fakes/serial-frames.js';
import { mockBinding, send, startSerial } from '../../fakes/serial-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

const PMS = '/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0';
const SDS = '/dev/serial/by-id/usb-1a86_USB2.0-Serial-if00-port0';
const CONFIG = `
devices:
  - {type: pms5003, port: ${PMS}, name: Bedroom Air}
  - {type: sds011, port: ${SDS}, name: Balcony Air}
`;

t.beforeEach(() => {
  mockBinding.reset();
  mockBinding.createPort(PMS, { echo: false, record: false });
  mockBinding.createPort(SDS, { echo: false, record: false });
});

t.test('unplug -> unavailable (logged once) -> replug -> reopened and back to real values', async (t) => {
  const { core, ports, log } = await startSerial(t, CONFIG);
  const port = await ports.opened(PMS);
  send(port, pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }));
  await waitForState(core, 'sensor.bedroom_air_pm25', (s) => s.state === '2');
  const sds = await ports.opened(SDS);
  send(sds, sds011Frame({ pm25: 4.2, pm10: 8.4 }));
  await waitForState(core, 'sensor.balcony_air_pm10', (s) => s.state === '8.4');
  const seen = recordStates(core, 'sensor.bedroom_air_pm25', t);
  const balcony = recordStates(core, 'sensor.balcony_air_pm25', t);

  // Unplugged: the device node is gone (opening fails) and the open stream closes.
  mockBinding.reset();
  mockBinding.createPort(SDS, { echo: false, record: false });
  const opensBefore = ports.created.length;
  port.close();
  await waitForState(core, 'sensor.bedroom_air_pm25', (s) => s.state === 'unavailable');
  t.equal(core.states.get('sensor.bedroom_air_pm1')?.state, 'unavailable');
  // Let a few reopen attempts fail.
  await ports.createdAtLeast(opensBefore + 3);
  const warnings = log.matching('warn', `PMS5003 on ${PMS}`);
  t.equal(warnings.length, 1, 'the unplug is logged once, not every failed reopen');
  t.match(warnings[0]?.obj.err, /the port closed/);

  // Replugged.
  mockBinding.createPort(PMS, { echo: false, record: false });
  const again = await ports.opened(PMS);
  t.not(again, port, 'a fresh stream');
  send(again, pms5003Frame({ pm1: 1, pm25: 5, pm10: 3 }));
  await waitForState(core, 'sensor.bedroom_air_pm25', (s) => s.state === '5');
  await log.waitFor('info', `PMS5003 on ${PMS} answers again`);
  t.same(seen, ['unavailable', '5']);
  t.same(balcony, [], 'the other device was not disturbed');
});

t.test('a partial frame before an unplug is not glued to data after the replug', async (t) => {
  const { core, ports } = await startSerial(t, CONFIG);
  const port = await ports.opened(PMS);
  send(port, pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }).subarray(0, 20));
  mockBinding.reset();
  port.close();
  await waitForState(core, 'sensor.bedroom_air_pm25', (s) => s.state === 'unavailable');
  mockBinding.createPort(PMS, { echo: false, record: false });
  const again = await ports.opened(PMS);
  send(again, pms5003Frame({ pm1: 7, pm25: 8, pm10: 9 }));
  const back = await waitForState(core, 'sensor.bedroom_air_pm25', (s) => s.state !== 'unavailable');
  t.equal(back.state, '8');
});

t.test('a port that is missing at start: unavailable, logged once, opened once it appears', async (t) => {
  mockBinding.reset();
  const { core, ports, log } = await startSerial(t, `devices: [{type: sds011, port: ${SDS}, name: Balcony Air}]`);
  await waitForState(core, 'sensor.balcony_air_pm25', (s) => s.state === 'unavailable');
  await ports.createdAtLeast(3);
  const warnings = log.matching('warn', `SDS011 on ${SDS}`);
  t.equal(warnings.length, 1);
  t.match(warnings[0]?.obj.err, /cannot open the port: Port does not exist/);
  mockBinding.createPort(SDS, { echo: false, record: false });
  const port = await ports.opened(SDS);
  send(port, sds011Frame({ pm25: 3.5, pm10: 7 }));
  const pm10 = await waitForState(core, 'sensor.balcony_air_pm10', (s) => s.state !== 'unavailable');
  t.equal(pm10.state, '7.0');
});

t.test('stopping closes the port', async (t) => {
  const { driver, ports } = await startSerial(t, CONFIG);
  const port = await ports.opened(PMS);
  await driver.stop();
  t.notOk(port.isOpen);
});

t.test('a device whose entity id another driver already has gets the next free _2 id, as in Home Assistant', async (t) => {
  const { core, ports, log } = await startSerial(t, CONFIG, (c) => {
    addSensor(c, { entityId: 'sensor.bedroom_air_pm10', owner: 'virtual', name: 'Taken' });
  });
  const pms = await ports.opened(PMS);
  send(pms, pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }));
  await waitForState(core, 'sensor.bedroom_air_pm10_2', (s) => s.state === '3');
  t.equal(core.entities.get('sensor.bedroom_air_pm10')?.owner, 'virtual');
  t.same(log.matching('error', 'not added'), []);
});

t.test('a device whose unique id is already live (a duplicate) is refused with one line, without leftovers; the others run', async (t) => {
  const { core, ports, log } = await startSerial(t, CONFIG, (c) => {
    addSensor(c, { entityId: 'sensor.bedroom_air_pm10', owner: 'serial', uniqueId: 'serial-bedroom_air-pm10', name: 'Same' });
  });
  t.match((await log.waitFor('error', 'not added')).msg, /does not generate unique IDs/);
  t.equal(core.entities.get('sensor.bedroom_air_pm1'), undefined);
  t.notOk([...core.devices.all()].some((d) => d.model === 'PMS5003'));
  const sds = await ports.opened(SDS);
  send(sds, sds011Frame({ pm25: 1, pm10: 2 }));
  await waitForState(core, 'sensor.balcony_air_pm10', (s) => s.state === '2.0');
  t.notOk(
    ports.created.some((p) => p.path === PMS),
    'the skipped device never opened its port',
  );
});
