import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { mqttYaml, startMqttHub, waitState } from './hubs.js';

const DEVICES = `
areas:
  - {name: Kitchen}
  - {name: Garage}
customize:
  light.kitchen: {area: kitchen}
  cover.garage_door: {area: garage}
virtual:
  - {platform: light, id: kitchen, name: Kitchen, color_modes: [hs, color_temp], effects: [colorloop]}
  - {platform: switch, id: coffee_maker, name: Coffee Maker, device_class: outlet, device: {name: Kitchen Strip, manufacturer: ACME, model: S4}}
  - {platform: switch, id: garden_pump, name: Garden Pump}
  - {platform: cover, id: garage_door, name: Garage Door, device_class: garage, travel_time: 1}
  - {platform: cover, id: blinds, name: Blinds, travel_time: 1}
  - {platform: lock, id: back_door, name: Back Door, transition_time: 0.1}
  - {platform: climate, id: hall, name: Hall Thermostat, hvac_modes: ["off", heat], hvac_mode: heat, current_temperature: 19, presets: {none: , eco: 17}}
  - {platform: fan, id: desk, name: Desk Fan, speed_count: 3, oscillate: true}
  - {platform: alarm_control_panel, id: alarm, name: Alarm, code: "1234"}
  - {platform: sensor, id: outdoor, name: Outdoor, device_class: temperature, min: 4, max: 17, interval: 3600}
  - {platform: binary_sensor, id: motion, name: Motion, device_class: motion, mean_interval: 3600, on_duration: 1}
  - {platform: button, id: doorbell_test, name: Doorbell Test, device_class: identify}
  - {platform: number, id: boiler_setpoint, name: Boiler Setpoint, min: 40, max: 80, step: 0.5, initial: 60, mode: box, unit_of_measurement: °C}
  - {platform: select, id: boiler_mode, name: Boiler Mode, options: [eco, comfort, boost]}
`;

/** Required keys of Home Assistant's discovery schema per component (the PLATFORM_SCHEMA_MODERN of each platform). */
const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  light: ['command_topic', 'schema'],
  switch: ['command_topic'],
  sensor: ['state_topic'],
  binary_sensor: ['state_topic'],
  cover: [],
  lock: ['command_topic'],
  climate: [],
  fan: ['command_topic'],
  alarm_control_panel: ['command_topic', 'state_topic'],
  button: ['command_topic'],
  number: ['command_topic'],
  select: ['command_topic', 'options'],
};

