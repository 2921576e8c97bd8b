import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { HubEvent } from '../../src/core/event-bus.js';
import { startBroker } from '../helpers/mosquitto.js';
import { type Watcher, watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

interface Recorded {
  readonly topic: string;
  readonly retain: boolean;
  readonly payload: unknown;
}

function fixture(name: string): Recorded[] {
  const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'mqtt', `${name}.json`), 'utf8');
  return (JSON.parse(text) as { messages: Recorded[] }).messages;
}

async function replay(w: Watcher, messages: readonly Recorded[]): Promise<void> {
  for (const m of messages) {
    const payload = typeof m.payload === 'string' ? m.payload : JSON.stringify(m.payload);
    await w.publish(m.topic, payload, { retain: m.retain, qos: 1 });
  }
}

t.test('a zigbee2mqtt bridge, a Tasmota plug and an ESPHome node become entities and devices', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['zigbee2mqtt/#', 'tasmota_plug/#', 'tasmota_dimmer/#', 'esp-greenhouse/#']);
  // Retained before the hub starts (as a broker holds them), the rest after.
  const all = [...fixture('zigbee2mqtt'), ...fixture('tasmota'), ...fixture('esphome')];
  await replay(
    w,
    all.filter((m) => m.retain),
  );
  const hub = await startMqttHub(t, broker, 'Home', '');
  const core = hub.hub.core;
  // Messages that are not retained reach only subscribers: wait until the adopted entities listen.
  for (const id of [
    'light.hall_dimmer',
    'light.living_room_bulb',
    'sensor.bathroom_climate_temperature',
    'binary_sensor.hall_motion_occupancy',
    'switch.tasmota_plug',
  ]) {
    await waitState(core, id, () => true);
  }
  await hub.hub.mqtt?.settled();
  await replay(
    w,
    all.filter((m) => !m.retain),
  );

  const bulb = await waitState(core, 'light.living_room_bulb', (s) => s.state === 'on');
  t.equal(bulb.attributes.friendly_name, 'Living Room Bulb', 'a name of null takes the device name');
  t.equal(bulb.attributes.color_mode, 'color_temp');
  t.equal(bulb.attributes.brightness, 255, 'brightness scaled from 254 to 255');
  t.equal(bulb.attributes.color_temp_kelvin, 2702, 'mireds to kelvin, rounded down as color_temperature_mired_to_kelvin does');
  t.same(bulb.attributes.supported_color_modes, ['xy', 'color_temp']);
  const temp = await waitState(core, 'sensor.bathroom_climate_temperature', (s) => s.state === '21.37');
  t.equal(temp.attributes.unit_of_measurement, '°C');
  await waitState(core, 'binary_sensor.hall_motion_occupancy', (s) => s.state === 'on');
  const power = await waitState(core, 'select.living_room_bulb_power_on_behavior', (s) => s.state === 'previous');
  t.same(power.attributes.options, ['off', 'on', 'toggle', 'previous'], 'a zigbee2mqtt select: its options, its state through value_json');
  const identify = await waitState(core, 'button.living_room_bulb_identify', (s) => s.state === 'unknown');
  t.equal(identify.attributes.device_class, 'identify', 'a zigbee2mqtt identify button, unknown until pressed');
  const device = [...core.devices.all()].find((d) => d.name === 'Living Room Bulb');
  t.equal(device?.manufacturer, 'Philips', 'the device block becomes a device');
  t.equal(core.entities.get('light.living_room_bulb')?.deviceId, device?.id, 'the entity belongs to it');

  const plug = await waitState(core, 'switch.tasmota_plug', (s) => s.state === 'on');
  t.ok(plug, 'Tasmota: ~ expanded, value template through value_json');
  await waitState(core, 'sensor.tasmota_plug_energy_power', (s) => s.state === '42');
  const dimmer = await waitState(core, 'light.hall_dimmer', (s) => s.state === 'on' && s.attributes.brightness === 102);
  t.same(dimmer.attributes.supported_color_modes, ['brightness'], 'a default-schema dimmer: brightness 40 of 100 is 102 of 255');
  t.pass("Tasmota: value_json['ENERGY']['Power']");

  await waitState(core, 'sensor.esp_greenhouse_temperature', (s) => s.state === '23.4');
  await waitState(core, 'switch.esp_greenhouse_pump', (s) => s.state === 'off');
  const grow = await waitState(core, 'light.esp_greenhouse_grow_light', (s) => s.state === 'on');
  t.equal(grow.attributes.brightness, 200);
  const vent = await waitState(core, 'cover.esp_greenhouse_vent', (s) => s.attributes.current_position === 40);
  t.equal(vent.state, 'open');

  // Commands go back to each device in its own dialect.
  await core.services.call('light', 'turn_on', { entity_id: 'light.living_room_bulb', brightness: 128 });
  const z2mSet = JSON.parse(await w.waitFor('zigbee2mqtt/Living Room Bulb/set')) as Record<string, unknown>;
  t.same(z2mSet, { state: 'ON', brightness: 127 }, 'zigbee2mqtt gets a JSON command on its 254 scale');
  await core.services.call('switch', 'turn_off', { entity_id: 'switch.tasmota_plug' });
  t.equal(await w.waitFor('tasmota_plug/cmnd/POWER'), 'OFF', 'Tasmota gets its POWER command');
  await core.services.call('light', 'turn_on', { entity_id: 'light.hall_dimmer', brightness: 255 });
  t.equal(await w.waitFor('tasmota_dimmer/cmnd/Dimmer'), '100', 'the dimmer gets its brightness on its own scale');
  await core.services.call('light', 'turn_off', { entity_id: 'light.hall_dimmer' });
  t.equal(await w.waitFor('tasmota_dimmer/cmnd/POWER'), 'OFF');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.esp_greenhouse_pump' });
  t.equal(await w.waitFor('esp-greenhouse/switch/pump/command'), 'ON');
  await core.services.call('cover', 'set_cover_position', { entity_id: 'cover.esp_greenhouse_vent', position: 75 });
  t.equal(await w.waitFor('esp-greenhouse/cover/vent/position/command'), '75');

  // ESPHome's number (its state printed with %f, a float here as in Home Assistant) and select.
  const humidity = await waitState(core, 'number.esp_greenhouse_target_humidity', (s) => s.state === '65.0');
  t.same(
    { ...humidity.attributes },
    { min: 30, max: 90, step: 0.5, mode: 'slider', unit_of_measurement: '%', friendly_name: 'esp-greenhouse Target Humidity' },
  );
  await waitState(core, 'select.esp_greenhouse_fan_mode', (s) => s.state === 'Low');
  await core.services.call('number', 'set_value', { entity_id: 'number.esp_greenhouse_target_humidity', value: 70 });
  t.equal(await w.waitFor('esp-greenhouse/number/target_humidity/command'), '70', 'an integral value is sent as an int');
  await t.rejects(core.services.call('number', 'set_value', { entity_id: 'number.esp_greenhouse_target_humidity', value: 95 }), {
    message: /Value 95\.0 for number\.esp_greenhouse_target_humidity is outside valid range 30\.0 - 90\.0/,
  });
  await w.publish('esp-greenhouse/number/target_humidity/state', '95.000000');
  await w.publish('esp-greenhouse/number/target_humidity/state', '70.000000');
  await waitState(core, 'number.esp_greenhouse_target_humidity', (s) => s.state === '70.0');
  await core.services.call('select', 'select_option', { entity_id: 'select.esp_greenhouse_fan_mode', option: 'High' });
  t.equal(await w.waitFor('esp-greenhouse/select/fan_mode/command'), 'High');
  await t.rejects(core.services.call('select', 'select_option', { entity_id: 'select.esp_greenhouse_fan_mode', option: 'Turbo' }), {
    message: /Option Turbo is not valid for entity select\.esp_greenhouse_fan_mode, valid options are: Auto, Low, High/,
  });
  await w.publish('esp-greenhouse/select/fan_mode/state', 'Turbo');
  await w.publish('esp-greenhouse/select/fan_mode/state', 'High');
  const fan = await waitState(core, 'select.esp_greenhouse_fan_mode', (s) => s.state === 'High');
  t.equal(fan.state, 'High', 'a state that is not an option is ignored, the next one read');
  await core.services.call('select', 'select_option', { entity_id: 'select.living_room_bulb_power_on_behavior', option: 'off' });
  t.equal(await w.waitFor('zigbee2mqtt/Living Room Bulb/set/power_on_behavior'), 'off');
  await core.services.call('button', 'press', { entity_id: 'button.living_room_bulb_identify' });
  t.equal(await w.waitFor('zigbee2mqtt/Living Room Bulb/set/identify'), 'identify', 'a press publishes payload_press');
  t.match(core.states.get('button.living_room_bulb_identify')?.state, /^\d{4}-\d\d-\d\dT/, 'and the button shows the press time');

  // Availability follows each publisher's own topic.
  await w.publish('tasmota_plug/tele/LWT', 'Offline', { retain: true });
  await waitState(core, 'switch.tasmota_plug', (s) => s.state === 'unavailable');
  t.equal(core.states.get('sensor.tasmota_plug_energy_power')?.state, 'unavailable', "the plug's sensor too");
  t.equal(core.states.get('switch.esp_greenhouse_pump')?.state, 'off', 'other devices are not affected');
  await w.publish('zigbee2mqtt/bridge/state', JSON.stringify({ state: 'offline' }), { retain: true });
  await waitState(core, 'light.living_room_bulb', (s) => s.state === 'unavailable');
  t.pass('zigbee2mqtt: availability through a value template on the bridge state');

  // A device trigger fires an event.
  const fired = new Promise<HubEvent>((resolve) => {
    const off = core.bus.on('test', 'mqtt_device_trigger', (e) => {
      off();
      resolve(e as HubEvent);
    });
  });
  await w.publish('zigbee2mqtt/Hall Button/action', 'single');
  const event = await fired;
  t.match(event.data, { type: 'action', subtype: 'single', payload: 'single' }, 'the button press is an event');

  // An empty config removes what it announced.
  const removal = new Promise<boolean>((resolve) => {
    const off = core.bus.on('test', 'state_changed', (e) => {
      if (e.data.entity_id === 'switch.esp_greenhouse_pump' && e.data.new_state === null) {
        off();
        resolve(true);
      }
    });
  });
  await w.publish('homeassistant/switch/esp-greenhouse/pump/config', '', { retain: true });
  const removed = await removal;
  t.ok(removed, 'an empty retained config removes the entity');
  const refused = hub.logs.filter((l) => l.level === 'warn' && l.msg.startsWith('MQTT'));
  t.same(refused, [], 'nothing was refused');
});

