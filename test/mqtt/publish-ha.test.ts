import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { JsonObject } from '../../src/core/json.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

/**
 * What hearth publishes, read as Home Assistant reads it: the configs of hub A (less the `hearth` key, which Home
 * Assistant drops) are given to a consumer that adopts discovery as Home Assistant's MQTT integration does (a second
 * hub with its own discovery prefix and no `hearth` hints), and the commands Home Assistant would send from its
 * entities reach A's: a lock unlocked with its code, a thermostat's range and humidity, a fan's speeds.
 */

const DEVICES = `
virtual:
  - {platform: lock, id: front_door, name: Front Door, code: "1234", transition_time: 0}
  - {platform: climate, id: hall, name: Hall, hvac_modes: ["off", heat_cool], hvac_mode: heat_cool, target_temp_low: 19, target_temp_high: 24, target_humidity: 45, current_humidity: 40}
  - {platform: fan, id: desk, name: Desk Fan, speed_count: 3, oscillate: true}
  - {platform: light, id: kitchen, name: Kitchen, color_modes: [hs, color_temp]}
`;

/**
 * The keys Home Assistant's discovery knows: every full name in its abbreviations.py (a copy in
 * test/fixtures/mqtt-ha names its commit) and the few keys it has no abbreviation for.
 */
function haKeys(): { entity: Set<string>; device: Set<string>; origin: Set<string> } {
  const text = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'mqtt-ha', 'abbreviations.py'), 'utf8');
  const table = (name: string) => {
    const body = new RegExp(`^${name} = \\{([\\s\\S]*?)^\\}`, 'm').exec(text)?.[1] ?? '';
    return new Set([...body.matchAll(/"[^"]+":\s*"([^"]+)"/g)].map((m) => m[1] ?? ''));
  };
  const entity = table('ABBREVIATIONS');
  // Keys of the components' schemas that abbreviations.py does not list (they have no short form).
  for (const k of ['schema', 'brightness', 'effect', 'qos', 'temp_step', 'fan_modes', 'code', 'supported_features']) entity.add(k);
  const device = table('DEVICE_ABBREVIATIONS');
  device.add('via_device');
  return { entity, device, origin: table('ORIGIN_ABBREVIATIONS') };
}