t.test('entities are announced with Home Assistant discovery, mirrored and controlled over MQTT', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#', 'hearth/#']);
  const a = await startMqttHub(t, broker, 'Test Home', DEVICES, '  exclude: {areas: [garage]}');
  const cfgTopic = (domain: string, id: string) => `homeassistant/${domain}/test_home/${domain}_${id}/config`;

  const published = [
    'light.kitchen',
    'switch.coffee_maker',
    'switch.garden_pump',
    'cover.blinds',
    'lock.back_door',
    'climate.hall',
    'fan.desk',
    'alarm_control_panel.alarm',
    'sensor.outdoor',
    'binary_sensor.motion',
    'button.doorbell_test',
    'number.boiler_setpoint',
    'select.boiler_mode',
  ];
  for (const id of published) {
    const [domain = '', object = ''] = id.split('.');
    const text = await w.waitFor(cfgTopic(domain, object), (p) => p !== '');
    const config = JSON.parse(text) as Record<string, unknown>;
    const missing = (REQUIRED[domain] ?? []).filter((k) => config[k] === undefined);
    t.same(missing, [], `${id}: the config has ${domain}'s required keys`);
    t.ok(
      typeof config.unique_id === 'string' && (config.unique_id as string).startsWith('test_home_'),
      `${id}: a unique id from the hub's id`,
    );
    const device = config.device as { identifiers?: unknown[] } | undefined;
    t.ok(Array.isArray(device?.identifiers) && device.identifiers.length > 0, `${id}: a device block with identifiers`);
    const availability = config.availability as { topic: string }[];
    t.equal(availability[0]?.topic, 'hearth/test_home/status', `${id}: available while the hub's status is online`);
    for (const [k, v] of Object.entries(config)) {
      if (k.endsWith('_topic') && typeof v === 'string') t.notMatch(v, /[+#]/, `${id}: ${k} has no wildcard`);
    }
  }
  t.notOk(w.latest.get(cfgTopic('cover', 'garage_door')), 'an entity in an excluded area is not announced');

  const light = JSON.parse(w.latest.get(cfgTopic('light', 'kitchen')) ?? '{}') as Record<string, unknown>;
  t.equal(light.schema, 'json');
  t.same(light.supported_color_modes, ['hs', 'color_temp'], 'the light announces its colour modes');
  t.same(light.effect_list, ['colorloop']);
  // schema_json.py: the `color_mode` flag was deprecated in 2024.4 and removed in 2025.3 (supported_color_modes
  // says it all); scale and mireds positive integers.
  t.equal(light.color_mode, undefined, 'no deprecated color_mode flag');
  t.ok(Number.isInteger(light.brightness_scale) && (light.brightness_scale as number) >= 1, 'brightness_scale is an integer >= 1');
  for (const k of ['min_mireds', 'max_mireds']) t.ok(Number.isInteger(light[k]) && (light[k] as number) > 0, `${k} is a positive integer`);
  t.equal(light.effect, true, 'effect with its list');
  t.equal((light.hearth as { area?: string }).area, 'Kitchen', 'the area travels in the hearth field');
  const hall = JSON.parse(w.latest.get(cfgTopic('climate', 'hall')) ?? '{}') as Record<string, unknown>;
  t.same(hall.preset_modes, ['eco'], "climate preset_modes without 'none' (climate.py refuses it)");
  t.same(hall.modes, ['off', 'heat']);
  const strip = JSON.parse(w.latest.get(cfgTopic('switch', 'coffee_maker')) ?? '{}') as { device: Record<string, unknown> };
  t.equal(strip.device.name, 'Kitchen Strip');
  t.equal(strip.device.manufacturer, 'ACME');
  // Every entity here has its own device, so the hub's device is announced by none: no via_device names it.
  const devices = [...w.latest]
    .filter(([k, v]) => k.endsWith('/config') && k.includes('/test_home/') && v !== '')
    .map(([, v]) => (JSON.parse(v) as { device: { identifiers: string[]; via_device?: string } }).device);
  const announced = new Set(devices.flatMap((d) => d.identifiers));
  t.same(
    devices.filter((d) => d.via_device !== undefined && !announced.has(d.via_device)).map((d) => d.via_device),
    [],
    'every via_device names a device that is announced',
  );
  t.equal(strip.device.via_device, undefined, 'the hub device is announced by no entity: no via_device');

  t.equal(await w.waitFor('hearth/test_home/status'), 'online', 'the birth message');
  await w.waitFor('hearth/test_home/switch.coffee_maker/state', (p) => p === 'off');

  // Commands become service calls.
  await w.publish('hearth/test_home/switch.coffee_maker/set', 'ON');
  await waitState(a.hub.core, 'switch.coffee_maker', (s) => s.state === 'on');
  await w.waitFor('hearth/test_home/switch.coffee_maker/state', (p) => p === 'on');
  await w.publish('hearth/test_home/light.kitchen/set', JSON.stringify({ state: 'ON', brightness: 128, color: { h: 120, s: 50 } }));
  const lit = await waitState(a.hub.core, 'light.kitchen', (s) => s.state === 'on');
  t.equal(lit.attributes.brightness, 128, 'the JSON light command sets the brightness');
  t.same(lit.attributes.hs_color, [120, 50]);
  const lightState = JSON.parse(await w.waitFor('hearth/test_home/light.kitchen/state', (p) => p.includes('"ON"'))) as Record<
    string,
    unknown
  >;
  t.equal(lightState.brightness, 128, 'the light state topic carries the JSON schema state');
  await w.publish('hearth/test_home/climate.hall/temperature/set', '21.5');
  await waitState(a.hub.core, 'climate.hall', (s) => s.attributes.temperature === 21.5);
  await w.publish('hearth/test_home/lock.back_door/set', 'UNLOCK');
  await waitState(a.hub.core, 'lock.back_door', (s) => s.state === 'unlocked');

  // A refused command: an error topic each time, one warning per entity.
  await w.publish('hearth/test_home/switch.garden_pump/set', 'BANANA');
  t.match(await w.waitFor('hearth/test_home/switch.garden_pump/error'), /ON or OFF/);
  await w.publish('hearth/test_home/climate.hall/mode/set', 'boil');
  t.match(await w.waitFor('hearth/test_home/climate.hall/error'), /boil|hvac_mode/, 'an invalid mode is refused by the service');
  await w.publish('hearth/test_home/switch.garden_pump/set', 'PEAR');
  await w.waitFor('hearth/test_home/switch.garden_pump/error', (p) => p.includes('PEAR'));
  t.equal(a.logs.filter((l) => l.msg.startsWith('MQTT command refused')).length, 2, 'one warning per entity');
  t.equal(a.hub.core.states.get('switch.garden_pump')?.state, 'off');

  // Button, number and select: their configs as Home Assistant's MQTT platforms read them, commands as service calls.
  const button = JSON.parse(w.latest.get(cfgTopic('button', 'doorbell_test')) ?? '{}') as Record<string, unknown>;
  t.match(button, { payload_press: 'PRESS', device_class: 'identify', command_topic: 'hearth/test_home/button.doorbell_test/set' });
  const setpoint = JSON.parse(w.latest.get(cfgTopic('number', 'boiler_setpoint')) ?? '{}') as Record<string, unknown>;
  t.match(setpoint, {
    min: 40,
    max: 80,
    step: 0.5,
    mode: 'box',
    unit_of_measurement: '°C',
    state_topic: 'hearth/test_home/number.boiler_setpoint/state',
  });
  const mode = JSON.parse(w.latest.get(cfgTopic('select', 'boiler_mode')) ?? '{}') as Record<string, unknown>;
  t.same(mode.options, ['eco', 'comfort', 'boost']);
  await w.publish('hearth/test_home/button.doorbell_test/set', 'PRESS');
  await waitState(a.hub.core, 'button.doorbell_test', (s) => s.state !== 'unknown');
  await w.publish('hearth/test_home/number.boiler_setpoint/set', '65.5');
  await waitState(a.hub.core, 'number.boiler_setpoint', (s) => s.state === '65.5');
  await w.waitFor('hearth/test_home/number.boiler_setpoint/state', (p) => p === '65.5');
  await w.publish('hearth/test_home/select.boiler_mode/set', 'boost');
  await waitState(a.hub.core, 'select.boiler_mode', (s) => s.state === 'boost');
  await w.waitFor('hearth/test_home/select.boiler_mode/state', (p) => p === 'boost');
  await w.publish('hearth/test_home/number.boiler_setpoint/set', '95');
  t.match(
    await w.waitFor('hearth/test_home/number.boiler_setpoint/error'),
    /Value 95\.0 for number\.boiler_setpoint is outside valid range 40\.0 - 80\.0/,
  );
  await w.publish('hearth/test_home/select.boiler_mode/set', 'turbo');
  t.match(await w.waitFor('hearth/test_home/select.boiler_mode/error'), /Option turbo is not valid/);
  await w.publish('hearth/test_home/button.doorbell_test/set', 'HOLD');
  t.match(await w.waitFor('hearth/test_home/button.doorbell_test/error'), /expected PRESS/);
  t.equal(a.hub.core.states.get('number.boiler_setpoint')?.state, '65.5', 'refused commands change nothing');

  // A removed entity's config is emptied.
  a.hub.core.entities.remove('switch.garden_pump');
  await w.waitFor(cfgTopic('switch', 'garden_pump'), (p) => p === '');
  t.pass('a removed entity is withdrawn with an empty retained config');
});

t.test('an entity excluded after a restart has its retained config emptied', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#']);
  const yaml = `
virtual:
  - {platform: switch, id: one, name: One}
  - {platform: switch, id: two, name: Two}
`;
  // The same data directory: the same hub, restarted.
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-mqtt-restart-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestHub(t, { yaml: mqttYaml(broker, 'Shed', yaml), dataDir });
  await w.waitFor('homeassistant/switch/shed/switch_two/config', (p) => p !== '');
  await first.hub.stop();
  await startTestHub(t, { yaml: mqttYaml(broker, 'Shed', yaml, '  exclude: {entities: [switch.two]}'), dataDir });
  await w.waitFor('homeassistant/switch/shed/switch_two/config', (p) => p === '');
  t.ok(w.latest.get('homeassistant/switch/shed/switch_one/config'), 'the other entity stays announced');
});