t.test('malformed and oversized messages are refused with one warning each, nothing else affected', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['x/#']);
  const hub = await startMqttHub(t, broker, 'Home', '', '  max_message_bytes: 2048');
  const core = hub.hub.core;
  const warnings = () => hub.logs.filter((l) => l.level === 'warn' && l.msg.startsWith('MQTT'));
  await w.publish('homeassistant/switch/bad/one/config', '{not json');
  await w.publish('homeassistant/switch/bad/two/config', '[1, 2]');
  await w.publish('homeassistant/switch/bad/three/config', JSON.stringify({ name: 'No topics' }));
  await w.publish('homeassistant/sensor/big/one/config', JSON.stringify({ name: 'Big', state_topic: 'x/big', pad: 'x'.repeat(4000) }));
  await w.publish(
    'homeassistant/switch/good/one/config',
    JSON.stringify({ name: 'Good', state_topic: 'x/good', command_topic: 'x/good/set', unique_id: 'good1' }),
  );
  await waitState(core, 'switch.good', () => true);
  await hub.hub.mqtt?.settled();
  await w.publish('x/good', 'ON');
  await waitState(core, 'switch.good', (s) => s.state === 'on');
  t.equal(warnings().length, 4, 'one warning per refused message');
  t.match(
    warnings().map((l) => l.msg),
    ['not a JSON object', 'not a JSON object', 'refused', 'too large'].map((s) => new RegExp(s)),
  );
  t.notOk(core.states.get('sensor.big'), 'the oversized config made nothing');
  await w.publish('x/good', 'x'.repeat(3000));
  await w.publish('x/good', 'OFF');
  await waitState(core, 'switch.good', (s) => s.state === 'off');
  t.equal(warnings().length, 5, 'an oversized state message is refused too, and the next one is read');
});

