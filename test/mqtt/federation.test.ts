import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { addSwitch } from '../../src/domains/switch.js';
import { ServeProcess } from '../cli/cli-process.js';
import { startTestHub } from '../helpers/hub.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { mqttYaml, startMqttHub, waitState } from './hubs.js';

const GARAGE = `
areas:
  - {name: Garage}
customize:
  switch.garage_light: {area: garage}
virtual:
  - {platform: switch, id: garage_light, name: Garage Light}
  - {platform: light, id: workbench, name: Workbench, color_modes: [brightness], device: {name: Bench Dimmer, manufacturer: ACME, model: D1}}
  - {platform: sensor, id: garage_temperature, name: Garage Temperature, device_class: temperature, min: 10, max: 11, interval: 3600}
  - {platform: climate, id: garage, name: Garage Heater, hvac_modes: ["off", heat], hvac_mode: heat, current_temperature: 12, presets: {none: , eco: 10}}
  - {platform: fan, id: garage_vent, name: Garage Vent, speed_count: 4, oscillate: true}
  - {platform: cover, id: garage_door, name: Garage Door, device_class: garage, travel_time: 0.2}
  - {platform: lock, id: side_door, name: Side Door, transition_time: 0.1}
  - {platform: button, id: garage_chime, name: Garage Chime}
  - {platform: number, id: heater_offset, name: Heater Offset, min: -5, max: 5, step: 0.5, initial: 0}
  - {platform: select, id: vent_program, name: Vent Program, options: [night, day, party], initial: day}
`;
const HOUSE = `
virtual:
  - {platform: switch, id: kettle, name: Kettle}
`;
const SHED = `
virtual:
  - {platform: switch, id: shed_pump, name: Shed Pump}
`;

