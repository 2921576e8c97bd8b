import t from 'tap';
import { parse } from 'yaml';
import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import { walk } from '../../drivers/virtual/sensor.js';
import { formatPath } from '../../src/config/reader.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { HubEvent } from '../../src/core/event-bus.js';
import { silentLogger } from '../../src/core/log.js';
import { addSensor, formatSensorValue, sensorDomain } from '../../src/domains/sensor.js';
import { nextEvent, setup } from '../automation/helpers.js';

function core() {
  const c = new Core({ log: silentLogger, clock: new ManualClock() });
  const events: HubEvent<'state_changed'>[] = [];
  c.bus.on('test', 'state_changed', (e) => events.push(e));
  return { core: c, events };
}

t.test('a reading is written rounded to the precision, as a string, with HA attributes in order', async (t) => {
  const { core: c } = core();
  const s = addSensor(c, {
    entityId: 'sensor.outdoor',
    owner: 'test',
    name: 'Outdoor',
    deviceClass: 'temperature',
    unit: '°C',
    stateClass: 'measurement',
    precision: 1,
  });
  s.report(21.4567);
  const state = c.states.get('sensor.outdoor');
  t.equal(state?.state, '21.5');
  t.same(Object.keys(state?.attributes ?? {}), ['state_class', 'unit_of_measurement', 'device_class', 'friendly_name']);
  t.same(state?.attributes, {
    state_class: 'measurement',
    unit_of_measurement: '°C',
    device_class: 'temperature',
    friendly_name: 'Outdoor',
  });
});

t.test('a reading that rounds to the same string fires no state_changed', async (t) => {
  const { core: c, events } = core();
  const s = addSensor(c, { entityId: 'sensor.t', owner: 'test', precision: 1 });
  s.report(20.01);
  s.report(20.04);
  s.report(19.96);
  t.equal(events.length, 1, 'all three round to 20.0');
  s.report(20.06);
  t.equal(events.length, 2);
  t.equal(c.states.get('sensor.t')?.state, '20.1');
});

t.test('null and non-finite numbers are unknown; strings pass as they are; no -0', async (t) => {
  const { core: c } = core();
  const s = addSensor(c, { entityId: 'sensor.x', owner: 'test', precision: 0 });
  s.report(null);
  t.equal(c.states.get('sensor.x')?.state, 'unknown');
  s.report(Number.NaN);
  t.equal(c.states.get('sensor.x')?.state, 'unknown');
  s.report('eco');
  t.equal(c.states.get('sensor.x')?.state, 'eco');
  t.equal(formatSensorValue(-0.04, 1), '0.0');
  t.equal(formatSensorValue(-0.4, 0), '0');
  t.equal(formatSensorValue(-1.26, 1), '-1.3');
  t.equal(formatSensorValue(3, undefined), '3');
  t.throws(() => addSensor(c, { entityId: 'sensor.y', owner: 'test', precision: 1.5 }), /precision/);
});

t.test('sensors have no services', async (t) => {
  const { core: c } = core();
  sensorDomain.registerServices(c);
  t.notOk(c.services.domains().includes('sensor'));
});

t.test('the random walk with a seeded source never leaves its bounds', async (t) => {
  const random = seededRandom(1234);
  const range = { min: 18, max: 24, step: 0.5 };
  let value = 21;
  let lo = value;
  let hi = value;
  for (let i = 0; i < 20_000; i++) {
    value = walk(value, range, random);
    lo = Math.min(lo, value);
    hi = Math.max(hi, value);
  }
  t.ok(lo >= range.min && hi <= range.max, `20000 steps stayed within [18, 24]: saw ${lo}..${hi}`);
  t.ok(hi - lo > 3, 'it does wander across the range');
  const again = seededRandom(1234);
  t.equal(walk(21, range, again), walk(21, range, seededRandom(1234)), 'the same seed walks the same way');
});

t.test('virtual sensor options: presets by device class, validated with paths', async (t) => {
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const doc = parse(`
- { platform: sensor, name: Hall Humidity, device_class: humidity }
- { platform: sensor, name: Bad, min: 10, max: 5 }
- { platform: sensor, name: Worse, device_class: smell, interval: 0 }
`);
  const items = parseVirtualSection(doc, ['virtual'], issues);
  t.same(
    issues.map((i) => `${formatPath(i.path)}: ${i.message}`),
    [
      'virtual[1].max: max (5) must be greater than min (10)',
      'virtual[2].device_class: "smell" is not allowed: expected one of apparent_power, aqi, area, atmospheric_pressure, battery, blood_glucose_concentration, carbon_dioxide, carbon_monoxide, conductivity, current, data_rate, data_size, date, distance, duration, energy, energy_distance, energy_storage, enum, frequency, gas, humidity, illuminance, irradiance, moisture, monetary, nitrogen_dioxide, nitrogen_monoxide, nitrous_oxide, ozone, ph, pm1, pm10, pm25, power, power_factor, precipitation, precipitation_intensity, pressure, reactive_power, signal_strength, sound_pressure, speed, sulphur_dioxide, temperature, timestamp, volatile_organic_compounds, volatile_organic_compounds_parts, voltage, volume, volume_flow_rate, volume_storage, water, weight, wind_direction, wind_speed',
      'virtual[2].interval: 0 is not allowed: expected a number from 0.01 to 86400',
    ],
  );
  t.match(items[0]?.options, { unit: '%', min: 35, max: 60, precision: 0, stateClass: 'measurement' });
});

t.test('a virtual sensor ticks and stays between min and max', async (t) => {
  const { core: c } = await setup(
    t,
    `
virtual:
  - { platform: sensor, id: power, name: Power, device_class: power, min: 100, max: 200, step: 40, interval: 0.01 }
`,
  );
  const first = c.states.get('sensor.power');
  t.equal(first?.state, '150');
  t.equal(first?.attributes.unit_of_measurement, 'W');
  for (let i = 0; i < 5; i++) {
    const e = await nextEvent(c, 'state_changed', (e) => e.data.entity_id === 'sensor.power');
    const v = Number(e.data.new_state?.state);
    t.ok(v >= 100 && v <= 200, `reading ${v} within bounds`);
  }
});
