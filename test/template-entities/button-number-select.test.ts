import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { MINIMAL_CONFIG, startTestHub, type TestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

/** Template button, number and select entities as Home Assistant's template documentation writes them. */
const CONFIG = `${MINIMAL_CONFIG}
input_number:
  level:
    min: 2
    max: 40
    step: 0.5
input_select:
  scene_mode:
    options: [relax, read, party]
template:
  - button:
      - name: "Brew coffee"
        unique_id: brew_coffee
        device_class: identify
        icon: mdi:coffee
        press:
          - action: switch.turn_on
            target:
              entity_id: switch.coffee_maker
    number:
      - name: "Living level"
        unit_of_measurement: "%"
        state: "{{ states('input_number.level') }}"
        min: "{{ state_attr('input_number.level', 'min') }}"
        max: 40
        step: 0.5
        availability: "{{ has_value('input_number.level') }}"
        set_value:
          - action: input_number.set_value
            target:
              entity_id: input_number.level
            data:
              value: "{{ value }}"
      - name: "Guest timeout"
        set_value: []
      - name: "Shadow level"
        state: "{{ states('input_number.level') }}"
        optimistic: true
        max: 40
        set_value: []
    select:
      - name: "Living scene"
        state: "{{ states('input_select.scene_mode') }}"
        options: "{{ state_attr('input_select.scene_mode', 'options') }}"
        attributes:
          count: "{{ state_attr('input_select.scene_mode', 'options') | count }}"
        select_option:
          - action: input_select.select_option
            target:
              entity_id: input_select.scene_mode
            data:
              option: "{{ option }}"
      - name: "Fan speed"
        options: [low, high]
        select_option: []
`;

function call(hub: TestHub, domain: string, service: string, body: object) {
  return hub.api(`/api/services/${domain}/${service}`, { method: 'POST', body: JSON.stringify(body) });
}

t.test('a template button runs its press actions and shows the time of the last press', async (t) => {
  const clock = new ManualClock(Date.parse('2026-06-01T18:00:00Z') * 1000);
  const hub = await startTestHub(t, { yaml: CONFIG, clock });
  const { core } = hub.hub;
  const before = await waitForState(core, 'button.brew_coffee', () => true);
  t.equal(before.state, 'unknown');
  t.same({ ...before.attributes }, { device_class: 'identify', friendly_name: 'Brew coffee', icon: 'mdi:coffee' });
  clock.advance(2_000_000);
  const response = await call(hub, 'button', 'press', { entity_id: 'button.brew_coffee' });
  t.equal(response.status, 200);
  await waitForState(core, 'switch.coffee_maker', (s) => s.state === 'on');
  t.equal(core.states.get('button.brew_coffee')?.state, '2026-06-01T18:00:02+00:00');
  const services = (await (await hub.api('/api/services')).json()) as Record<string, Record<string, unknown>>;
  t.same(Object.keys(services.button ?? {}), ['press'], 'button.press is listed');
  t.same(Object.keys(services.number ?? {}), ['set_value']);
});

t.test('a template number follows its state, min and max templates, and set_value runs with value', async (t) => {
  const hub = await startTestHub(t, { yaml: CONFIG });
  const { core } = hub.hub;
  const level = await waitForState(core, 'number.living_level', (s) => s.state === '2.0');
  t.same({ ...level.attributes }, { min: 2, max: 40, step: 0.5, mode: 'auto', unit_of_measurement: '%', friendly_name: 'Living level' });
  const response = await call(hub, 'number', 'set_value', { entity_id: 'number.living_level', value: 12.5 });
  t.equal(response.status, 200);
  await waitForState(core, 'input_number.level', (s) => s.state === '12.5');
  await waitForState(core, 'number.living_level', (s) => s.state === '12.5');
  const refused = await call(hub, 'number', 'set_value', { entity_id: 'number.living_level', value: 1 });
  t.equal(refused.status, 400);
  t.match(await refused.text(), /Value 1\.0 for number\.living_level is outside valid range 2\.0 - 40\.0/);
  t.equal(core.states.get('input_number.level')?.state, '12.5', 'a refused value runs nothing');

  // Without a state template the number is optimistic: the value set is its state.
  t.equal(core.states.get('number.guest_timeout')?.state, 'unknown');
  await call(hub, 'number', 'set_value', { entity_id: 'number.guest_timeout', value: 30 });
  await waitForState(core, 'number.guest_timeout', (s) => s.state === '30.0');

  // Optimistic with a state template: the value set shows at once, until the template renders again.
  await waitForState(core, 'number.shadow_level', (s) => s.state === '12.5');
  await call(hub, 'number', 'set_value', { entity_id: 'number.shadow_level', value: 33 });
  await waitForState(core, 'number.shadow_level', (s) => s.state === '33.0');
  await call(hub, 'input_number', 'set_value', { entity_id: 'input_number.level', value: 20 });
  await waitForState(core, 'number.shadow_level', (s) => s.state === '20.0');
});

t.test('a template select renders its options and state; select_option runs with option and refuses others', async (t) => {
  const hub = await startTestHub(t, { yaml: CONFIG });
  const { core } = hub.hub;
  const scene = await waitForState(core, 'select.living_scene', (s) => s.state === 'relax');
  t.same({ ...scene.attributes }, { options: ['relax', 'read', 'party'], friendly_name: 'Living scene', count: 3 });
  await call(hub, 'select', 'select_option', { entity_id: 'select.living_scene', option: 'party' });
  await waitForState(core, 'select.living_scene', (s) => s.state === 'party');
  await call(hub, 'select', 'select_next', { entity_id: 'select.living_scene' });
  await waitForState(core, 'select.living_scene', (s) => s.state === 'relax');
  const refused = await call(hub, 'select', 'select_option', { entity_id: 'select.living_scene', option: 'disco' });
  t.equal(refused.status, 400);
  t.match(await refused.text(), /Option disco is not valid for entity select\.living_scene, valid options are: relax, read, party/);
  await call(hub, 'input_select', 'set_options', { entity_id: 'input_select.scene_mode', options: ['relax', 'cinema'] });
  const changed = await waitForState(
    core,
    'select.living_scene',
    (s) => Array.isArray(s.attributes.options) && s.attributes.options.length === 2,
  );
  t.same(changed.attributes.options, ['relax', 'cinema'], 'the options follow their template');
  await call(hub, 'select', 'select_last', { entity_id: 'select.living_scene' });
  await waitForState(core, 'select.living_scene', (s) => s.state === 'cinema');

  t.same(core.states.get('select.fan_speed')?.attributes.options, ['low', 'high'], 'options written out as a list');
  await call(hub, 'select', 'select_option', { entity_id: 'select.fan_speed', option: 'high' });
  await waitForState(core, 'select.fan_speed', (s) => s.state === 'high');
});

t.test('refusals name the file, the line and the key', async (t) => {
  const yaml = `${MINIMAL_CONFIG}
template:
  - button:
      - name: Nothing
        state: "{{ now() }}"
    number:
      - name: No action
        state: "{{ 1 }}"
    select:
      - name: No options
        select_option: []
`;
  let message = '';
  try {
    parseConfigText(yaml, '/config/configuration.yaml', SECTION_VALIDATORS);
  } catch (err) {
    message = err instanceof Error ? err.message : String(err);
  }
  t.match(message, /configuration\.yaml:\d+:\d+: template\[0\]\.button\[0\]\.press.*is required: expected the actions a press runs/);
  t.match(message, /configuration\.yaml:25:9: template\[0\]\.button\[0\]\.state/);
  t.match(message, /template\[0\]\.number\[0\]\.set_value.*is required/);
  t.match(message, /template\[0\]\.select\[0\]\.options.*is required/);
});

t.test('after a restart: a button keeps its last press, an optimistic number and select their values, and nothing runs', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-template-bns-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const clock = new ManualClock(Date.parse('2026-06-01T18:00:00Z') * 1000);
  const first = await startTestHub({ teardown: () => undefined }, { yaml: CONFIG, dataDir, clock });
  await call(first, 'button', 'press', { entity_id: 'button.brew_coffee' });
  await call(first, 'number', 'set_value', { entity_id: 'number.guest_timeout', value: 45 });
  await call(first, 'select', 'select_option', { entity_id: 'select.fan_speed', option: 'high' });
  await waitForState(first.hub.core, 'select.fan_speed', (s) => s.state === 'high');
  await call(first, 'switch', 'turn_off', { entity_id: 'switch.coffee_maker' });
  await waitForState(first.hub.core, 'switch.coffee_maker', (s) => s.state === 'off');
  await first.hub.stop();

  const second = await startTestHub(t, { yaml: CONFIG, dataDir });
  const { core } = second.hub;
  await waitForState(core, 'button.brew_coffee', (s) => s.state === '2026-06-01T18:00:00+00:00');
  await waitForState(core, 'number.guest_timeout', (s) => s.state === '45.0');
  await waitForState(core, 'select.fan_speed', (s) => s.state === 'high');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'off', 'restoring the button did not press it');
});
