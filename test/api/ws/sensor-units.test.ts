import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Core } from '../../../src/core/core.js';
import type { SensorDeviceClass } from '../../../src/domains/sensor.js';
import { addSensor } from '../../../src/domains/sensor.js';
import { startTestHub, type Teardown } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

/**
 * A sensor's unit, display precision and a device class chosen in the entity registry
 * (`config/entity_registry/update` with `options_domain`/`options` and `device_class`), as Home Assistant applies
 * them: the state converted with HA's unit converters and rounded as HA rounds it.
 */

/**
 * Home Assistant's tests/components/sensor/test_init.py `test_custom_unit_change` and `test_custom_unit` cases:
 * native unit, chosen unit, the unit the state then shows, the native value, and the state in the chosen unit.
 * A unit the device class cannot convert to (`peer_distance`) leaves the state as it is.
 */
const CASES: ReadonlyArray<readonly [SensorDeviceClass, string, string, string, string, string]> = [
  ['distance', 'km', 'mi', 'mi', '1000', '621'],
  ['distance', 'cm', 'in', 'in', '7.24', '2.85'],
  ['distance', 'km', 'peer_distance', 'km', '1000', '1000'],
  ['energy', 'kWh', 'MWh', 'MWh', '1000', '1.000'],
  ['energy', 'GJ', 'MWh', 'MWh', '1000', '278'],
  ['energy', 'kWh', 'BTU', 'kWh', '1000', '1000'],
  ['pressure', 'hPa', 'inHg', 'inHg', '1000.0', '29.53'],
  ['pressure', 'kPa', 'hPa', 'hPa', '1.234', '12.340'],
  ['pressure', 'hPa', 'mmHg', 'mmHg', '1000', '750'],
  ['atmospheric_pressure', 'hPa', 'mmHg', 'mmHg', '1000', '750'],
  ['pressure', 'hPa', 'peer_pressure', 'hPa', '1000', '1000'],
  ['atmospheric_pressure', 'inHg', 'hPa', 'hPa', '-0.0', '0.0'],
  ['atmospheric_pressure', 'inHg', 'hPa', 'hPa', '-1e-05', '0'],
  ['speed', 'km/h', 'mph', 'mph', '100', '62'],
  ['speed', 'mm/d', 'in/h', 'in/h', '78', '0.13'],
  ['speed', 'km/h', 'peer_distance', 'km/h', '100', '100'],
  ['temperature', '°C', '°F', '°F', '37.5', '99.5'],
  ['temperature', '°F', '°C', '°C', '100', '38'],
  ['volume', 'm³', 'ft³', 'ft³', '100', '3531'],
  ['volume', 'L', 'fl. oz.', 'fl. oz.', '2.3', '77.8'],
  ['volume', 'm³', 'peer_distance', 'm³', '100', '100'],
  ['weight', 'g', 'oz', 'oz', '100', '3.5'],
  ['weight', 'oz', 'g', 'g', '78', '2211'],
  ['weight', 'g', 'peer_distance', 'g', '100', '100'],
  ['power', 'W', 'kW', 'kW', '1500', '1.500'],
];

function result<T = unknown>(m: WsMessage): T {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result as T;
}

function error(m: WsMessage): { code: string; message: string } {
  if (m.success !== false) throw new Error(`command succeeded: ${JSON.stringify(m)}`);
  return m.error as { code: string; message: string };
}

async function setup(t: Teardown, dataDir?: string): Promise<{ core: Core; client: WsClient; stop: () => Promise<void> }> {
  const th = await startTestHub(t, dataDir === undefined ? {} : { dataDir });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { core: th.hub.core, client, stop: () => th.hub.stop() };
}

/** What a client sees of one entity: its state and unit over `get_states`. */
async function seen(client: WsClient, entityId: string): Promise<{ state: string; unit: unknown; attributes: Record<string, unknown> }> {
  const states = result<{ entity_id: string; state: string; attributes: Record<string, unknown> }[]>(await client.command('get_states'));
  const st = states.find((s) => s.entity_id === entityId);
  if (st === undefined) throw new Error(`no state for ${entityId}`);
  return { state: st.state, unit: st.attributes.unit_of_measurement, attributes: st.attributes };
}

