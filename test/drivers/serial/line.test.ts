import t from 'tap';
import { mockBinding, send, startSerial } from '../../fakes/serial-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

const PATH = '/dev/serial/by-id/usb-Arduino__www.arduino.cc__0043_75833353035351D0E1A1-if00';

t.beforeEach(() => {
  mockBinding.reset();
  mockBinding.createPort(PATH, { echo: false, record: false });
});

t.test('one value per line', async (t) => {
  const { core, ports, log } = await startSerial(
    t,
    `
devices:
  - type: line
    port: ${PATH}
    baud_rate: 115200
    name: Soil Probe
    sensors:
      - {name: Soil Moisture, unit: '%', device_class: moisture, precision: 0}
`,
  );
  const port = await ports.opened(PATH);
  t.equal(port.baudRate, 115200);
  const seen = recordStates(core, 'sensor.soil_moisture', t);
  send(port, '41.2\r\n41');
  send(port, '.4\r\n\r\noops\r\n43\n');
  await waitForState(core, 'sensor.soil_moisture', (s) => s.state === '43');
  t.same(seen, ['41', '43'], '41.2 and 41.4 round the same: one event');
  t.same(core.states.get('sensor.soil_moisture')?.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '%',
    device_class: 'moisture',
    friendly_name: 'Soil Moisture',
  });
  t.match(log.matching('warn', 'sent corrupt data')[0]?.obj.reason, /"oops" is not a number/);
  const device = core.devices.get(core.entities.get('sensor.soil_moisture')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model, device?.name], ['Generic', 'Serial line sensor', 'Soil Probe']);
});

t.test('JSON lines feed several sensors by key', async (t) => {
  const { core, ports, log } = await startSerial(
    t,
    `
devices:
  - type: line
    port: ${PATH}
    format: json
    name: Weather Station
    manufacturer: Arduino
    model: Uno
    sensors:
      - {key: temp, name: Station Temperature, unit: °C, device_class: temperature, precision: 1}
      - {key: wind.speed, name: Wind Speed, unit: m/s, device_class: wind_speed}
      - {key: status, name: Station Status}
`,
  );
  const port = await ports.opened(PATH);
  send(port, '{"temp": 21.46, "wind": {"speed": "3.2"}, "status": "ok", "extra": [1]}\n');
  await waitForState(core, 'sensor.station_status', (s) => s.state === 'ok');
  t.equal(core.states.get('sensor.station_temperature')?.state, '21.5');
  t.equal(core.states.get('sensor.wind_speed')?.state, '3.2');
  t.equal(core.states.get('sensor.wind_speed')?.attributes.state_class, 'measurement');
  t.same(core.states.get('sensor.station_status')?.attributes, { friendly_name: 'Station Status' }, 'a text sensor');
  send(port, '{"temp": 22.0}\n');
  await waitForState(core, 'sensor.station_temperature', (s) => s.state === '22.0');
  t.equal(core.states.get('sensor.station_status')?.state, 'ok', 'a key left out keeps its value');
  send(port, 'not json\n{"temp": "warm"}\n[1,2]\n{"temp": null}\n');
  await waitForState(core, 'sensor.station_temperature', (s) => s.state === 'unknown');
  t.equal(log.matching('warn', 'sent corrupt data').length, 1, 'three bad lines before a good one: logged once');
  const device = core.devices.get(core.entities.get('sensor.wind_speed')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model], ['Arduino', 'Uno']);
});

t.test('a stream without newlines is bounded and reported', async (t) => {
  const { core, ports, log } = await startSerial(t, `devices: [{type: line, port: ${PATH}, name: Probe, sensors: [{unit: V}]}]`);
  const port = await ports.opened(PATH);
  for (let i = 0; i < 8; i++) send(port, 'x'.repeat(512));
  send(port, '\n3.3\n');
  await waitForState(core, 'sensor.probe', (s) => s.state === '3.3');
  t.match(log.matching('warn', 'sent corrupt data')[0]?.obj.reason, /a line longer than 1024 bytes was dropped/);
});

t.test('lines that do not parse never make a line sensor unavailable before its timeout (a boot banner is not a fault)', async (t) => {
  const { core, ports, log } = await startSerial(
    t,
    `devices: [{type: line, port: ${PATH}, name: Soil Probe, timeout: 3600, sensors: [{name: Soil Moisture, unit: '%'}]}]`,
  );
  const port = await ports.opened(PATH);
  const seen = recordStates(core, 'sensor.soil_moisture', t);
  send(port, '40\n');
  await waitForState(core, 'sensor.soil_moisture', (s) => s.state === '40');
  send(port, `${'Soil probe v2 starting\n'.repeat(10)}41\n`);
  await waitForState(core, 'sensor.soil_moisture', (s) => s.state === '41');
  t.same(seen, ['40', '41'], 'never unavailable');
  t.same(log.matching('warn', 'is unavailable'), []);
});
