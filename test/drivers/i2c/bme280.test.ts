import t from 'tap';
import {
  compensateHumidity,
  compensatePressure,
  compensateTemperature,
  parseCalibration,
} from '../../../drivers/i2c/bme280-compensation.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { DATASHEET_ADC_P, DATASHEET_ADC_T, DATASHEET_CALIBRATION, SimBme280 } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

/**
 * The datasheet's 32-bit integer humidity formula (BME280 datasheet 4.2.3), transcribed separately from the
 * driver's double version, as the reference for a humidity value (no datasheet gives a worked example).
 */
function humidityInt32(c: typeof DATASHEET_CALIBRATION, adcH: number, tFine: number): number {
  let v = tFine - 76800;
  v =
    ((((adcH << 14) - (c.H4 << 20) - c.H5 * v + 16384) >> 15) *
      (((((((v * c.H6) >> 10) * (((v * c.H3) >> 11) + 32768)) >> 10) + 2097152) * c.H2 + 8192) >> 14)) |
    0;
  v = v - (((((v >> 15) * (v >> 15)) >> 7) * c.H1) >> 4);
  v = Math.min(Math.max(v, 0), 419430400);
  return (v >> 12) / 1024;
}

t.test('compensation gives the datasheet worked example', async (t) => {
  const temp = compensateTemperature(DATASHEET_CALIBRATION, DATASHEET_ADC_T);
  // BMP280 datasheet 3.12: t_fine 128422, T = 25.08 °C, p = 100653.27 Pa.
  t.equal(temp.tFine, 128422);
  t.equal(Math.round(temp.celsius * 100) / 100, 25.08);
  const pa = compensatePressure(DATASHEET_CALIBRATION, DATASHEET_ADC_P, temp.tFine);
  t.ok(Math.abs(pa - 100653.27) < 0.05, `pressure ${pa} Pa is the datasheet's 100653.27 Pa`);
  const rh = compensateHumidity(DATASHEET_CALIBRATION, 30000, temp.tFine);
  const reference = humidityInt32(DATASHEET_CALIBRATION, 30000, temp.tFine);
  t.ok(Math.abs(rh - reference) < 0.01, `humidity ${rh} %RH matches the integer formula's ${reference}`);
  t.equal(Math.round(rh * 10) / 10, 55);
  t.equal(compensateHumidity(DATASHEET_CALIBRATION, 65535, temp.tFine), 100, 'clamped to 100 %RH');
  t.equal(compensateHumidity(DATASHEET_CALIBRATION, 0, temp.tFine), 0, 'clamped to 0 %RH');
});

t.test('calibration decodes the shared nibbles of dig_H4/dig_H5 and negative values', async (t) => {
  const chip = new SimBme280({ ...DATASHEET_CALIBRATION, H4: -5, H5: -300, H6: -7, H2: -12 });
  const tp = Buffer.from(chip.regs.subarray(0x88, 0x88 + 26));
  const h = Buffer.from(chip.regs.subarray(0xe1, 0xe1 + 7));
  t.same(parseCalibration(tp, h), { ...DATASHEET_CALIBRATION, H4: -5, H5: -300, H6: -7, H2: -12 });
});

const CONFIG = `
devices:
  - chip: bme280
    address: 0x76
    name: Living Room
    poll_interval: 0.1
`;