t.test('two and three hubs see and control each other through one broker, without echo', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['hearth/#', 'homeassistant/#']);
  const garage = await startMqttHub(t, broker, 'Garage', GARAGE);
  const house = await startMqttHub(t, broker, 'House', HOUSE);
  const core = house.hub.core;

  const mirrored = await waitState(core, 'switch.garage_light', (s) => s.state === 'off');
  t.equal(mirrored.attributes.friendly_name, 'Garage Light', "the other hub's entity under its own id and name");
  await waitState(core, 'sensor.garage_temperature', (s) => s.attributes.device_class === 'temperature');
  const bench = await waitState(core, 'light.workbench', (s) => s.state === 'off');
  t.same(bench.attributes.supported_color_modes, ['brightness']);
  const entry = house.hub.registries.entities.entry('switch.garage_light');
  t.equal(entry?.area_id, 'garage', 'the area travels with the entity (created here)');
  const dimmer = [...core.devices.all()].find((d) => d.name === 'Bench Dimmer');
  t.equal(dimmer?.manufacturer, 'ACME', 'the device travels too');
  await waitState(garage.hub.core, 'switch.kettle', (s) => s.state === 'off');
  t.pass('and the other way round');

  // Control across hubs, and the state comes back once.
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.garage_light' });
  await waitState(garage.hub.core, 'switch.garage_light', (s) => s.state === 'on');
  await waitState(core, 'switch.garage_light', (s) => s.state === 'on');
  await core.services.call('light', 'turn_on', { entity_id: 'light.workbench', brightness: 100 });
  const lit = await waitState(core, 'light.workbench', (s) => s.state === 'on' && s.attributes.brightness === 100);
  t.equal(garage.hub.core.states.get('light.workbench')?.attributes.brightness, 100, 'the brightness reached the origin');
  t.equal(lit.attributes.color_mode, 'brightness');

  // Thermostats, fans, covers and locks cross over with their capabilities, and obey.
  const heater = await waitState(core, 'climate.garage', (s) => s.state === 'heat' && s.attributes.current_temperature === 12);
  t.same(heater.attributes.hvac_modes, ['off', 'heat'], 'the thermostat keeps its modes');
  await core.services.call('climate', 'set_preset_mode', { entity_id: 'climate.garage', preset_mode: 'eco' });
  await waitState(garage.hub.core, 'climate.garage', (s) => s.attributes.preset_mode === 'eco');
  await waitState(core, 'climate.garage', (s) => s.attributes.preset_mode === 'eco');
  await core.services.call('climate', 'set_temperature', { entity_id: 'climate.garage', temperature: 16.5 });
  await waitState(garage.hub.core, 'climate.garage', (s) => s.attributes.temperature === 16.5);
  await waitState(core, 'climate.garage', (s) => s.attributes.temperature === 16.5);
  await core.services.call('climate', 'set_hvac_mode', { entity_id: 'climate.garage', hvac_mode: 'off' });
  await waitState(garage.hub.core, 'climate.garage', (s) => s.state === 'off');
  await t.rejects(
    core.services.call('climate', 'set_hvac_mode', { entity_id: 'climate.garage', hvac_mode: 'cool' }),
    /cool/,
    'a mode the origin lacks is refused here, by the same validation',
  );
  await core.services.call('fan', 'set_percentage', { entity_id: 'fan.garage_vent', percentage: 50 });
  await waitState(garage.hub.core, 'fan.garage_vent', (s) => s.state === 'on' && s.attributes.percentage === 50);
  await waitState(core, 'fan.garage_vent', (s) => s.state === 'on' && s.attributes.percentage === 50);
  await core.services.call('fan', 'oscillate', { entity_id: 'fan.garage_vent', oscillating: true });
  await waitState(core, 'fan.garage_vent', (s) => s.attributes.oscillating === true);
  await core.services.call('cover', 'open_cover', { entity_id: 'cover.garage_door' });
  await waitState(core, 'cover.garage_door', (s) => s.state === 'open' && s.attributes.current_position === 100);
  await core.services.call('lock', 'unlock', { entity_id: 'lock.side_door' });
  await waitState(core, 'lock.side_door', (s) => s.state === 'unlocked');

  // Buttons, numbers and selects: pressed, set and chosen here, done there, with the same validation.
  const chime = await waitState(core, 'button.garage_chime', (s) => s.state === 'unknown');
  t.ok(chime, 'a button crosses over, unknown until pressed');
  await core.services.call('button', 'press', { entity_id: 'button.garage_chime' });
  await waitState(garage.hub.core, 'button.garage_chime', (s) => s.state !== 'unknown');
  t.not(core.states.get('button.garage_chime')?.state, 'unknown', 'the press time shows on both hubs');
  const offset = await waitState(core, 'number.heater_offset', (s) => s.state === '0');
  t.match(offset.attributes, { min: -5, max: 5, step: 0.5, mode: 'auto' }, 'a number keeps its range');
  await core.services.call('number', 'set_value', { entity_id: 'number.heater_offset', value: -2.5 });
  await waitState(garage.hub.core, 'number.heater_offset', (s) => s.state === '-2.5');
  await waitState(core, 'number.heater_offset', (s) => s.state === '-2.5');
  await t.rejects(core.services.call('number', 'set_value', { entity_id: 'number.heater_offset', value: 9 }), {
    message: /outside valid range -5\.0 - 5\.0/,
  });
  const program = await waitState(core, 'select.vent_program', (s) => s.state === 'day');
  t.same(program.attributes.options, ['night', 'day', 'party'], 'a select keeps its options');
  await core.services.call('select', 'select_next', { entity_id: 'select.vent_program' });
  await waitState(garage.hub.core, 'select.vent_program', (s) => s.state === 'party');
  await waitState(core, 'select.vent_program', (s) => s.state === 'party');
  await t.rejects(core.services.call('select', 'select_option', { entity_id: 'select.vent_program', option: 'off' }), {
    message: /valid options are: night, day, party/,
  });

  await house.hub.mqtt?.settled();
  await garage.hub.mqtt?.settled();
  const houseConfigs = [...w.latest.keys()].filter((k) => k.includes('/house/') && w.latest.get(k) !== '');
  t.same(
    houseConfigs.filter((k) => k.startsWith('homeassistant/')).sort(),
    ['homeassistant/switch/house/switch_kettle/config'],
    'a hub never re-publishes what it adopted',
  );
  const stateTopic = 'hearth/garage/switch.garage_light/state';
  const before = w.log.filter((m) => m.topic === stateTopic).length;
  await core.services.call('switch', 'turn_off', { entity_id: 'switch.garage_light' });
  await waitState(core, 'switch.garage_light', (s) => s.state === 'off');
  await garage.hub.mqtt?.settled();
  await w.waitFor(stateTopic, (p) => p === 'off');
  // A round trip through the broker after the change: anything looping would have arrived before it.
  await w.publish('hearth/probe', 'x');
  await w.waitFor('hearth/probe');
  t.equal(w.log.filter((m) => m.topic === stateTopic).length - before, 1, 'one state message per change: nothing loops');

  // An entity the garage adds later shares the garage's status topic with the others, whose retained message the
  // house received long ago: it must still be available there.
  const late = addSwitch(garage.hub.core, {
    entityId: 'switch.late_addition',
    owner: 'test',
    name: 'Late',
    platform: { turnOn() {}, turnOff() {} },
  });
  late.report(true);
  await waitState(core, 'switch.late_addition', (s) => s.state === 'on');
  t.pass('a late entity is available on the other hub');

  // A third hub sees both, each once.
  const shed = await startMqttHub(t, broker, 'Shed', SHED);
  await waitState(shed.hub.core, 'switch.garage_light', () => true);
  await waitState(shed.hub.core, 'switch.kettle', () => true);
  await waitState(garage.hub.core, 'switch.shed_pump', () => true);
  await waitState(core, 'switch.shed_pump', () => true);
  await shed.hub.mqtt?.settled();
  const ids = [...shed.hub.core.entities.all()].map((e) => e.id).sort();
  t.same(
    ids,
    [
      'button.garage_chime',
      'climate.garage',
      'cover.garage_door',
      'fan.garage_vent',
      'light.workbench',
      'lock.side_door',
      'number.heater_offset',
      'select.vent_program',
      'sensor.garage_temperature',
      'switch.garage_light',
      'switch.kettle',
      'switch.late_addition',
      'switch.shed_pump',
    ],
    'three hubs: no duplicates',
  );
  const warned = [...garage.logs, ...house.logs, ...shed.logs].filter((l) => l.level === 'warn' && l.msg.startsWith('MQTT'));
  t.same(warned, [], 'every payload was understood');
});

