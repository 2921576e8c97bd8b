import t from 'tap';
import { createDeviceEntities, type ZigbeeDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import type { ZigbeeDevice } from '../../../drivers/zigbee/types.js';
import type { Core } from '../../../src/core/core.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { memoryLogger } from '../../helpers/logger.js';
import { waitForState } from '../../helpers/wait.js';
import { coreWithDomains } from './devices-helpers.js';
import { startZigbeeNetwork } from './devices-network.js';

// Service calls through the toZigbee converters, on herdsman's real Controller and the fake stick.

function call(core: Core, domain: string, service: string, data: Record<string, unknown>): Promise<unknown> {
  return core.services.call(domain, service, data as never, { context: core.newContext() });
}

t.test('light.turn_on with brightness and colour temperature: the ZCL commands at the bulb, then its answer', async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('bulb', 'Living Room Bulb');
  net.stick.sent.length = 0;
  await call(core, 'light', 'turn_on', { entity_id: 'light.living_room_bulb', brightness: 128, color_temp_kelvin: 3000 });
  const commands = net.stick.sent.filter((s) => !s.global).map((s) => [s.cluster, s.command, s.payload]);
  t.match(commands, [
    ['genLevelCtrl', 'moveToLevelWithOnOff', { level: 127 }],
    ['lightingColorCtrl', 'moveToColorTemp', { colortemp: 333 }],
  ]);
  const on = core.states.get('light.living_room_bulb');
  t.equal(on?.state, 'on', 'the state follows the converters once the bulb acknowledged');
  t.match(on?.attributes, { brightness: 128, color_mode: 'color_temp', color_temp_kelvin: 3003 });
  // The bulb's own reports follow the answer and agree.
  await waitForState(core, 'sensor.living_room_bulb_linkquality', (s) => s.state === '120');
  await call(core, 'light', 'turn_off', { entity_id: 'light.living_room_bulb' });
  t.match(net.stick.sent.at(-1), { cluster: 'genOnOff', command: 'off' });
  t.equal(core.states.get('light.living_room_bulb')?.state, 'off');
});

t.test('a colour change of a light that is on sends the colour only', async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('bulb', 'Bulb');
  await call(core, 'light', 'turn_on', { entity_id: 'light.bulb' });
  net.stick.sent.length = 0;
  await call(core, 'light', 'turn_on', { entity_id: 'light.bulb', color_temp_kelvin: 2700 });
  t.same(
    net.stick.sent.filter((s) => !s.global).map((s) => s.command),
    ['moveToColorTemp'],
  );
});

t.test('a command the device never takes rejects the call, naming the device; the state stays', async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('bulb', 'Desk Lamp');
  await call(core, 'light', 'turn_on', { entity_id: 'light.desk_lamp', brightness: 200 });
  const before = core.states.get('light.desk_lamp');
  t.equal(before?.state, 'on');
  // herdsman sends cluster commands without asking for a default response: the failure a user meets is a
  // device that does not take delivery (out of range, battery out), which the stick reports as a timeout.
  net.stick.setReachable(CATALOGUE.bulb.ieee, false);
  await t.rejects(call(core, 'light', 'turn_on', { entity_id: 'light.desk_lamp', brightness: 10 }), {
    message: /Desk Lamp .* did not accept state: .*[Tt]imeout/,
  });
  t.equal(core.states.get('light.desk_lamp'), before);
});

t.test('optimistic devices show the asked state at once and put it back when sending fails', async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('bulb', 'Porch');
  net.options[CATALOGUE.bulb.ieee] = { optimistic: true };
  net.stick.setReachable(CATALOGUE.bulb.ieee, false);
  const seen: string[] = [];
  core.bus.on('test', 'state_changed', (e) => e.data.entity_id === 'light.porch' && seen.push(e.data.new_state?.state ?? ''));
  await t.rejects(call(core, 'light', 'turn_on', { entity_id: 'light.porch' }));
  t.same(seen, ['on', 'unknown'], 'on at once, then back to what it was');
});

t.test("a TRV: set_temperature through the Danfoss setpoint command; the state follows the valve's report", async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('trv', 'Bedroom Radiator');
  net.stick.sent.length = 0;
  await call(core, 'climate', 'set_temperature', { entity_id: 'climate.bedroom_radiator', temperature: 21.5 });
  t.match(
    net.stick.sent.find((s) => s.cluster === 'hvacThermostat'),
    { command: 'danfossSetpointCommand', payload: { setpoint: 2150 } },
  );
  t.equal(
    core.states.get('climate.bedroom_radiator')?.state,
    'unknown',
    "Danfoss's converter claims no state: the valve's report will say",
  );
  net.stick.report(CATALOGUE.trv.ieee, 1, 'hvacThermostat', { occupiedHeatingSetpoint: 2150, localTemp: 2000 });
  const s = await waitForState(core, 'climate.bedroom_radiator', (x) => x.attributes.temperature === 21.5);
  t.equal(s.state, 'heat');
  t.equal(s.attributes.current_temperature, 20);
});

