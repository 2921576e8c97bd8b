import t from 'tap';
import { sds011Frame } from '../../fakes/serial-frames.js';
import { mockBinding, send, startSerial } from '../../fakes/serial-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

const PATH = '/dev/serial/by-id/usb-1a86_USB2.0-Serial-if00-port0';

t.beforeEach(() => {
  mockBinding.reset();
  mockBinding.createPort(PATH, { echo: false, record: false });
});

t.test('an SDS011 reports PM2.5 and PM10 to a tenth of a µg/m³', async (t) => {
  const { core, ports, log } = await startSerial(t, `devices: [{type: sds011, port: ${PATH}}]`);
  const port = await ports.opened(PATH);
  const seen = recordStates(core, 'sensor.sds011_pm25', t);
  const frame = sds011Frame({ pm25: 12.3, pm10: 45.6 });
  send(port, Buffer.concat([Buffer.from([0x00, 0xaa, 0xaa]), frame.subarray(0, 4)]));
  send(port, frame.subarray(4));
  const pm25 = await waitForState(core, 'sensor.sds011_pm25', (s) => s.state !== 'unknown');
  t.equal(pm25.state, '12.3');
  t.same(pm25.attributes, {
    state_class: 'measurement',
    unit_of_measurement: 'µg/m³',
    device_class: 'pm25',
    friendly_name: 'SDS011 PM2.5',
  });
  t.equal(core.states.get('sensor.sds011_pm10')?.state, '45.6');
  t.equal(core.states.get('sensor.sds011_pm1'), undefined, 'no PM1 on this sensor');
  const device = core.devices.get(core.entities.get('sensor.sds011_pm10')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model], ['Nova Fitness', 'SDS011']);

  send(port, sds011Frame({ pm25: 99, pm10: 99 }, { corrupt: true }));
  send(port, sds011Frame({ pm25: 20, pm10: 40 }));
  await waitForState(core, 'sensor.sds011_pm25', (s) => s.state === '20.0');
  t.same(seen, ['12.3', '20.0']);
  t.equal(log.matching('warn', 'sent corrupt data').length, 1);
});

t.test('an SDS011 that sends only corrupt frames is unavailable after five, before its timeout; a good frame recovers it', async (t) => {
  const { core, ports, log } = await startSerial(t, `devices: [{type: sds011, port: ${PATH}, timeout: 3600}]`);
  const port = await ports.opened(PATH);
  send(port, sds011Frame({ pm25: 12.3, pm10: 45.6 }));
  await waitForState(core, 'sensor.sds011_pm25', (s) => s.state === '12.3');
  const bad = sds011Frame({ pm25: 99, pm10: 99 }, { corrupt: true });
  send(port, Buffer.concat([bad, bad, bad, bad, bad]));
  await waitForState(core, 'sensor.sds011_pm25', (s) => s.state === 'unavailable');
  t.match((await log.waitFor('warn', 'is unavailable')).obj.err, /^5 corrupt frames in a row \(the last: checksum/);
  send(port, sds011Frame({ pm25: 20, pm10: 40 }));
  await waitForState(core, 'sensor.sds011_pm25', (s) => s.state === '20.0');
  t.equal(core.states.get('sensor.sds011_pm10')?.state, '40.0');
  await log.waitFor('info', `SDS011 on ${PATH} answers again`);
});
