import t from 'tap';
import { sensirionCrc8, sht3xHumidity, sht3xTemperature } from '../../../drivers/i2c/sht3x.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { referenceCrc8, SimSht3x, sht3xRaw } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

t.test('CRC-8 (polynomial 0x31, init 0xFF) matches the datasheet example', async (t) => {
  // SHT3x datasheet 4.12, table 20: CRC(0xBEEF) = 0x92.
  t.equal(sensirionCrc8(Buffer.from([0xbe, 0xef])), 0x92);
  t.equal(referenceCrc8([0xbe, 0xef]), 0x92, 'and so does the independent reference the simulated chip uses');
  t.equal(sensirionCrc8(Buffer.from([0x00, 0x00])), referenceCrc8([0x00, 0x00]));
  t.equal(sensirionCrc8(Buffer.from([0x12, 0xbe, 0xef, 0x34]), 1, 2), 0x92, 'over a slice');
});

t.test('conversion formulas (datasheet 4.13)', async (t) => {
  t.equal(sht3xTemperature(0), -45);
  t.equal(sht3xTemperature(65535), 130);
  t.equal(sht3xHumidity(65535), 100);
  t.equal(sht3xHumidity(0), 0);
  t.equal(Math.round(sht3xTemperature(0x6666) * 100) / 100, 25, '0x6666 is 25.00 °C');
});

const CONFIG = `
devices:
  - chip: sht31
    address: 0x44
    name: Greenhouse
    poll_interval: 0.1
`;

t.test('an SHT31 reports temperature and humidity of a Sensirion device', async (t) => {
  const chip = new SimSht3x();
  chip.raw = sht3xRaw(23.46, 61.23);
  const bus = new FakeI2cBus(1).attach(0x44, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  const temp = await waitForState(core, 'sensor.greenhouse_temperature', (s) => s.state !== 'unknown');
  t.equal(temp.state, '23.5');
  t.same(temp.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: 'Greenhouse Temperature',
  });
  const rh = core.states.get('sensor.greenhouse_humidity');
  t.equal(rh?.state, '61.2');
  t.equal(rh?.attributes.device_class, 'humidity');
  const device = core.devices.get(core.entities.get('sensor.greenhouse_humidity')?.deviceId ?? '');
  t.equal(device?.manufacturer, 'Sensirion');
  t.equal(device?.model, 'SHT31');
  // Probe by reading the status register, then single-shot high repeatability without clock stretching.
  t.same(chip.commands.slice(0, 2), [0xf32d, 0x2400]);
});

t.test('a bad CRC is a failed read: unavailable, logged once, back when the CRC is right again', async (t) => {
  const chip = new SimSht3x();
  const bus = new FakeI2cBus(1).attach(0x44, chip);
  const { core, log } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.greenhouse_temperature', (s) => s.state === '21.5');
  const seen = recordStates(core, 'sensor.greenhouse_temperature', t);
  chip.corruptCrc = true;
  await waitForState(core, 'sensor.greenhouse_temperature', (s) => s.state === 'unavailable');
  t.equal(core.states.get('sensor.greenhouse_humidity')?.state, 'unavailable', 'the whole chip, not one value');
  await bus.afterTransfers(0x44, 12); // several failed retries
  const warnings = log.matching('warn', 'SHT31 at i2c-1 0x44');
  t.equal(warnings.length, 1, 'logged once');
  t.match(warnings[0]?.obj.err, /EBADCRC: temperature failed its CRC check/);
  chip.corruptCrc = false;
  await waitForState(core, 'sensor.greenhouse_temperature', (s) => s.state === '21.5');
  t.same(seen, ['unavailable', '21.5']);
  await log.waitFor('info', 'SHT31 at i2c-1 0x44 answers again');
  t.equal(log.matching('info', 'answers again').length, 1, 'the recovery is logged once too');
});