t.test('a BME280 reports temperature, humidity and pressure as Home Assistant sensors of one device', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x76, new SimBme280());
  const { core } = await startI2c(t, CONFIG, bus);
  const temp = await waitForState(core, 'sensor.living_room_temperature', (s) => s.state !== 'unknown');
  t.equal(temp.state, '25.1', '25.08 °C at the precision of one decimal');
  t.same(temp.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: 'Living Room Temperature',
  });
  const humidity = core.states.get('sensor.living_room_humidity');
  t.equal(humidity?.state, '55.0');
  t.equal(humidity?.attributes.unit_of_measurement, '%');
  t.equal(humidity?.attributes.device_class, 'humidity');
  const pressure = core.states.get('sensor.living_room_pressure');
  t.equal(pressure?.state, '1006.5', '100653.27 Pa in hPa');
  t.equal(pressure?.attributes.unit_of_measurement, 'hPa');
  t.equal(pressure?.attributes.device_class, 'atmospheric_pressure');

  const device = [...core.devices.all()].find((d) => d.identifiers.some(([d0, d1]) => d0 === 'i2c' && d1 === 'i2c-1-0x76'));
  t.ok(device, 'the chip is in the device registry');
  t.equal(device?.manufacturer, 'Bosch Sensortec');
  t.equal(device?.model, 'BME280');
  t.equal(device?.name, 'Living Room');
  for (const id of ['sensor.living_room_temperature', 'sensor.living_room_humidity', 'sensor.living_room_pressure']) {
    t.equal(core.entities.get(id)?.deviceId, device?.id, `${id} belongs to the chip`);
    t.match(core.entities.get(id)?.uniqueId, /^i2c-1-0x76-/);
  }
});

t.test('the chip is set up as the datasheet says: ctrl_hum before ctrl_meas, forced mode per read', async (t) => {
  const chip = new SimBme280();
  const bus = new FakeI2cBus(1).attach(0x76, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.living_room_humidity', (s) => s.state === '55.0');
  // Sleep, config (filter off), ctrl_hum x1, then ctrl_meas x1/x1 forced for the measurement.
  t.same(chip.controlWrites().slice(0, 4), ['f4=0', 'f5=0', 'f2=1', 'f4=25']);
  t.ok(chip.measurements >= 1);
});

t.test('a value that rounds the same fires no state_changed; a real change does', async (t) => {
  const chip = new SimBme280();
  const bus = new FakeI2cBus(1).attach(0x76, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.living_room_temperature', (s) => s.state === '25.1');
  const seen = recordStates(core, 'sensor.living_room_temperature', t);
  chip.raw = { ...chip.raw, adcT: DATASHEET_ADC_T + 8 }; // +0.01 °C or so: still 25.1
  await bus.afterTransfers(0x76, 9); // three more polls (ctrl_meas, status, data)
  t.same(seen, [], 'no event for noise below the precision');
  chip.raw = { ...chip.raw, adcT: DATASHEET_ADC_T + 3000 };
  const next = await waitForState(core, 'sensor.living_room_temperature', (s) => s.state !== '25.1');
  t.equal(next.state, '26.0');
});

t.test('another chip at the address (wrong chip id) stays unavailable, and says why once', async (t) => {
  const bus = new FakeI2cBus(1).attach(0x76, new SimBme280(DATASHEET_CALIBRATION, 0x58));
  const { core, log } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.living_room_temperature', (s) => s.state === 'unavailable');
  await bus.afterTransfers(0x76, 3); // a few retries
  const warnings = log.matching('warn', 'BME280 at i2c-1 0x76');
  t.equal(warnings.length, 1, 'logged once, not on every retry');
  t.match(warnings[0]?.obj.err, /chip id 0x58 \(a BMP280\)/);
  t.equal(core.states.get('sensor.living_room_temperature')?.attributes.unit_of_measurement, '°C', 'fixed attributes kept');
});

t.test('a power-cycled chip (reset values in the data registers) is set up again', async (t) => {
  const chip = new SimBme280();
  const bus = new FakeI2cBus(1).attach(0x76, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  await waitForState(core, 'sensor.living_room_humidity', (s) => s.state === '55.0');
  const writesBefore = chip.controlWrites().filter((w) => w === 'f2=1').length;
  chip.powerCycle();
  chip.raw = { ...chip.raw, adcH: 32000 };
  const back = await waitForState(core, 'sensor.living_room_humidity', (s) => s.state !== '55.0' && s.state !== 'unavailable');
  t.not(back.state, 'unknown');
  t.ok(chip.controlWrites().filter((w) => w === 'f2=1').length > writesBefore, 'ctrl_hum written again');
});
