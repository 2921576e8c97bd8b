import t from 'tap';
import { MICROGRAMS_PER_CUBIC_METER } from '../../../drivers/serial/platform.js';
import { pms5003Frame, sds011Frame } from '../../fakes/serial-frames.js';
import { mockBinding, send, startSerial } from '../../fakes/serial-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

const PATH = '/dev/serial/by-id/usb-Silicon_Labs_CP2102_USB_to_UART_Bridge_Controller_0001-if00-port0';
const CONFIG = `
devices:
  - type: pms5003
    port: ${PATH}
    name: Living Room Air
`;

t.beforeEach(() => {
  mockBinding.reset();
  mockBinding.createPort(PATH, { echo: false, record: false });
});

t.test('a PMS5003 reports PM1, PM2.5 and PM10 in µg/m³ as one Plantower device', async (t) => {
  const { core, ports } = await startSerial(t, CONFIG);
  t.equal(core.states.get('sensor.living_room_air_pm25')?.state, 'unknown', 'registered before the port opens');
  const port = await ports.opened(PATH);
  t.equal(port.baudRate, 9600);
  send(port, pms5003Frame({ pm1: 4, pm25: 9, pm10: 13 }));
  const pm25 = await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state !== 'unknown');
  t.equal(pm25.state, '9');
  t.same(pm25.attributes, {
    state_class: 'measurement',
    unit_of_measurement: MICROGRAMS_PER_CUBIC_METER,
    device_class: 'pm25',
    friendly_name: 'Living Room Air PM2.5',
  });
  t.equal(MICROGRAMS_PER_CUBIC_METER, 'µg/m³');
  t.same(
    ['pm1', 'pm10'].map((k) => [
      core.states.get(`sensor.living_room_air_${k}`)?.state,
      core.states.get(`sensor.living_room_air_${k}`)?.attributes.device_class,
    ]),
    [
      ['4', 'pm1'],
      ['13', 'pm10'],
    ],
  );
  const device = core.devices.get(core.entities.get('sensor.living_room_air_pm10')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model, device?.name], ['Plantower', 'PMS5003', 'Living Room Air']);
  t.same(device?.identifiers, [['serial', 'serial-living_room_air']]);
});

t.test('frames split across chunks, garbage between frames, and a corrupt checksum', async (t) => {
  const { core, ports, log } = await startSerial(t, CONFIG);
  const port = await ports.opened(PATH);
  const seen = recordStates(core, 'sensor.living_room_air_pm25', t);
  const first = pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 });
  send(port, first.subarray(0, 5));
  send(port, first.subarray(5, 19));
  send(port, Buffer.concat([first.subarray(19), Buffer.from('garbage\x42\x00 more garbage')]));
  await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '2');
  send(port, pms5003Frame({ pm1: 9, pm25: 99, pm10: 999 }, { corrupt: true }));
  send(port, pms5003Frame({ pm1: 9, pm25: 98, pm10: 999 }, { corrupt: true }));
  send(port, pms5003Frame({ pm1: 5, pm25: 6, pm10: 7 }));
  await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '6');
  t.same(seen, ['2', '6'], 'the corrupt frames never became states');
  const warnings = log.matching('warn', 'sent corrupt data');
  t.equal(warnings.length, 1, 'two corrupt frames in a row, logged once');
  t.match(warnings[0]?.obj.reason, /^checksum/);
  t.equal(core.states.get('sensor.living_room_air_pm25')?.state, '6', 'a corrupt frame does not make the sensor unavailable');
  send(port, pms5003Frame({ pm1: 5, pm25: 6, pm10: 7 }));
  send(port, sds011Frame({ pm25: 1, pm10: 2 }));
  send(port, pms5003Frame({ pm1: 5, pm25: 6, pm10: 8 }));
  await waitForState(core, 'sensor.living_room_air_pm10', (s) => s.state === '8');
  t.same(seen, ['2', '6'], 'the same reading again fires nothing');
});

t.test('a device that only sends garbage goes unavailable after its timeout, is reopened, and is back with a frame', async (t) => {
  const { core, ports, log } = await startSerial(
    t,
    `
devices:
  - {type: pms5003, port: ${PATH}, name: Living Room Air, timeout: 1}
`,
  );
  const port = await ports.opened(PATH);
  send(port, pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }));
  await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '2');
  send(port, Buffer.alloc(4096, 0x33));
  await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === 'unavailable');
  t.match((await log.waitFor('warn', 'is unavailable')).obj.err, /no valid data for 1 s/);
  const reopened = await ports.opened(PATH);
  t.not(reopened, port, 'the port was reopened, in case the adapter wedged');
  send(reopened, pms5003Frame({ pm1: 1, pm25: 3, pm10: 3 }));
  await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '3');
  await log.waitFor('info', `PMS5003 on ${PATH} answers again`);
});

t.test(
  'corrupt frames in a row: four are dropped, five make the sensor unavailable (logged once), a good frame brings it back',
  async (t) => {
    const { core, ports, log } = await startSerial(t, CONFIG);
    const port = await ports.opened(PATH);
    const seen = recordStates(core, 'sensor.living_room_air_pm25', t);
    send(port, pms5003Frame({ pm1: 1, pm25: 2, pm10: 3 }));
    await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '2');

    const bad = (): Buffer => pms5003Frame({ pm1: 9, pm25: 99, pm10: 999 }, { corrupt: true });
    send(port, Buffer.concat([bad(), bad(), bad(), bad(), pms5003Frame({ pm1: 1, pm25: 4, pm10: 3 })]));
    await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '4');
    t.same(seen, ['2', '4'], 'four corrupt frames, then a good one: never unavailable');

    send(port, Buffer.concat([bad(), bad(), bad(), bad(), bad()]));
    await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === 'unavailable');
    t.equal(core.states.get('sensor.living_room_air_pm10')?.state, 'unavailable', 'every entity of the sensor');
    const unavailable = await log.waitFor('warn', 'is unavailable');
    t.match(unavailable.obj.err, /^5 corrupt frames in a row \(the last: checksum 0x[0-9a-f]+, the bytes add up to 0x[0-9a-f]+\)$/);
    t.match(unavailable.msg, /until a good frame arrives$/);
    send(port, Buffer.concat([bad(), bad(), bad(), pms5003Frame({ pm1: 1, pm25: 5, pm10: 3 })]));
    await waitForState(core, 'sensor.living_room_air_pm25', (s) => s.state === '5');
    await log.waitFor('info', `PMS5003 on ${PATH} answers again`);
    t.equal(log.matching('warn', 'is unavailable').length, 1, 'one warning for the outage, not one per frame');
    t.equal(ports.created.length, 1, 'the port stayed open (it delivers bytes; they are just corrupt)');
    t.same(seen, ['2', '4', 'unavailable', '5']);
  },
);
