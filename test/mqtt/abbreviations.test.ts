import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { ABBREVIATION_TABLES, expandDiscovery } from '../../src/mqtt/abbreviations.js';

/**
 * The tables against a copy of Home Assistant's homeassistant/components/mqtt/abbreviations.py
 * (test/fixtures/mqtt-ha/abbreviations.py names the commit): every abbreviation there is here with the same
 * expansion, so no key a publisher abbreviates goes unread.
 */

/** The Python dicts of the file: `NAME = { "key": "value", ... }`, as name -> entries. */
function parsePythonDicts(text: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const dict = /^([A-Z_]+)\s*=\s*\{([\s\S]*?)^\}/gm;
  for (const m of text.matchAll(dict)) {
    const entries = new Map<string, string>();
    for (const line of (m[2] ?? '').split('\n')) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      const pair = /^"([^"]+)":\s*"([^"]+)",?$/.exec(trimmed);
      if (pair === null) throw new Error(`not a "key": "value" line in ${m[1]}: ${trimmed}`);
      entries.set(pair[1] ?? '', pair[2] ?? '');
    }
    out.set(m[1] ?? '', entries);
  }
  return out;
}

const fixture = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'mqtt-ha', 'abbreviations.py'), 'utf8');
const ha = parsePythonDicts(fixture);

t.test("every abbreviation of Home Assistant's abbreviations.py is in hearth's tables, with the same expansion", async (t) => {
  t.same([...ha.keys()].sort(), ['ABBREVIATIONS', 'DEVICE_ABBREVIATIONS', 'ORIGIN_ABBREVIATIONS']);
  for (const [name, entries] of ha) {
    const ours = ABBREVIATION_TABLES[name as keyof typeof ABBREVIATION_TABLES];
    t.ok(entries.size > 0, `${name} parsed`);
    const missing = [...entries].filter(([k, v]) => !Object.hasOwn(ours, k) || ours[k] !== v).map(([k]) => k);
    t.same(missing, [], `${name}: none missing or different (${entries.size} in Home Assistant's)`);
  }
  t.ok((ha.get('ABBREVIATIONS')?.size ?? 0) > 250, 'the whole table, not a part');
});

t.test('the keys the issue found unread are expanded, in the entity, device, origin and availability', async (t) => {
  const keys: Record<string, string> = {
    osc_cmd_t: 'oscillation_command_topic',
    osc_stat_t: 'oscillation_state_topic',
    osc_cmd_tpl: 'oscillation_command_template',
    osc_val_tpl: 'oscillation_value_template',
    pl_osc_on: 'payload_oscillation_on',
    pl_osc_off: 'payload_oscillation_off',
    spd_rng_min: 'speed_range_min',
    spd_rng_max: 'speed_range_max',
    fan_mode_cmd_t: 'fan_mode_command_topic',
    fan_mode_cmd_tpl: 'fan_mode_command_template',
    swing_mode_cmd_t: 'swing_mode_command_topic',
    pr_mode_cmd_tpl: 'preset_mode_command_template',
  };
  const payload = Object.fromEntries(Object.keys(keys).map((k) => [k, k.endsWith('_t') ? `~/${k}` : k]));
  const out = expandDiscovery({
    ...payload,
    '~': 'base',
    dev: { ids: 'x', mdl_id: 'M1', sn: '42' },
    o: { name: 'n', sw: '1', url: 'u' },
    avty: [{ t: '~/status', val_tpl: '{{ value }}' }],
  });
  for (const [short, long] of Object.entries(keys)) {
    t.ok(Object.hasOwn(out, long), `${short} -> ${long}`);
    t.notOk(Object.hasOwn(out, short), `${short} not left as it was`);
  }
  t.equal(out.oscillation_command_topic, 'base/osc_cmd_t', '~ expanded in a topic');
  t.same(out.device, { identifiers: 'x', model_id: 'M1', serial_number: '42' });
  t.same(out.origin, { name: 'n', sw_version: '1', support_url: 'u' });
  t.same(out.availability, [{ topic: 'base/status', value_template: '{{ value }}' }]);
});

t.test('keys named like an object prototype stay keys and expand to nothing', async (t) => {
  const out = expandDiscovery(JSON.parse('{"constructor": 1, "__proto__": {"x": 1}, "toString": "a", "stat_t": "s"}'));
  t.equal(out.state_topic, 's');
  t.equal(Object.getPrototypeOf(out), Object.prototype, 'the prototype is not replaced');
  t.same(Object.keys(out).sort(), ['__proto__', 'constructor', 'state_topic', 'toString']);
});
