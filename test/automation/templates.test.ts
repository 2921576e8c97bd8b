import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { DEVICES, nextEvent, recordEvents, settle, setup, stateBecomes } from './helpers.js';

/** Written as Home Assistant's documentation writes automations: the plural syntax and the older one side by side. */
const CONFIG = `${DEVICES}
automation:
  - id: warm_evening
    alias: Warm evening
    triggers:
      - trigger: template
        value_template: "{{ states('sensor.outside') | float(0) > 20 }}"
    variables:
      level: "{{ (states('sensor.outside') | float(0) * 10) | int }}"
    conditions: "{{ level > 100 }}"
    actions:
      - action: light.turn_on
        target:
          entity_id: "{{ 'light.' ~ 'kitchen' }}"
        data:
          brightness: "{{ level }}"
  - alias: Mirror the door
    trigger:
      platform: state
      entity_id: binary_sensor.door
      to: "on"
    condition:
      - condition: template
        value_template: "{{ trigger.to_state.state == 'on' and trigger.from_state.state == 'off' }}"
    action:
      - service: event.fire_not_a_service_but_event
        enabled: false
      - event: door_mirrored
        event_data:
          who: "{{ trigger.entity_id }}"
          was: "{{ trigger.from_state.state }}"
  - alias: Humid
    triggers:
      - trigger: numeric_state
        entity_id: sensor.bathroom
        value_template: "{{ state.attributes.humidity }}"
        above: 70
    actions:
      - event: humid
        event_data: { value: "{{ trigger.to_state.attributes.humidity }}" }
  - alias: Broken
    triggers:
      - trigger: event
        event_type: break_me
    actions:
      - action: light.turn_on
        data:
          brightness: "{{ 1 / 0 }}"
script:
  greet:
    fields:
      who:
        description: Who to greet
        default: world
    variables:
      greeting: "Hello {{ who }}"
    sequence:
      - variables:
          loud: "{{ greeting | upper }}"
      - delay: "{{ 0 }}"
      - wait_template: "{{ is_state('switch.coffee_maker', 'on') }}"
        timeout: 5
      - event: greeted
        event_data:
          text: "{{ loud }}"
          waited: "{{ wait.completed }}"
`;

t.test('templates in triggers, variables, conditions, target and data, with both syntaxes', async (t) => {
  const clock = new ManualClock(Date.parse('2026-06-01T18:00:00Z') * 1000);
  const { core } = await setup(t, CONFIG, { clock });
  core.states.set('sensor.outside', '18');
  await settle();
  core.states.set('sensor.outside', '25.5');
  const light = await stateBecomes(core, 'light.kitchen', 'on');
  t.equal(light.attributes.brightness, 255, 'rendered 255 from the variable; the template target named the light');

  core.states.set('binary_sensor.door', 'off');
  const mirrored = nextEvent(core, 'door_mirrored');
  core.states.set('binary_sensor.door', 'on');
  t.same((await mirrored).data, { who: 'binary_sensor.door', was: 'off' }, 'trigger.from_state and entity_id as HA gives them');

  core.states.set('sensor.bathroom', 'x', { humidity: 60 });
  await settle();
  const humid = nextEvent(core, 'humid');
  core.states.set('sensor.bathroom', 'x', { humidity: 80 });
  t.same((await humid).data, { value: 80 }, 'value_template compared instead of the state; the number stays a number');
});

t.test('a script: field defaults, variables, templated delay and wait_template with the wait variable', async (t) => {
  const { core } = await setup(t, CONFIG);
  const greeted = nextEvent(core, 'greeted');
  const call = core.services.call('script', 'greet', {}, { context: core.newContext() });
  await settle();
  await settle();
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { context: core.newContext() });
  t.same((await greeted).data, { text: 'HELLO WORLD', waited: true });
  await call;
  const again = nextEvent(core, 'greeted');
  await core.services.call('script', 'greet', { who: 'Ada' }, { context: core.newContext() });
  t.same((await again).data, { text: 'HELLO ADA', waited: true }, 'already true: no wait');
});

