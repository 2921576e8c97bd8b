import t from 'tap';
import { ads1115Config, ads1115Volts, applyScale } from '../../../drivers/i2c/ads1115.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { SimAds1115 } from '../../fakes/i2c-chips.js';
import { i2cIssues, startI2c } from '../../fakes/i2c-harness.js';
import { waitForState } from '../../fakes/wait-state.js';

t.test('config word and conversion (datasheet 8.6.3, 9.3)', async (t) => {
  // OS=1, MUX=100 (AIN0), PGA=001 (±4.096 V), MODE=1, DR=100 (128 SPS), comparator off.
  t.equal(ads1115Config('a0', 4.096, 128), 0xc383);
  t.equal(ads1115Config('a0_a1', 2.048, 860), 0x85e3);
  t.equal(ads1115Volts(0x7fff, 2.048), (32767 * 2.048) / 32768);
  t.equal(ads1115Volts(-32768, 0.256), -0.256);
  const close = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  t.ok(close(applyScale(2.0, { from: [2.8, 1.2], to: [0, 100], clamp: false }), 50));
  t.equal(applyScale(3.0, { from: [2.8, 1.2], to: [0, 100], clamp: true }), 0);
  t.ok(close(applyScale(3.0, { from: [2.8, 1.2], to: [0, 100], clamp: false }), -12.5));
});

const CONFIG = `
devices:
  - chip: ads1115
    address: 0x48
    name: Soil ADC
    poll_interval: 0.1
    channels:
      - input: a0
        name: Supply Voltage
        gain: 4.096
      - input: a1
        name: Bed Moisture
        scale: {from: [1.8, 0.8], to: [0, 100], clamp: true}
        unit: '%'
        device_class: moisture
        precision: 0
      - input: a2_a3
        id: shunt
        gain: 0.256
`;

t.test('each input is a voltage sensor at its gain, or scaled to another unit', async (t) => {
  const chip = new SimAds1115();
  chip.inputs = [3.3, 1.3, 0.1, 0.05];
  const bus = new FakeI2cBus(1).attach(0x48, chip);
  const { core } = await startI2c(t, CONFIG, bus);
  const supply = await waitForState(core, 'sensor.supply_voltage', (s) => s.state !== 'unknown');
  t.equal(supply.state, '3.3000', 'one LSB at ±4.096 V is 125 µV: four decimals');
  t.same(supply.attributes, {
    state_class: 'measurement',
    unit_of_measurement: 'V',
    device_class: 'voltage',
    friendly_name: 'Supply Voltage',
  });
  const moisture = core.states.get('sensor.bed_moisture');
  t.equal(moisture?.state, '50');
  t.same(moisture?.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '%',
    device_class: 'moisture',
    friendly_name: 'Bed Moisture',
  });
  const shunt = core.states.get('sensor.shunt');
  t.equal(shunt?.state, '0.050000', 'differential A2-A3 at ±0.256 V');
  t.equal(shunt?.attributes.friendly_name, 'Soil ADC A2-A3');
  t.same(
    chip.configWrites.slice(0, 3).map((w) => w.toString(16)),
    [ads1115Config('a0', 4.096, 128), ads1115Config('a1', 2.048, 128), ads1115Config('a2_a3', 0.256, 128)].map((w) => w.toString(16)),
  );
  const device = core.devices.get(core.entities.get('sensor.shunt')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model, device?.name], ['Texas Instruments', 'ADS1115', 'Soil ADC']);

  chip.inputs = [3.3, 2.0, 0.1, 0.05];
  await waitForState(core, 'sensor.bed_moisture', (s) => s.state === '0');
  t.pass('drier than the dry point clamps to 0 %');
});

t.test('ADS1115 options are validated with their paths and the allowed values', async (t) => {
  const issues = i2cIssues(`
devices:
  - chip: ads1115
    rate: 100
    channels:
      - {input: a4, gain: 3.3}
      - {input: a1, scale: {from: [1, 1], to: [0, 100]}}
      - {input: a2, scale: {from: 1, to: [0, 100]}, device_class: wattage}
`);
  t.same(issues.slice(0, 5), [
    'i2c.devices.0.rate: 100 is not allowed: expected one of 8, 16, 32, 64, 128, 250, 475, 860 (samples per second)',
    'i2c.devices.0.channels.0.input: "a4" is not allowed: expected one of a0_a1, a0_a3, a1_a3, a2_a3, a0, a1, a2, a3',
    'i2c.devices.0.channels.0.gain: 3.3 is not allowed: expected one of 6.144, 4.096, 2.048, 1.024, 0.512, 0.256 (full-scale ±volts)',
    'i2c.devices.0.channels.1.scale.from: the two voltages must differ',
    'i2c.devices.0.channels.2.scale.from: expected a list of two numbers, got number 1',
  ]);
  t.match(issues[5], /^i2c\.devices\.0\.channels\.2\.device_class: "wattage" is not allowed: expected one of apparent_power, aqi, /);
  t.equal(issues.length, 6);
  t.equal(
    i2cIssues('devices: [{chip: ads1115}]')[0],
    'i2c.devices.0.channels: is required: list the inputs to read, e.g. [{input: a0, name: Soil Moisture}]',
  );
});