t.test("a chosen unit converts the state as Home Assistant's sensor does, and going back restores it", async (t) => {
  const { core, client } = await setup(t);
  for (const [i, [deviceClass, native, custom, shown, value, converted]] of CASES.entries()) {
    const entityId = `sensor.case_${i}`;
    const what = `${value} ${native} as ${custom} (${deviceClass})`;
    addSensor(core, { entityId, owner: 'test', uniqueId: `case_${i}`, name: `Case ${i}`, deviceClass, unit: native }).report(value);
    t.same(await seen(client, entityId).then((s) => [s.state, s.unit]), [value, native], `${what}: native at first`);
    const reply = result<{ entity_entry: { options: unknown } }>(
      await client.command('config/entity_registry/update', {
        entity_id: entityId,
        options_domain: 'sensor',
        options: { unit_of_measurement: custom },
      }),
    );
    t.same(reply.entity_entry.options, { sensor: { unit_of_measurement: custom } }, `${what}: the entry holds the option`);
    t.same(await seen(client, entityId).then((s) => [s.state, s.unit]), [converted, shown], what);
    result(
      await client.command('config/entity_registry/update', {
        entity_id: entityId,
        options_domain: 'sensor',
        options: { unit_of_measurement: native },
      }),
    );
    t.same(await seen(client, entityId).then((s) => [s.state, s.unit]), [value, native], `${what}: back to the native unit`);
    result(await client.command('config/entity_registry/update', { entity_id: entityId, options_domain: 'sensor', options: null }));
    t.same(await seen(client, entityId).then((s) => [s.state, s.unit]), [value, native], `${what}: options removed`);
  }
});

t.test('new readings are converted, unavailable keeps the chosen unit, a display precision is listed for display', async (t) => {
  const { core, client } = await setup(t);
  const sensor = addSensor(core, {
    entityId: 'sensor.outside',
    owner: 'test',
    uniqueId: 'outside',
    name: 'Outside',
    deviceClass: 'temperature',
    unit: '°C',
  });
  sensor.report('20.0');
  result(
    await client.command('config/entity_registry/update', {
      entity_id: 'sensor.outside',
      options_domain: 'sensor',
      options: { unit_of_measurement: '°F' },
    }),
  );
  t.same(await seen(client, 'sensor.outside').then((s) => [s.state, s.unit]), ['68.0', '°F']);
  sensor.report('21.5');
  t.same(await seen(client, 'sensor.outside').then((s) => [s.state, s.unit]), ['70.7', '°F'], 'the next reading too');
  sensor.entity.markUnavailable();
  t.same(await seen(client, 'sensor.outside').then((s) => [s.state, s.unit]), ['unavailable', '°F']);
  sensor.report('21.5');

  // With a display precision HA leaves the converted value unrounded: the frontend rounds it for display.
  result(
    await client.command('config/entity_registry/update', {
      entity_id: 'sensor.outside',
      options_domain: 'sensor',
      options: { unit_of_measurement: '°F', display_precision: 1 },
    }),
  );
  t.equal((await seen(client, 'sensor.outside')).state, '70.7', '21.5 °C is 70.7 °F exactly');
  const display = result<{ entities: { ei: string; dp?: number }[] }>(await client.command('config/entity_registry/list_for_display'));
  t.equal(display.entities.find((e) => e.ei === 'sensor.outside')?.dp, 1, 'list_for_display carries dp');
  const entry = result<{ options: unknown }>(await client.command('config/entity_registry/get', { entity_id: 'sensor.outside' }));
  t.same(entry.options, { sensor: { unit_of_measurement: '°F', display_precision: 1 } });

  const units = result<{ units: string[] }>(await client.command('sensor/device_class_convertible_units', { device_class: 'temperature' }));
  t.same(units, { units: ['K', '°C', '°F'] });
  t.same(result(await client.command('sensor/device_class_convertible_units', { device_class: 'battery' })), { units: [] });
});

t.test("a sensor's own precision is its suggested display precision, scaled to the unit it is shown in", async (t) => {
  const { core, client } = await setup(t);
  addSensor(core, { entityId: 'sensor.load', owner: 'test', uniqueId: 'load', deviceClass: 'power', unit: 'W', precision: 0 }).report(1500);
  const entry = async () => result<{ options: unknown }>(await client.command('config/entity_registry/get', { entity_id: 'sensor.load' }));
  t.same((await entry()).options, { sensor: { suggested_display_precision: 0 } });
  result(
    await client.command('config/entity_registry/update', {
      entity_id: 'sensor.load',
      options_domain: 'sensor',
      options: { unit_of_measurement: 'kW' },
    }),
  );
  t.same((await entry()).options, { sensor: { unit_of_measurement: 'kW', suggested_display_precision: 3 } }, 'a kilowatt shows 3 more');
  // With a display precision the state is the converted value unrounded, as Home Assistant writes it.
  t.same(await seen(client, 'sensor.load').then((s) => [s.state, s.unit]), ['1.5', 'kW']);
  const display = result<{ entities: { ei: string; dp?: number }[] }>(await client.command('config/entity_registry/list_for_display'));
  t.equal(display.entities.find((e) => e.ei === 'sensor.load')?.dp, 3);
  const unregistered = addSensor(core, { entityId: 'sensor.spare', owner: 'test', unit: 'W', deviceClass: 'power', precision: 1 });
  unregistered.report(2);
  const spare = result<{ options: unknown }>(await client.command('config/entity_registry/get', { entity_id: 'sensor.spare' }));
  t.same(spare.options, {}, 'without a unique id, as HA keeps no options for an unregistered sensor');
});

