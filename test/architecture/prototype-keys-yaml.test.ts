import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ConfigFileError } from '../../src/config/format.js';
import { loadConfig, parseConfigText } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { jsonPost } from '../api/rest/helpers.js';
import { startTestHub } from '../helpers/hub.js';
import { assertNotPolluted, assertStatesValid, HOSTILE_KEYS, post } from './hostile-keys.js';

/** Names an object inherits, in the configuration file (hostile-keys.ts). */

/** The problems a configuration text is refused with, one line each ("<line>: <message>"). */
function refusal(text: string, path: string | null = null): string[] {
  try {
    parseConfigText(text, path, SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map((i) => `${i.line}: ${i.message}`);
    throw err;
  }
  return [];
}

const YAML_HEADER = 'hub:\n  name: Home\n  time_zone: Europe/Amsterdam\n';

t.test('YAML: section names, !secret names, keys and names in sections', async (t) => {
  for (const key of HOSTILE_KEYS) {
    t.match(refusal(`${YAML_HEADER}${key}:\n  a: 1\n`), [/^4: unknown section; allowed: /], `a section named ${key}`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'hearth-proto-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'secrets.yaml'), 'real: value\n');
  for (const key of HOSTILE_KEYS) {
    const file = join(dir, 'configuration.yaml');
    await writeFile(file, `${YAML_HEADER}mqtt:\n  broker: mqtt://127.0.0.1\n  password: !secret ${key}\n`);
    await t.rejects(loadConfig(file, SECTION_VALIDATORS), {
      message: new RegExp(`!secret ${key} is not defined in .*secrets\\.yaml; defined: real`),
    });
    t.match(refusal(`${YAML_HEADER}mqtt:\n  broker: mqtt://127.0.0.1\n  password: !env_var ${key}\n`), [
      `6: !env_var ${key}: the environment variable is not set, and no default follows its name`,
    ]);
  }

  const hub = await startTestHub(t, {
    yaml: `${YAML_HEADER}
virtual:
  - {platform: switch, id: constructor, name: constructor}
  - {platform: switch, name: __proto__}
  - {platform: switch, id: tostring, name: toString}
  - {platform: climate, id: hall, name: Hall, hvac_modes: ["off", heat], presets: [none, constructor, toString]}
input_boolean:
  constructor: {name: constructor}
  tostring: {name: toString}
  hasownproperty: {name: hasOwnProperty}
input_select:
  odd: {name: odd, options: [__proto__, constructor, toString, hasOwnProperty]}
areas:
  - {name: constructor}
  - {name: __proto__}
customize:
  switch.constructor: {name: __proto__}
script:
  constructor:
    fields:
      __proto__: {description: x}
      toString: {description: y}
    variables:
      __proto__: {polluted: yes}
      hasOwnProperty: 1
    sequence:
      - event: probe_script
        event_data:
          __proto__: {polluted: yes}
          constructor: c
automation:
  - id: constructor
    alias: toString
    triggers:
      - trigger: event
        event_type: __proto__
        event_data: {__proto__: {}}
    conditions:
      - condition: state
        entity_id: switch.constructor
        attribute: constructor
        state: "x"
    actions:
      - event: never
template:
  - sensor:
      - name: Odd Attributes
        state: "1"
        attributes:
          __proto__: "{{ 1 }}"
          constructor: "c"
          parsed: >-
            {{ "{'__pro" ~ "to__': {'polluted': 1}, 'b': 2}" }}
`,
  });
  const states = await assertStatesValid(t, hub);
  const byId = new Map(states.map((s) => [s.entity_id as string, s]));
  t.equal((byId.get('switch.constructor')?.attributes as { friendly_name?: unknown })?.friendly_name, '__proto__', 'a name is a name');
  t.ok(byId.has('switch.proto'), 'a switch named __proto__');
  t.equal(byId.get('input_select.odd')?.state, '__proto__', 'options named like inherited properties are options');
  const odd = (byId.get('sensor.odd_attributes')?.attributes ?? {}) as Record<string, unknown>;
  t.same(
    Object.keys(odd).filter((k) => k !== 'friendly_name'),
    ['__proto__', 'constructor', 'parsed'],
  );
  t.same(Object.keys((odd.parsed ?? {}) as object), ['__proto__', 'b'], 'a rendered dict keeps __proto__ as a key');
  // The climate accepts a preset named constructor as a preset (no temperature comes with it).
  const preset = await hub.api(
    '/api/services/climate/set_preset_mode',
    jsonPost({ entity_id: 'climate.hall', preset_mode: 'constructor' }),
  );
  t.equal(preset.status, 200);
  t.equal(hub.hub.core.states.get('climate.hall')?.attributes.preset_mode, 'constructor');
  t.equal(typeof hub.hub.core.states.get('climate.hall')?.attributes.temperature, 'number');
  // The script's variables and event data keep their keys; the automation does not fire for every event.
  const events: unknown[] = [];
  hub.hub.core.bus.on('test', 'probe_script', (e) => {
    events.push(e.data);
  });
  const automationRuns: unknown[] = [];
  hub.hub.core.bus.on('test', 'automation_triggered', (e) => {
    automationRuns.push(e.data);
  });
  const run = await hub.api('/api/services/script/constructor', jsonPost('{"__proto__": {"x": 1}, "toString": "v"}'));
  t.equal(run.status, 200, await run.text());
  t.same(
    events.map((e) => Object.keys(e as object).sort()),
    [['__proto__', 'constructor']],
  );
  await post(hub, '/api/events/__proto__', '{"a": 1}');
  t.same(automationRuns, [], 'event_data {__proto__: {}} matches no event without that key');
  await assertStatesValid(t, hub);
  assertNotPolluted(t);
});