t.test('a hub killed with kill -9 goes unavailable elsewhere (its last will) and comes back without duplicates', async (t) => {
  const broker = await startBroker(t);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-mqtt-fed-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const configFile = join(dir, 'configuration.yaml');
  await writeFile(configFile, mqttYaml(broker, 'Garage', GARAGE));
  const spawnGarage = (): ServeProcess => {
    const p = new ServeProcess(['--config', configFile, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0']);
    t.teardown(() => p.kill());
    return p;
  };
  const house = await startMqttHub(t, broker, 'House', HOUSE);
  const core = house.hub.core;

  const first = spawnGarage();
  await first.waitForLog('MQTT connected');
  await waitState(core, 'switch.garage_light', (s) => s.state === 'off', 20_000);
  const count = core.entities.size;
  first.child.kill('SIGKILL');
  await waitState(core, 'switch.garage_light', (s) => s.state === 'unavailable', 15_000);
  t.equal(core.states.get('light.workbench')?.state, 'unavailable', 'every entity of the killed hub');
  t.equal(core.states.get('switch.kettle')?.state, 'off', "this hub's own entities are not affected");
  await first.exited;

  const second = spawnGarage();
  await second.waitForLog('MQTT connected');
  await waitState(core, 'switch.garage_light', (s) => s.state === 'off', 20_000);
  await waitState(core, 'light.workbench', (s) => s.state === 'off');
  t.equal(core.entities.size, count, 'the same entities, no duplicates');
  t.notOk(core.states.get('switch.garage_light_2'), 'no second copy');
  await second.stop('SIGTERM', 5000);
  await waitState(core, 'switch.garage_light', (s) => s.state === 'unavailable');
  t.pass('a clean stop says offline too');
});

/** The README's ACL ("Install mosquitto on a Raspberry Pi and join two hubs"), word for word: each hub its own topics, read access to the others', commands to them. */
const README_ACL = [
  'pattern readwrite hearth/%u/#',
  'pattern readwrite homeassistant/+/%u/#',
  'pattern read hearth/+/status',
  'pattern read hearth/+/+/state',
  'pattern read hearth/+/+/attributes',
  'pattern read hearth/+/+/availability',
  'pattern write hearth/+/+/set',
  'pattern write hearth/+/+/+/set',
  'pattern read homeassistant/#',
];

t.test("the README's mosquitto ACL: each hub writes only its own topics, and federation works through it", async (t) => {
  const broker = await startBroker(t, {
    users: [
      { username: 'garage', password: 'garage-pw' },
      { username: 'house', password: 'house-pw' },
    ],
    aclPatterns: README_ACL,
  });
  const w = await watch(t, broker, ['#']);
  const userYaml = (user: string, pw: string, extra: string) =>
    mqttYaml({ ...broker, username: user, password: pw }, user === 'garage' ? 'Garage' : 'House', extra);
  const garage = await startTestHub(t, { yaml: userYaml('garage', 'garage-pw', GARAGE) });
  const house = await startTestHub(t, { yaml: userYaml('house', 'house-pw', HOUSE) });
  await waitState(house.hub.core, 'switch.garage_light', (s) => s.state === 'off');
  await waitState(garage.hub.core, 'switch.kettle', (s) => s.state === 'off');
  await house.hub.core.services.call('switch', 'turn_on', { entity_id: 'switch.garage_light' });
  await waitState(garage.hub.core, 'switch.garage_light', (s) => s.state === 'on');
  await waitState(house.hub.core, 'switch.garage_light', (s) => s.state === 'on');
  t.pass('mirrored and controlled through the ACL');

  // The garage's user may not write the house's topics: the broker drops it.
  garage.hub.mqtt?.publish('hearth/house/switch.kettle/state', 'on', 0, true);
  garage.hub.mqtt?.publish('hearth/garage/probe', 'after');
  await w.waitFor('hearth/garage/probe');
  t.notOk(
    w.log.some((m) => m.topic === 'hearth/house/switch.kettle/state' && m.payload === 'on'),
    "another hub's topic is refused",
  );
  t.equal(house.hub.core.states.get('switch.kettle')?.state, 'off');
});