t.test('bad options and device classes are refused, naming the field', async (t) => {
  const { core, client } = await setup(t);
  addSensor(core, { entityId: 'sensor.power', owner: 'test', uniqueId: 'power', deviceClass: 'power', unit: 'W' }).report('5');
  const update = (fields: Record<string, unknown>) =>
    client.command('config/entity_registry/update', { entity_id: 'sensor.power', ...fields });
  t.match(error(await update({ options_domain: 'sensor', options: { display_precision: -1 } })), {
    code: 'invalid_format',
    message: /display_precision.*0 to 15/,
  });
  t.match(error(await update({ options_domain: 'sensor', options: { unit_of_measurement: 5 } })), { message: /unit_of_measurement/ });
  t.match(error(await update({ options_domain: 'sensor' })), { message: /options/ });
  t.match(error(await update({ options_domain: '__proto__.x y', options: {} })), { message: /options_domain/ });
  t.match(error(await update({ options_domain: 'sensor', options: [] })), { message: /options/ });
  t.match(error(await update({ device_class: 'toaster' })), {
    code: 'invalid_format',
    message: /device_class: sensor has no device class toaster/,
  });
  t.equal((await seen(client, 'sensor.power')).state, '5', 'nothing changed');
});

t.test('a device class chosen for a binary sensor or a cover shows in its state; null goes back', async (t) => {
  const { core, client } = await setup(t);
  const door = core.entities.add({
    entityId: 'binary_sensor.front',
    owner: 'test',
    platform: null,
    uniqueId: 'front',
    fixed: { device_class: 'door' },
  });
  door.report('on');
  const reply = result<{ entity_entry: { device_class: unknown; original_device_class: unknown } }>(
    await client.command('config/entity_registry/update', { entity_id: 'binary_sensor.front', device_class: 'window' }),
  );
  t.same([reply.entity_entry.device_class, reply.entity_entry.original_device_class], ['window', 'door']);
  t.equal((await seen(client, 'binary_sensor.front')).attributes.device_class, 'window');
  result(await client.command('config/entity_registry/update', { entity_id: 'binary_sensor.front', device_class: null }));
  t.equal((await seen(client, 'binary_sensor.front')).attributes.device_class, 'door');
});

t.test('the unit and device class survive a restart', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-units-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await setup(t, dataDir);
  addSensor(first.core, { entityId: 'sensor.rain', owner: 'test', uniqueId: 'rain', deviceClass: 'precipitation', unit: 'mm' }).report(
    '25.4',
  );
  result(
    await first.client.command('config/entity_registry/update', {
      entity_id: 'sensor.rain',
      options_domain: 'sensor',
      options: { unit_of_measurement: 'in' },
    }),
  );
  // 25.4 mm is 1 in; the inch is 25 times larger, so one more decimal than the reading had (HA's rounding).
  t.same(await seen(first.client, 'sensor.rain').then((s) => [s.state, s.unit]), ['1.00', 'in']);
  first.core.entities.add({
    entityId: 'binary_sensor.garage',
    owner: 'test',
    platform: null,
    uniqueId: 'garage',
    fixed: { device_class: 'door' },
  });
  result(await first.client.command('config/entity_registry/update', { entity_id: 'binary_sensor.garage', device_class: 'garage_door' }));
  await first.client.close();
  await first.stop();
  const second = await setup(t, dataDir);
  addSensor(second.core, { entityId: 'sensor.rain', owner: 'test', uniqueId: 'rain', deviceClass: 'precipitation', unit: 'mm' }).report(
    '50.8',
  );
  t.same(await seen(second.client, 'sensor.rain').then((s) => [s.state, s.unit]), ['2.00', 'in']);
  second.core.entities
    .add({ entityId: 'binary_sensor.garage', owner: 'test', platform: null, uniqueId: 'garage', fixed: { device_class: 'door' } })
    .report('off');
  t.equal((await seen(second.client, 'binary_sensor.garage')).attributes.device_class, 'garage_door');
});