t.test('two hubs given the same node id by mistake: each says so once and neither withdraws the other', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#']);
  const a = await startMqttHub(t, broker, 'Twin', 'virtual:\n  - {platform: switch, id: one, name: One}\n');
  await w.waitFor('homeassistant/switch/twin/switch_one/config', (p) => p !== '');
  const b = await startMqttHub(t, broker, 'Twin', 'virtual:\n  - {platform: switch, id: two, name: Two}\n');
  await w.waitFor('homeassistant/switch/twin/switch_two/config', (p) => p !== '');
  await b.hub.mqtt?.settled();
  await a.hub.mqtt?.settled();
  // A round trip after both announced: an emptied config would have arrived before it.
  await w.publish('homeassistant/probe', 'x');
  await w.waitFor('homeassistant/probe');
  t.notOk(
    w.log.some((m) => m.payload === '' && m.topic.startsWith('homeassistant/switch/twin/')),
    'no config emptied',
  );
  t.equal(b.logs.filter((l) => l.msg.includes('another hearth hub publishes under this node id')).length, 1, 'the clash is logged once');
});

t.test('include and exclude by domain, glob, area and label', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#', 'hearth/filters/status']);
  const yaml = `
labels:
  - {name: Private}
areas:
  - {name: Loft}
customize:
  switch.diary_lamp: {labels: [private]}
  sensor.loft_temperature: {area: loft}
virtual:
  - {platform: switch, id: pump, name: Pump}
  - {platform: switch, id: diary_lamp, name: Diary Lamp}
  - {platform: light, id: kitchen, name: Kitchen, color_modes: [brightness]}
  - {platform: light, id: hall, name: Hall, color_modes: [brightness]}
  - {platform: sensor, id: loft_temperature, name: Loft Temperature, device_class: temperature, min: 1, max: 2, interval: 3600}
  - {platform: sensor, id: cellar_temperature, name: Cellar Temperature, device_class: temperature, min: 1, max: 2, interval: 3600}
`;
  const hub = await startMqttHub(
    t,
    broker,
    'Filters',
    yaml,
    '  include: {domains: [switch], entity_globs: ["light.k*"], areas: [loft]}\n  exclude: {labels: [private]}',
  );
  await w.waitFor('hearth/filters/status', (p) => p === 'online');
  await hub.hub.mqtt?.settled();
  await w.waitFor('homeassistant/sensor/filters/sensor_loft_temperature/config');
  await w.publish('homeassistant/probe', 'x');
  await w.waitFor('homeassistant/probe');
  const announced = [...w.latest.keys()].filter((k) => k.endsWith('/config') && w.latest.get(k) !== '').sort();
  t.same(announced, [
    'homeassistant/light/filters/light_kitchen/config',
    'homeassistant/sensor/filters/sensor_loft_temperature/config',
    'homeassistant/switch/filters/switch_pump/config',
  ]);
  t.equal(hub.hub.mqtt?.counts.published, 3);
});

t.test("a template select's options change: its config is announced again with them", async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#']);
  const yaml = `
input_select:
  modes: {options: [a, b]}
template:
  - select:
      - name: Mode
        state: "{{ states('input_select.modes') }}"
        options: "{{ state_attr('input_select.modes', 'options') }}"
        select_option: []
`;
  const hub = await startMqttHub(t, broker, 'Templates', yaml, '  include: {domains: [select]}');
  const topic = 'homeassistant/select/templates/select_mode/config';
  await w.waitFor(topic, (p) => p !== '' && (JSON.parse(p) as { options: string[] }).options.length === 2);
  await hub.hub.core.services.call('input_select', 'set_options', { entity_id: 'input_select.modes', options: ['a', 'b', 'c'] });
  const again = JSON.parse(await w.waitFor(topic, (p) => p.includes('"c"'))) as { options: string[] };
  t.same(again.options, ['a', 'b', 'c']);
});
