import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { JsonObject } from '../../src/core/json.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

/**
 * Real discovery payloads (test/fixtures/mqtt/catalogue/, a file a device: ESPHome's fan and climate,
 * zigbee2mqtt's thermostat, cover, lock and fan from its own tests, Tasmota's light and shutter, OpenMQTTGateway's
 * gateway and a BLE thermometer, each naming its source): adopted through a real mosquitto, each entity's state and attributes
 * checked against what Home Assistant shows, and each command Home Assistant would send checked on the wire.
 */

interface Message {
  readonly topic: string;
  readonly retain: boolean;
  readonly payload: unknown;
}
interface Case {
  readonly name: string;
  readonly source: string;
  readonly messages: readonly Message[];
  readonly expect: readonly { entity_id: string; state: string; attributes: JsonObject }[];
  readonly commands: readonly { domain: string; service: string; data: JsonObject; topic: string; payload: string; todo?: string }[];
}

/** One device a file (README.md there says what a case holds), in name order. */
const CATALOGUE = join(import.meta.dirname, '..', 'fixtures', 'mqtt', 'catalogue');
const cases = readdirSync(CATALOGUE)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(join(CATALOGUE, name), 'utf8')) as Case);
const text = (p: unknown): string => (typeof p === 'string' ? p : JSON.stringify(p));
const isConfig = (m: Message): boolean => m.topic.endsWith('/config');

t.test('discovery payloads of four publishers: states, attributes and commands as Home Assistant has them', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['#']);
  // What the broker holds when the hub starts: every retained message (configs, availability, retained states).
  for (const c of cases) for (const m of c.messages) if (m.retain) await w.publish(m.topic, text(m.payload), { retain: true, qos: 1 });
  const hub = await startMqttHub(t, broker, 'Home', '');
  const { core } = hub.hub;
  for (const c of cases) for (const e of c.expect) await waitState(core, e.entity_id, () => true);
  await hub.hub.mqtt?.settled();
  for (const c of cases) for (const m of c.messages) if (!m.retain && !isConfig(m)) await w.publish(m.topic, text(m.payload), { qos: 1 });

  for (const c of cases) {
    await t.test(c.name, async (t) => {
      t.comment(`source: ${c.source}`);
      for (const e of c.expect) {
        // Several handlers may read one message (a state, a percentage...): wait for all of them.
        const s = await waitState(core, e.entity_id, (s) => s.state === e.state && within(e.attributes, s.attributes)).catch(() =>
          core.states.get(e.entity_id),
        );
        t.equal(s?.state, e.state, `${e.entity_id}: state`);
        t.match(s?.attributes ?? {}, e.attributes, `${e.entity_id}: attributes`);
      }
      for (const cmd of c.commands) {
        if (cmd.todo !== undefined) {
          t.test(`${cmd.domain}.${cmd.service} ${JSON.stringify(cmd.data)}`, { todo: cmd.todo }, async () => undefined);
          continue;
        }
        const from = w.log.length;
        await core.services.call(cmd.domain, cmd.service, cmd.data, { context: core.newContext() });
        const sent = await waitForMessage(w.log, from, cmd.topic, cmd.payload);
        t.equal(sent, cmd.payload, `${cmd.domain}.${cmd.service} ${JSON.stringify(cmd.data)} publishes ${cmd.payload} on ${cmd.topic}`);
      }
    });
  }
  t.same(
    hub.logs.filter((l) => l.level === 'warn' && /refused|not adopted/.test(l.msg)).map((l) => l.msg),
    [],
    'every config adopted',
  );
});

/** Whether every key of `want` is in `have` with an equal value (as JSON). */
function within(want: JsonObject, have: JsonObject): boolean {
  return Object.entries(want).every(([k, v]) => JSON.stringify(have[k] ?? null) === JSON.stringify(v));
}

/**
 * The payload `expected` on `topic` once it is logged at or after index `from`, waiting for it (bounded); at the
 * deadline the last payload seen there instead. A command that publishes on two topics (a two-point target) may still
 * have its second message in flight when the next command's `from` is taken, so the first message after `from` can be
 * the previous command's.
 */
function waitForMessage(
  log: readonly { topic: string; payload: string }[],
  from: number,
  topic: string,
  expected: string,
  ms = 5000,
): Promise<string> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const seen = log.slice(from).filter((m) => m.topic === topic);
      if (seen.some((m) => m.payload === expected)) resolve(expected);
      else if (Date.now() <= deadline) setTimeout(check, 5);
      else if (seen.length > 0) resolve(seen.at(-1)?.payload ?? '');
      else reject(new Error(`nothing on ${topic} within ${ms} ms`));
    };
    check();
  });
}

t.test('enabled_by_default: false (zigbee2mqtt linkquality): the registry entry starts disabled by the integration', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['zigbee2mqtt/#']);
  const hub = await startMqttHub(t, broker, 'Home', '');
  const { core } = hub.hub;
  // Koenkk/zigbee2mqtt test/extensions/homeassistant.test.ts 'Should discover devices and groups' (linkquality).
  const device = { identifiers: ['zigbee2mqtt_0x0017880104e45522'], name: 'weather_sensor', model: 'Temperature and humidity sensor' };
  const linkquality = {
    icon: 'mdi:signal',
    enabled_by_default: false,
    entity_category: 'diagnostic',
    unit_of_measurement: 'lqi',
    state_class: 'measurement',
    value_template: '{{ value_json["linkquality"] }}',
    state_topic: 'zigbee2mqtt/weather_sensor',
    name: 'Linkquality',
    object_id: 'weather_sensor_linkquality',
    default_entity_id: 'sensor.weather_sensor_linkquality',
    unique_id: '0x0017880104e45522_linkquality_zigbee2mqtt',
    device,
  };
  const temperature = {
    ...linkquality,
    enabled_by_default: undefined,
    entity_category: undefined,
    icon: undefined,
    unit_of_measurement: '°C',
    device_class: 'temperature',
    value_template: '{{ value_json["temperature"] }}',
    name: 'Temperature',
    object_id: 'weather_sensor_temperature',
    default_entity_id: 'sensor.weather_sensor_temperature',
    unique_id: '0x0017880104e45522_temperature_zigbee2mqtt',
  };
  await w.publish('homeassistant/sensor/0x0017880104e45522/linkquality/config', JSON.stringify(linkquality), { retain: true, qos: 1 });
  await w.publish('homeassistant/sensor/0x0017880104e45522/temperature/config', JSON.stringify(temperature), { retain: true, qos: 1 });
  await waitState(core, 'sensor.weather_sensor_temperature', () => true);
  await hub.hub.mqtt?.settled();
  await w.publish('zigbee2mqtt/weather_sensor', '{"temperature": 21.5, "linkquality": 87}', { qos: 1 });
  await waitState(core, 'sensor.weather_sensor_temperature', (s) => s.state === '21.5');
  const entry = hub.hub.registries.entities.entry('sensor.weather_sensor_linkquality');
  t.equal(entry?.disabled_by, 'integration', 'disabled by the integration, as Home Assistant has it');
  t.equal(entry?.entity_category, 'diagnostic');
  t.equal(core.states.get('sensor.weather_sensor_linkquality'), undefined, 'a disabled entity has no state');
  t.equal(hub.hub.registries.entities.entry('sensor.weather_sensor_temperature')?.disabled_by, null, 'the others are enabled');
});