t.test('unavailable and back; rename keeps entity ids; remove takes the entities and the registry entry', async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  const weather = await net.pair('weather', 'Living Room');
  net.stick.report(CATALOGUE.weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2345 });
  await waitForState(core, 'sensor.living_room_temperature', (s) => s.state === '23.45');
  weather.setAvailable(false);
  for (const e of weather.entities) t.equal(core.states.get(e.id)?.state, 'unavailable', `${e.id} unavailable`);
  t.equal(core.states.get('sensor.living_room_temperature')?.attributes.unit_of_measurement, '°C', 'fixed attributes stay');
  weather.setAvailable(true);
  t.equal(core.states.get('sensor.living_room_temperature')?.state, '23.45');

  weather.rename('Lounge');
  t.equal(core.states.get('sensor.living_room_temperature')?.attributes.friendly_name, 'Lounge Temperature');
  t.equal(core.devices.byIdentifierOf(['zigbee', CATALOGUE.weather.ieee])?.name, 'Lounge');

  weather.remove();
  t.equal(core.states.get('sensor.living_room_temperature'), undefined);
  t.equal(core.devices.byIdentifierOf(['zigbee', CATALOGUE.weather.ieee]), undefined);
  net.stick.report(CATALOGUE.weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 1000 });
  await weather.settled();
  t.equal(core.states.get('sensor.living_room_temperature'), undefined, 'a late message brings nothing back');
});

t.test("configure runs the definition's binds and reporting; a device that fails it throws (the configurer retries)", async (t) => {
  const log = memoryLogger();
  const core = coreWithDomains(log);
  const net = await startZigbeeNetwork(t, core, log);
  const plug = await net.pair('plug', 'Kettle');
  net.stick.sent.length = 0;
  await plug.configure();
  t.ok(
    net.stick.sent.some((s) => s.command === 'configReport'),
    'reporting configured at the device',
  );
  net.stick.setReachable(CATALOGUE.plug.ieee, false);
  await t.rejects(plug.configure(), /Timeout/);
});

t.test("after a restart the last reported values show at once, from herdsman's cache, and nothing is sent", async (t) => {
  const core = coreWithDomains();
  const net = await startZigbeeNetwork(t, core);
  await net.pair('weather', 'Living Room');
  await net.pair('bulb', 'Lamp');
  net.stick.report(CATALOGUE.weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2345 });
  // The bulb's own report after the command is what herdsman keeps.
  const reported = new Promise<void>((resolve) =>
    net.controller.on('message', (m) => m.device.ieeeAddr === CATALOGUE.bulb.ieee && m.cluster === 'genOnOff' && resolve()),
  );
  await call(core, 'light', 'turn_on', { entity_id: 'light.lamp', brightness: 128 });
  await waitForState(core, 'sensor.living_room_temperature', (s) => s.state === '23.45');
  await reported;

  const restarted = coreWithDomains();
  restarted.devices.register({ identifiers: [net.host.coordinator], name: 'Zigbee coordinator', owner: 'zigbee' });
  const host = { ...net.host, ctx: { ...net.host.ctx, core: restarted } };
  const sentBefore = net.stick.sent.length;
  const weather = await createDeviceEntities(
    host,
    net.controller.getDeviceByIeeeAddr(CATALOGUE.weather.ieee) as ZigbeeDevice,
    'Living Room',
  );
  const lamp = await createDeviceEntities(host, net.controller.getDeviceByIeeeAddr(CATALOGUE.bulb.ieee) as ZigbeeDevice, 'Lamp');
  await (weather as ZigbeeDeviceEntities).settled();
  await (lamp as ZigbeeDeviceEntities).settled();
  t.equal(restarted.states.get('sensor.living_room_temperature')?.state, '23.45');
  t.match(restarted.states.get('light.lamp'), { state: 'on', attributes: { brightness: 128 } });
  t.equal(net.stick.sent.length, sentBefore, 'no command, no read');
  t.equal(restarted.entities.get('light.lamp')?.restore, false, 'restore state never sends the bulb a command at start');
});
