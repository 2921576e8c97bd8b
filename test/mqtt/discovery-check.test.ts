import t from 'tap';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from './hubs.js';

/**
 * Discovery configs Home Assistant's schemas refuse: each gets one warning naming the field and what is allowed,
 * nothing is adopted from it, and a good config published after them still is. Component names from the broker
 * are told about once each, up to a bound.
 */

const BAD: readonly [string, Record<string, unknown>, RegExp][] = [
  ['switch', { name: 'Q', stat_t: 's/q', cmd_t: 's/q/set', qos: 3 }, /qos: 3 is not allowed: expected one of 0, 1, 2/],
  ['climate', { name: 'M', mode_cmd_t: 'c/m/set', modes: ['heat', 'boil'] }, /modes: .* expected a list of off, heat, cool/],
  ['climate', { name: 'P', pr_mode_cmd_t: 'c/p/set', pr_modes: ['none', 'eco'] }, /preset_modes: .*without 'none'/],
  ['climate', { name: 'T', temp_cmd_t: 'c/t/set', min_temp: 'cold' }, /min_temp: "cold" is not allowed: expected a number/],
  ['light', { name: 'L', cmd_t: 'l/set', schema: 'template' }, /schema: "template"/],
  ['light', { name: 'C', cmd_t: 'l/c/set', schema: 'json', sup_clrm: ['rainbow'] }, /supported_color_modes: .*expected a list of onoff/],
  [
    'fan',
    { name: 'F', cmd_t: 'f/set', spd_rng_min: 5, spd_rng_max: 2 },
    /speed_range_max: 2 is not allowed: expected a number above speed_range_min \(5\)/,
  ],
  ['select', { name: 'S', cmd_t: 'sel/set' }, /options: nothing is not allowed: expected a list of options/],
  ['switch', { name: 'W', cmd_t: 'w/#' }, /command_topic: "w\/#" is not allowed: expected a topic without \+ or #/],
  [
    'sensor',
    { name: 'A', stat_t: 'a', avty: 'a/avail' },
    /availability: "a\/avail" is not allowed: expected a list of mappings with a topic/,
  ],
  ['sensor', { name: 'D', stat_t: 'd', dev: 'my device' }, /device: "my device" is not allowed: expected a mapping/],
  ['sensor', { name: 'E', stat_t: 'e', ent_cat: 'system' }, /entity_category: "system" is not allowed: expected one of config, diagnostic/],
  ['number', { name: 'N', cmd_t: 'n/set', mode: 'dial' }, /mode: "dial" is not allowed: expected one of auto, box, slider/],
];

t.test('each malformed discovery config: one warning naming the field and what is allowed', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['x/#']);
  const hub = await startMqttHub(t, broker, 'Home', '');
  const { core } = hub.hub;
  for (const [i, [component, config]] of BAD.entries())
    await w.publish(`homeassistant/${component}/bad_${i}/config`, JSON.stringify(config), { retain: true, qos: 1 });
  // Component names from the broker: told about once each, at most 64 of them.
  for (let i = 0; i < 100; i++) await w.publish(`homeassistant/odd_${i}/x/config`, '{"name": "odd"}', { qos: 1 });
  await w.publish('homeassistant/switch/good/config', JSON.stringify({ name: 'Good', stat_t: 'g', cmd_t: 'g/set' }), { qos: 1 });
  await waitState(core, 'switch.good', () => true);

  const refusals = hub.logs.filter((l) => l.msg.startsWith('MQTT discovery config on '));
  t.equal(refusals.length, BAD.length, 'one warning per config');
  for (const [i, [, , pattern]] of BAD.entries()) {
    const line = refusals.filter((l) => l.msg.includes(`/bad_${i}/config refused`));
    t.equal(line.length, 1, `config ${i}: one line`);
    t.match(line[0]?.msg, pattern, `config ${i}: ${line[0]?.msg}`);
  }
  t.equal([...core.entities.all()].filter((e) => /^[a-z_]+\.[a-z]$/.test(e.id)).length, 0, 'none of them adopted');
  const odd = hub.logs.filter((l) => /component is not adopted/.test(l.msg));
  t.equal(odd.length, 64, 'component names are told about once each, up to 64');
});
