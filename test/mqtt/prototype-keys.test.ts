import t from 'tap';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

/**
 * Every way a string from the broker reaches hearth's MQTT code, fed the names an object inherits: discovery config
 * keys (abbreviated or not), device and origin keys, availability entries, device-based discovery's component keys,
 * the state payloads of every adopted component, JSON attributes, and the command payloads of published entities.
 * GET /api/states stays valid JSON with every state a string, and Object.prototype is never written to.
 */

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/** JSON text of `base` with every hostile name as a key too (`__proto__` as JSON.parse makes it: an own key). */
function withHostileKeys(base: Record<string, unknown>, value: (k: string) => unknown = (k) => k): string {
  const own = JSON.stringify(base).slice(1, -1);
  const hostile = HOSTILE.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(value(k))}`).join(', ');
  return `{${own}${own === '' ? '' : ', '}${hostile}}`;
}

const DEV = { ids: 'proto_dev', name: 'Proto Device' };

t.test('prototype names through every MQTT path: states stay strings, /api/states stays JSON', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['p/#', 'hearth/#']);
  const hub = await startMqttHub(
    t,
    broker,
    'Test Home',
    'virtual:\n  - {platform: lock, id: door, name: Door, transition_time: 0}\n  - {platform: fan, id: desk, name: Desk, speed_count: 3}\n  - {platform: climate, id: hall, name: Hall, hvac_modes: ["off", heat], presets: {eco: 17}}\n',
  );
  const core = hub.hub.core;
  const discover = (component: string, id: string, config: string) =>
    w.publish(`homeassistant/${component}/${id}/config`, config, { retain: true, qos: 1 });

  const device = withHostileKeys(DEV, () => ({ polluted: 'yes' }));
  const configs: [string, string, Record<string, unknown>][] = [
    ['switch', 'p_switch', { name: 'P Switch', stat_t: 'p/switch', cmd_t: 'p/switch/set', uniq_id: 'p_switch' }],
    ['binary_sensor', 'p_binary', { name: 'P Binary', stat_t: 'p/binary', uniq_id: 'p_binary' }],
    [
      'cover',
      'p_cover',
      { name: 'P Cover', stat_t: 'p/cover', cmd_t: 'p/cover/set', pos_t: 'p/cover/pos', set_pos_t: 'p/cover/pos/set', uniq_id: 'p_cover' },
    ],
    ['lock', 'p_lock', { name: 'P Lock', stat_t: 'p/lock', cmd_t: 'p/lock/set', uniq_id: 'p_lock' }],
    [
      'light',
      'p_light',
      { name: 'P Light', schema: 'json', stat_t: 'p/light', cmd_t: 'p/light/set', sup_clrm: ['hs'], uniq_id: 'p_light' },
    ],
    [
      'light',
      'p_basic',
      {
        name: 'P Basic',
        stat_t: 'p/basic',
        cmd_t: 'p/basic/set',
        rgb_stat_t: 'p/basic/rgb',
        rgb_cmd_t: 'p/basic/rgb/set',
        uniq_id: 'p_basic',
      },
    ],
    [
      'fan',
      'p_fan',
      {
        name: 'P Fan',
        stat_t: 'p/fan',
        cmd_t: 'p/fan/set',
        pct_stat_t: 'p/fan/pct',
        pct_cmd_t: 'p/fan/pct/set',
        pr_mode_stat_t: 'p/fan/preset',
        pr_mode_cmd_t: 'p/fan/preset/set',
        pr_modes: ['eco'],
        uniq_id: 'p_fan',
      },
    ],
    [
      'climate',
      'p_climate',
      {
        name: 'P Climate',
        mode_stat_t: 'p/climate/mode',
        mode_cmd_t: 'p/climate/mode/set',
        act_t: 'p/climate/action',
        fan_mode_stat_t: 'p/climate/fan',
        fan_mode_cmd_t: 'p/climate/fan/set',
        uniq_id: 'p_climate',
      },
    ],
    ['select', 'p_select', { name: 'P Select', stat_t: 'p/select', cmd_t: 'p/select/set', ops: ['a', 'b'], uniq_id: 'p_select' }],
    ['sensor', 'p_sensor', { name: 'P Sensor', stat_t: 'p/sensor', json_attr_t: 'p/sensor/attr', uniq_id: 'p_sensor' }],
  ];
  for (const [component, id, base] of configs) {
    // Hostile keys at the top, in the device, and in availability entries.
    const text = withHostileKeys(base, (k) => (k === '__proto__' ? { polluted: 'yes' } : k)).replace(
      /^\{/,
      `{"dev": ${device}, "avty": [${withHostileKeys({ t: 'p/avail' })}], `,
    );
    await discover(component, id, text);
  }
  // Device-based discovery whose component keys are the hostile names.
  await w.publish(
    'homeassistant/device/p_multi/config',
    `{"dev": {"ids": "p_multi", "name": "P Multi"}, "o": ${withHostileKeys({ name: 'x' })}, "cmps": {${HOSTILE.map(
      (k, i) => `${JSON.stringify(k)}: {"p": "sensor", "name": "M ${i}", "stat_t": "p/multi/${i}", "uniq_id": "p_multi_${i}"}`,
    ).join(', ')}}}`,
    { retain: true, qos: 1 },
  );
  await w.publish('p/avail', 'online', { retain: true, qos: 1 });
  for (const id of ['switch.proto_device_p_switch', 'cover.proto_device_p_cover', 'sensor.proto_device_p_sensor', 'sensor.p_multi_m_4'])
    await waitState(core, id, () => true);
  await hub.hub.mqtt?.settled();
  t.equal(core.states.get('switch.proto_device_p_switch')?.state, 'unknown', 'adopted in spite of the hostile keys');

  // Every state topic given every hostile name, then a sentinel to know they were all handled.
  const stateTopics = [
    'p/switch',
    'p/binary',
    'p/cover',
    'p/cover/pos',
    'p/lock',
    'p/basic',
    'p/basic/rgb',
    'p/fan',
    'p/fan/pct',
    'p/fan/preset',
    'p/climate/mode',
    'p/climate/action',
    'p/climate/fan',
    'p/select',
    'p/avail',
  ];
  for (const topic of stateTopics) for (const k of HOSTILE) await w.publish(topic, k, { qos: 1 });
  await w.publish('p/avail', 'online', { qos: 1 });
  await w.publish('p/light', withHostileKeys({ state: 'ON', color_mode: 'hs', color: JSON.parse(withHostileKeys({ h: 1, s: 2 })) }), {
    qos: 1,
  });
  await w.publish(
    'p/sensor/attr',
    withHostileKeys({ plain: 1 }, () => ({ polluted: 'yes' })),
    { qos: 1 },
  );
  await w.publish('p/sensor', 'done', { qos: 1 });
  await waitState(core, 'light.proto_device_p_light', (s) => s.state === 'on');
  const sensor = await waitState(core, 'sensor.proto_device_p_sensor', (s) => s.state === 'done' && s.attributes.plain === 1);
  t.ok(Object.hasOwn(sensor.attributes, '__proto__'), 'json attributes keep __proto__ as a key');

  // Commands to published entities whose payloads are hostile names (plain and inside JSON maps).
  const commands: [string, string][] = [];
  for (const k of HOSTILE) {
    commands.push(
      ['hearth/test_home/lock.door/set', k],
      ['hearth/test_home/lock.door/set', JSON.stringify({ action: k, code: k })],
      ['hearth/test_home/fan.desk/set', k],
      ['hearth/test_home/fan.desk/preset_mode/set', k],
      ['hearth/test_home/climate.hall/mode/set', k],
      ['hearth/test_home/climate.hall/preset_mode/set', k],
      [`hearth/test_home/${k}/set`, 'ON'],
    );
  }
  for (const [topic, payload] of commands) await w.publish(topic, payload, { qos: 1 });
  await w.publish('hearth/test_home/lock.door/set', 'UNLOCK', { qos: 1 });
  await waitState(core, 'lock.door', (s) => s.state === 'unlocked');

  const res = await hub.api('/api/states');
  t.equal(res.status, 200);
  const text = await res.text();
  let states: { entity_id: string; state: unknown }[] = [];
  t.doesNotThrow(() => {
    states = JSON.parse(text) as typeof states;
  }, 'GET /api/states is JSON');
  t.same(
    states.filter((s) => typeof s.state !== 'string').map((s) => s.entity_id),
    [],
    'every state is a string',
  );
  const adopted = states.filter((s) => s.entity_id.includes('proto_device') || s.entity_id.includes('p_multi'));
  t.ok(adopted.length >= 14, `the adopted entities are there (${adopted.length})`);
  t.same(
    adopted.filter((s) => (HOSTILE as readonly string[]).includes(s.state as string)).map((s) => s.entity_id),
    [],
    'no hostile name became the state of an entity that does not show payloads as they are',
  );
  t.equal((Object.prototype as Record<string, unknown>).polluted, undefined, 'Object.prototype was not written to');
  const registered = [...core.devices.all()].find((d) => d.name === 'Proto Device');
  t.equal(typeof registered?.name, 'string', 'the device block with hostile keys became a device');
});