t.test("hearth's discovery configs work in a Home Assistant-like consumer: codes, ranges, humidity, speeds", async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#', 'ha/#', 'hearth/#']);
  const a = await startMqttHub(t, broker, 'Test Home', DEVICES);
  const ids = ['lock.front_door', 'climate.hall', 'fan.desk', 'light.kitchen'];
  const configs = new Map<string, JsonObject>();
  for (const id of ids) {
    const [domain = '', object = ''] = id.split('.');
    const topic = `homeassistant/${domain}/test_home/${domain}_${object}/config`;
    configs.set(id, JSON.parse(await w.waitFor(topic, (p) => p !== '')) as JsonObject);
  }

  // Every key is one Home Assistant's discovery knows (`hearth`, which it drops, aside).
  const known = haKeys();
  for (const [id, config] of configs) {
    t.same(
      Object.keys(config).filter((k) => k !== 'hearth' && !known.entity.has(k)),
      [],
      `${id}: every key is one Home Assistant knows`,
    );
    const device = (config.device ?? {}) as JsonObject;
    const origin = (config.origin ?? {}) as JsonObject;
    t.same(
      Object.keys(device).filter((k) => !known.device.has(k)),
      [],
      `${id}: device keys`,
    );
    t.same(
      Object.keys(origin).filter((k) => !known.origin.has(k)),
      [],
      `${id}: origin keys`,
    );
  }

  const lock = configs.get('lock.front_door') ?? {};
  t.equal(lock.code_format, '^\\d{4}$', 'the lock says which code it wants');
  t.match(lock.command_template, /\{\{ code/, 'and passes the code on with the command');
  const hall = configs.get('climate.hall') ?? {};
  for (const k of [
    'temperature_low_command_topic',
    'temperature_high_command_topic',
    'temperature_low_state_topic',
    'target_humidity_command_topic',
    'target_humidity_state_topic',
    'current_humidity_topic',
    'action_topic',
  ])
    t.type(hall[k], 'string', `climate: ${k}`);
  t.equal(hall.temperature_unit, 'C', "climate: the hub's temperature unit");
  t.equal(hall.temperature_command_topic, undefined, 'climate: no single target for a range-only thermostat');
  const desk = configs.get('fan.desk') ?? {};
  t.equal(desk.speed_range_min, 1);
  t.equal(desk.speed_range_max, 3, "fan: its three speeds as Home Assistant's speed range");
  t.equal(configs.get('light.kitchen')?.color_mode, undefined, 'light: no deprecated color_mode flag');

  // The consumer: Home Assistant's view of the same configs (no `hearth` key), under its own prefix.
  const b = await startMqttHub(t, broker, 'Consumer', '', '  discovery_prefix: ha\n  discovery: false');
  for (const [id, config] of configs) {
    const [domain = '', object = ''] = id.split('.');
    const { hearth: _hearth, ...plain } = config;
    await w.publish(`ha/${domain}/test_home/${domain}_${object}/config`, JSON.stringify(plain), { retain: true, qos: 1 });
  }
  const bc = b.hub.core;
  const ac = a.hub.core;
  for (const id of ids) await waitState(bc, id, (s) => s.state !== 'unavailable' && s.state !== 'unknown');
  await b.hub.mqtt?.settled();

  // Lock: unlocked from the consumer with its code; a code of the wrong form never leaves it.
  const call = (domain: string, service: string, data: JsonObject) => bc.services.call(domain, service, data, { context: bc.newContext() });
  await t.rejects(call('lock', 'unlock', { entity_id: 'lock.front_door', code: '12' }), /doesn't match pattern/);
  await call('lock', 'unlock', { entity_id: 'lock.front_door', code: '1234' });
  await waitState(ac, 'lock.front_door', (s) => s.state === 'unlocked');
  await waitState(bc, 'lock.front_door', (s) => s.state === 'unlocked');
  t.pass('lock.unlock with the code reached the lock, and its state came back');

  // Thermostat: the range (Home Assistant sends each end on its own topic) and the humidity.
  const hb = await waitState(bc, 'climate.hall', (s) => s.attributes.target_temp_low === 19);
  t.match(hb.attributes, { target_temp_high: 24, humidity: 45, current_humidity: 40, min_humidity: 30, max_humidity: 99 });
  t.ok(typeof hb.attributes.hvac_action === 'string', 'the consumer sees what the thermostat is doing');
  await call('climate', 'set_temperature', { entity_id: 'climate.hall', target_temp_low: 18, target_temp_high: 23 });
  await waitState(ac, 'climate.hall', (s) => s.attributes.target_temp_low === 18 && s.attributes.target_temp_high === 23);
  await call('climate', 'set_humidity', { entity_id: 'climate.hall', humidity: 50 });
  await waitState(ac, 'climate.hall', (s) => s.attributes.humidity === 50);
  await waitState(bc, 'climate.hall', (s) => s.attributes.humidity === 50 && s.attributes.target_temp_high === 23);
  t.pass('set_temperature (low and high) and set_humidity round-tripped');

  // Fan: three speeds on both sides; 66% is speed 2.
  await call('fan', 'turn_on', { entity_id: 'fan.desk' });
  await call('fan', 'set_percentage', { entity_id: 'fan.desk', percentage: 66 });
  await waitState(ac, 'fan.desk', (s) => s.attributes.percentage === 66);
  const fb = await waitState(bc, 'fan.desk', (s) => s.attributes.percentage === 66);
  t.equal(fb.attributes.percentage_step, 100 / 3, 'the consumer has the same percentage step');
  await call('fan', 'oscillate', { entity_id: 'fan.desk', oscillating: true });
  await waitState(ac, 'fan.desk', (s) => s.attributes.oscillating === true);

  // Light: brightness and colour over the JSON schema.
  await call('light', 'turn_on', { entity_id: 'light.kitchen', brightness: 100, hs_color: [30, 60] });
  const lit = await waitState(ac, 'light.kitchen', (s) => s.state === 'on' && s.attributes.brightness === 100);
  t.same(lit.attributes.hs_color, [30, 60]);
  t.same(
    a.logs.filter((l) => l.level === 'warn' && /refused/.test(l.msg)).map((l) => l.msg),
    [],
    'no command refused on the way',
  );
});

t.test("another client overwriting this hub's retained config: announced again, one warning", async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['homeassistant/#']);
  const a = await startMqttHub(t, broker, 'Test Home', DEVICES);
  const topic = 'homeassistant/lock/test_home/lock_front_door/config';
  const ours = await w.waitFor(topic, (p) => p.includes('"hearth"'));
  for (const foreign of ['{"name": "Hijacked", "command_topic": "evil/set"}', '', '{"name": "Again", "command_topic": "evil/set"}']) {
    const from = w.log.length;
    await w.publish(topic, foreign, { retain: true, qos: 1 });
    // The foreign config, then this hub's again (within a second of the last time it was put back).
    await logged(() => {
      const after = w.log.slice(from).filter((m) => m.topic === topic);
      const at = after.findIndex((m) => m.payload === foreign);
      return at >= 0 && after.slice(at + 1).some((m) => m.payload === ours);
    });
  }
  t.pass("the retained config is this hub's again after each overwrite");
  t.equal(a.logs.filter((l) => /overwrote this hub's discovery config/.test(l.msg)).length, 1, 'one warning');
});

/** Resolves once `done()` holds, checked every few milliseconds; rejects after `ms`. */
function logged(done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (done()) resolve();
      else if (Date.now() > deadline) reject(new Error(`not within ${ms} ms`));
      else setTimeout(check, 5);
    };
    check();
  });
}