t.test("device-based discovery (one config, several components) as Home Assistant's documentation shows it", async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['none']);
  const hub = await startMqttHub(t, broker, 'Home', '');
  const core = hub.hub.core;
  const topic = 'homeassistant/device/0AFFD2/config';
  const device = {
    dev: { ids: '0AFFD2', name: 'Bedroom Climate', mf: 'Bla electronics', mdl: 'xya', sw: '1.0', sn: 'ea334450945afc', hw: '1.0rev2' },
    o: { name: 'bla2mqtt', sw: '2.1', url: 'https://bla2mqtt.example.com/support' },
    cmps: {
      temp: { p: 'sensor', dev_cla: 'temperature', unit_of_meas: '°C', val_tpl: '{{ value_json.temperature }}', uniq_id: '0AFFD2_t' },
      hum: { p: 'sensor', dev_cla: 'humidity', unit_of_meas: '%', val_tpl: '{{ value_json.humidity }}', uniq_id: '0AFFD2_h' },
    },
    stat_t: 'sensorBedroom/state',
    qos: 1,
  };
  await w.publish(topic, JSON.stringify(device), { retain: true });
  await waitState(core, 'sensor.bedroom_climate_temperature', () => true);
  await waitState(core, 'sensor.bedroom_climate_humidity', () => true);
  await hub.hub.mqtt?.settled();
  await w.publish('sensorBedroom/state', JSON.stringify({ temperature: 23.2, humidity: 43.7 }));
  await waitState(core, 'sensor.bedroom_climate_temperature', (s) => s.state === '23.2');
  await waitState(core, 'sensor.bedroom_climate_humidity', (s) => s.state === '43.7');
  const entry = [...core.devices.all()].find((d) => d.name === 'Bedroom Climate');
  t.equal(entry?.serial_number, 'ea334450945afc', 'one device for both');

  const gone = new Promise<void>((resolve) => {
    const off = core.bus.on('test', 'state_changed', (e) => {
      if (e.data.entity_id === 'sensor.bedroom_climate_humidity' && e.data.new_state === null) {
        off();
        resolve();
      }
    });
  });
  await w.publish(topic, JSON.stringify({ ...device, cmps: { ...device.cmps, hum: { p: 'sensor' } } }), { retain: true });
  await gone;
  t.ok(core.states.get('sensor.bedroom_climate_temperature'), 'a component given by its platform alone is removed, the others stay');
});