t.test('a template error at run time stops the run and is logged once per automation', async (t) => {
  const { core, log } = await setup(t, CONFIG);
  const changes = recordEvents(core, 'state_changed');
  for (let i = 0; i < 3; i++) {
    const done = nextEvent(core, 'automation_triggered');
    core.bus.fire('break_me', {}, core.newContext());
    await done;
    await settle();
    await settle();
  }
  t.notOk(
    changes.some((e) => e.data.entity_id === 'light.kitchen'),
    'no service call',
  );
  const errors = log.entries.filter((e) => e.level === 'error' && /automation\.broken/.test(e.msg));
  t.equal(errors.length, 1, `one error logged: ${JSON.stringify(errors.map((e) => e.msg))}`);
  t.match(errors[0]?.msg, /Error rendering data template: ZeroDivisionError/);
});

t.test('template trigger with for:, wait_template timeout, a templated service name and the legacy keys', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Coffee left on
    trigger:
      - platform: template
        value_template: "{{ is_state('switch.coffee_maker', 'on') }}"
        for:
          milliseconds: 150
    action:
      - service_template: "switch.turn_{{ 'off' }}"
        data_template:
          entity_id: switch.coffee_maker
      - event: coffee_off
        event_data_template:
          after: "{{ trigger.for }}"
script:
  impatient:
    sequence:
      - wait_template: "{{ is_state('light.kitchen', 'on') }}"
        timeout:
          milliseconds: 50
      - event: waited
        event_data: { completed: "{{ wait.completed }}", remaining: "{{ wait.remaining }}" }
      - wait_template: "{{ is_state('light.kitchen', 'on') }}"
        timeout:
          milliseconds: 50
        continue_on_timeout: false
      - event: never
`,
  );
  const never = recordEvents(core, 'never');
  const off = nextEvent(core, 'coffee_off');
  const started = Date.now();
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { context: core.newContext() });
  t.same((await off).data, { after: 0.15 });
  t.ok(Date.now() - started >= 140, 'fired after the template stayed true for 150 ms');
  t.equal(core.states.get('switch.coffee_maker')?.state, 'off', 'the templated service name turned it off');

  const waited = nextEvent(core, 'waited');
  const result = core.services.call('script', 'impatient', {}, { context: core.newContext() });
  t.same((await waited).data, { completed: false, remaining: 0 });
  await result;
  t.equal(never.length, 0, 'continue_on_timeout: false stops the run');
});

t.test('a refused template in automations names the file, the line and the key', async (t) => {
  const yaml = `
hub: { name: Home, time_zone: UTC, latitude: 0, longitude: 0, elevation: 0 }
automation:
  - triggers:
      - trigger: state
        entity_id: light.x
    conditions: "{{ is_state('light.x', 'on') and }}"
    actions:
      - wait_template: "{{ ) }}"
`;
  let message = '';
  try {
    parseConfigText(yaml, '/config/configuration.yaml', SECTION_VALIDATORS);
  } catch (err) {
    message = err instanceof Error ? err.message : String(err);
  }
  t.match(message, /configuration\.yaml:7:17: automation\[0\]\.conditions: invalid template: TemplateSyntaxError/);
  t.match(message, /configuration\.yaml:9:24: automation\[0\]\.actions\[0\]\.wait_template: invalid template: TemplateSyntaxError/);
});

t.test('trigger_variables: rendered when the triggers attach, seen by their templates and by every run', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Room too warm
    trigger_variables:
      sensor: sensor.kitchen_temperature
      limit: 24
    triggers:
      - trigger: template
        value_template: "{{ states(sensor) | float(0) > limit }}"
    actions:
      - event: too_warm
        event_data:
          which: "{{ sensor }}"
          limit: "{{ limit }}"
`,
  );
  const warm = recordEvents(core, 'too_warm');
  core.states.set('sensor.kitchen_temperature', '23');
  core.states.set('sensor.kitchen_temperature', '25');
  await nextEvent(core, 'too_warm');
  t.same(
    warm.map((e) => e.data),
    [{ which: 'sensor.kitchen_temperature', limit: 24 }],
  );
});
