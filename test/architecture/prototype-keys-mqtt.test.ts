import t from 'tap';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from '../mqtt/hubs.js';
import { assertNotPolluted, assertStatesValid, HOSTILE_KEYS, hostileJson } from './hostile-keys.js';

/** Names an object inherits, in MQTT discovery, payloads and topics (hostile-keys.ts). */

t.test('MQTT: discovery payload keys, state payloads, attributes, topics and commands', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['hearth/#']);
  const hub = await startMqttHub(
    t,
    broker,
    'Test Home',
    'virtual:\n  - {platform: light, id: kitchen, name: Kitchen, color_modes: [brightness]}\n  - {platform: cover, id: blinds, name: Blinds, travel_time: 1}\n',
  );
  const core = hub.hub.core;
  const discover = (component: string, id: string, config: string) =>
    w.publish(`homeassistant/${component}/${id}/config`, config, { retain: true, qos: 1 });
  // Discovery configs whose keys are the inherited names, and components named so.
  await discover(
    'cover',
    'x_cover',
    hostileJson({ name: 'X Cover', state_topic: 'x/cover', command_topic: 'x/cover/set', unique_id: 'x_cover' }),
  );
  await discover('lock', 'x_lock', hostileJson({ name: 'X Lock', stat_t: 'x/lock', cmd_t: 'x/lock/set', uniq_id: 'x_lock' }));
  await discover(
    'sensor',
    'x_sensor',
    hostileJson({ name: 'X Sensor', state_topic: 'x/sensor', json_attributes_topic: 'x/sensor/attributes', unique_id: 'x_sensor' }),
  );
  for (const key of HOSTILE_KEYS) await discover(key, 'x', '{"name": "odd", "state_topic": "x/odd"}');
  await discover(
    'sensor',
    'x_topics',
    JSON.stringify({ name: 'X Topics', state_topic: 'constructor', unique_id: 'x_topics', '~': '__proto__' }),
  );
  await waitState(core, 'cover.x_cover', () => true);
  await waitState(core, 'lock.x_lock', () => true);
  await waitState(core, 'sensor.x_sensor', () => true);
  await waitState(core, 'sensor.x_topics', () => true);

  // State payloads named like inherited properties are states the device did not define: ignored, as Home
  // Assistant's cover and lock ignore a payload they do not know (the state stays what it was, a string).
  const seen: unknown[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    const id = e.data.entity_id;
    if (id === 'cover.x_cover' || id === 'lock.x_lock') seen.push(e.data.new_state?.state);
  });
  for (const [topic, entityId, known, other, shown] of [
    ['x/cover', 'cover.x_cover', 'open', 'closed', 'closed'],
    ['x/lock', 'lock.x_lock', 'LOCKED', 'UNLOCKED', 'unlocked'],
  ] as const) {
    for (const key of HOSTILE_KEYS) {
      await w.publish(topic, known, { qos: 1 });
      await waitState(core, entityId, (s) => s.state !== 'unknown' && s.state !== shown);
      await w.publish(topic, key, { qos: 1 });
      await w.publish(topic, other, { qos: 1 });
      await waitState(core, entityId, (st) => st.state === shown);
    }
  }
  t.same(
    seen.filter((s) => !['open', 'closed', 'locked', 'unlocked', 'unknown', 'unavailable'].includes(s as string)),
    [],
    'no payload named like an inherited property became a state',
  );
  await w.publish('constructor', 'toString', { qos: 1 });
  await waitState(core, 'sensor.x_topics', (s) => s.state === 'toString');
  await w.publish('x/sensor', '__proto__', { qos: 1 });
  const literal = await waitState(core, 'sensor.x_sensor', (s) => s.state === '__proto__');
  t.equal(literal.state, '__proto__', 'a sensor shows the payload as it is');
  await w.publish('x/sensor/attributes', hostileJson({ plain: 1 }), { qos: 1 });
  const attributed = await waitState(core, 'sensor.x_sensor', (s) => s.attributes.plain === 1);
  t.same(
    Object.keys(attributed.attributes)
      .filter((k) => (HOSTILE_KEYS as readonly string[]).includes(k))
      .sort(),
    ['__proto__', 'constructor', 'hasOwnProperty', 'toString'],
    'json attributes keep the keys as keys',
  );

  // Commands to the hub's own entities.
  await w.publish(
    'hearth/test_home/light.kitchen/set',
    '{"state": "ON", "__proto__": {"brightness": 3}, "constructor": 1, "toString": 2}',
    { qos: 1 },
  );
  const lit = await waitState(core, 'light.kitchen', (s) => s.state === 'on');
  t.not(lit.attributes.brightness, 3, 'a brightness under __proto__ is not a brightness');
  for (const key of HOSTILE_KEYS) await w.publish('hearth/test_home/cover.blinds/set', key, { qos: 1 });
  await w.publish('hearth/test_home/cover.blinds/set', 'CLOSE', { qos: 1 });
  await waitState(core, 'cover.blinds', (s) => s.state === 'closing' || s.state === 'closed');
  t.ok(
    hub.logs.some((l) => l.level === 'warn' && /MQTT command refused/.test(l.msg)),
    'a command payload named like an inherited property is refused with a warning',
  );
  await assertStatesValid(t, hub);
  assertNotPolluted(t);
});