t.test('an optimistic number and select (no state topic) show what they were told; payload_reset is unknown', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['x/#']);
  const hub = await startMqttHub(t, broker, 'Home', '');
  const core = hub.hub.core;
  await w.publish(
    'homeassistant/number/x/volume/config',
    JSON.stringify({ name: 'Volume', cmd_t: 'x/volume/set', cmd_tpl: '{"volume": {{ value }}}', max: 11, uniq_id: 'x_volume' }),
  );
  await w.publish(
    'homeassistant/number/x/level/config',
    JSON.stringify({ name: 'Level', cmd_t: 'x/level/set', stat_t: 'x/level', pl_rst: 'RESET', uniq_id: 'x_level' }),
  );
  await w.publish(
    'homeassistant/select/x/mode/config',
    JSON.stringify({ name: 'Mode', cmd_t: 'x/mode/set', ops: ['a', 'b'], uniq_id: 'x_mode' }),
  );
  const volume = await waitState(core, 'number.volume', (s) => s.state === 'unknown');
  t.match(volume.attributes, { min: 0, max: 11, step: 1, mode: 'auto' }, "Home Assistant's MQTT defaults");
  await core.services.call('number', 'set_value', { entity_id: 'number.volume', value: 7 });
  t.equal(await w.waitFor('x/volume/set'), '{"volume": 7}', 'through command_template with value');
  await waitState(core, 'number.volume', (s) => s.state === '7');
  await core.services.call('select', 'select_option', { entity_id: 'select.mode', option: 'b' });
  t.equal(await w.waitFor('x/mode/set'), 'b');
  await waitState(core, 'select.mode', (s) => s.state === 'b');
  await waitState(core, 'number.level', () => true);
  await hub.hub.mqtt?.settled();
  await w.publish('x/level', '12');
  await waitState(core, 'number.level', (s) => s.state === '12');
  await w.publish('x/level', 'RESET');
  await waitState(core, 'number.level', (s) => s.state === 'unknown');
  t.equal(core.states.get('number.level')?.state, 'unknown', 'payload_reset');
});
