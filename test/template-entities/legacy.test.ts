import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';
import { memoryLogger } from '../helpers/logger.js';
import { waitForState } from '../helpers/wait.js';

/**
 * Home Assistant's legacy template platforms (homeassistant/components/template/sensor.py, binary_sensor.py,
 * switch.py LEGACY_*_SCHEMA; their cases after tests/components/template/test_sensor.py test_template_legacy,
 * test_icon_template, test_entity_picture_template, test_friendly_name_template, test_attribute_templates,
 * test_available_template_with_entities, and test_switch.py test_template_state_text / test_on_action).
 */
const YAML = `${MINIMAL_CONFIG}
sensor:
  - platform: template
    sensors:
      kitchen_light:
        friendly_name: Kitchen light
        value_template: "It {{ states('light.kitchen') }}."
        unit_of_measurement: "%"
        icon_template: "{% if is_state('light.kitchen', 'on') %}mdi:check{% endif %}"
        entity_picture_template: "{% if is_state('light.kitchen', 'on') %}/local/sensor.png{% endif %}"
        attribute_templates:
          test_attribute: "It {{ states.light | count }}."
      plain:
        value_template: "{{ 1 + 1 }}"
        availability_template: "{{ is_state('light.hallway', 'on') }}"
        device_class: temperature
  - platform: time_date
    display_options: [time]
  - platform: systemmonitor
binary_sensor:
  - platform: template
    sensors:
      kitchen_on:
        friendly_name: Kitchen on
        device_class: light
        value_template: "{{ is_state('light.kitchen', 'on') }}"
switch:
  - platform: template
    switches:
      coffee:
        value_template: "{{ is_state('switch.coffee_maker', 'on') }}"
        turn_on:
          service: switch.turn_on
          target: {entity_id: switch.coffee_maker}
        turn_off:
          service: switch.turn_off
          target: {entity_id: switch.coffee_maker}
`;

t.test(
  'legacy template sensors, binary sensors and switches become template entities; other platforms are ignored with a warning',
  async (t) => {
    const log = memoryLogger();
    const { hub } = await startTestHub(t, { yaml: YAML, log });
    const core = hub.core;
    const sensor = await waitForState(core, 'sensor.kitchen_light', (s) => s.state === 'It off.');
    t.match(sensor.attributes, { unit_of_measurement: '%', friendly_name: 'Kitchen light', test_attribute: 'It 2.' });
    t.equal(core.states.get('sensor.plain')?.state, 'unavailable', 'availability_template false');
    t.equal(core.states.get('binary_sensor.kitchen_on')?.state, 'off');
    t.equal(core.states.get('switch.coffee')?.state, 'off');

    await core.services.call('light', 'turn_on', { entity_id: 'light.kitchen' });
    const on = await waitForState(core, 'sensor.kitchen_light', (s) => s.state === 'It on.');
    t.match(on.attributes, { icon: 'mdi:check', entity_picture: '/local/sensor.png' });
    await waitForState(core, 'binary_sensor.kitchen_on', (s) => s.state === 'on');
    await core.services.call('light', 'turn_on', { entity_id: 'light.hallway' });
    await waitForState(core, 'sensor.plain', (s) => s.state === '2');

    await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee' });
    await waitForState(core, 'switch.coffee_maker', (s) => s.state === 'on');
    await waitForState(core, 'switch.coffee', (s) => s.state === 'on');

    const warnings = log.entries.filter((e) => e.level === 'warn' && e.msg.includes('is ignored'));
    t.same(
      warnings.map((w) => w.msg),
      [
        'sensor[1] (platform: time_date) is ignored: hearth has no time_date integration',
        'sensor[2] (platform: systemmonitor) is ignored: hearth has no systemmonitor integration',
      ],
      'one warning per ignored platform, naming it',
    );
  },
);

t.test('legacy template problems name the key and what is allowed', async (t) => {
  const check = (yaml: string) => {
    try {
      parseConfigText(`hub: {name: T}\n${yaml}`, null, SECTION_VALIDATORS);
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  };
  t.match(
    check('sensor:\n  - platform: template\n    sensors:\n      x: {friendly_name: X}\n'),
    /sensor\[0\]\.sensors\.x\.value_template: is required/,
  );
  t.match(
    check('switch:\n  - platform: template\n    switches:\n      x: {value_template: "{{ true }}"}\n'),
    /switch\[0\]\.switches\.x\.turn_on: is required/,
  );
  t.match(
    check('sensor:\n  - platform: template\n    sensors:\n      x: {value_template: "1", colour: red}\n'),
    /sensor\[0\]\.sensors\.x\.colour: unknown option; allowed: .*value_template/,
  );
  t.match(check('sensor:\n  - platform: template\n    sensors:\n      Bad-Id: {value_template: "1"}\n'), /invalid object id "Bad-Id"/);
  t.equal(
    check('sensor:\n  - platform: template\n    sensors:\n      x: {value_template: "1", entity_id: sensor.y}\n'),
    '',
    'the deprecated entity_id is accepted',
  );
  t.equal(check('light:\n  - platform: hue\ncover:\n  - platform: template\n    covers: {}\n'), '', 'other sections of platforms load');
});
