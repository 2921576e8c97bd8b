import t from 'tap';
import { DEVICES, nextEvent, recordEvents, settle, setup, validate } from './helpers.js';

/** Templated `for:` and `timeout:`, rendered when the trigger fires or the wait starts, with the trigger's variables. */
const CONFIG = `${DEVICES}
automation:
  - alias: Held as long as the sensor says
    triggers:
      - trigger: state
        entity_id: binary_sensor.motion
        to: "on"
        for: { milliseconds: "{{ trigger.to_state.attributes.hold_ms }}" }
    actions:
      - event: motion_held
        event_data: { for: "{{ trigger.for }}" }
  - alias: Warm for a while
    triggers:
      - trigger: numeric_state
        entity_id: sensor.temp
        above: 25
        for: "{{ trigger.to_state.state | float - 26 }}"
    actions:
      - event: warm_held
        event_data: { for: "{{ trigger.for }}" }
  - alias: Coffee on for a while
    triggers:
      - trigger: template
        value_template: "{{ is_state('switch.coffee_maker', 'on') }}"
        for: "0:00:00.{{ '05' }}"
    actions:
      - event: coffee_held
        event_data: { for: "{{ trigger.for }}" }
  - alias: Broken for
    triggers:
      - trigger: state
        entity_id: binary_sensor.window
        for: "{{ 1 / 0 }}"
    actions:
      - event: never
  - alias: Not a duration
    triggers:
      - trigger: state
        entity_id: binary_sensor.door
        for: "{{ 'soon' }}"
    actions:
      - event: never
  - alias: Waits as long as asked
    triggers:
      - trigger: event
        event_type: wait_please
    actions:
      - wait_template: "{{ is_state('light.kitchen', 'on') }}"
        timeout: "{{ trigger.event.data.ms / 1000 }}"
      - event: template_waited
        event_data: { completed: "{{ wait.completed }}" }
      - wait_for_trigger:
          - trigger: event
            event_type: never_comes
        timeout: { milliseconds: "{{ trigger.event.data.ms }}" }
      - event: trigger_waited
        event_data: { trigger: "{{ wait.trigger }}", remaining: "{{ wait.remaining }}" }
  - alias: Bad timeout
    triggers:
      - trigger: event
        event_type: bad_timeout
    actions:
      - wait_template: "{{ false }}"
        timeout: "{{ 'a while' }}"
      - event: never
  - alias: Held state condition
    mode: parallel
    triggers:
      - trigger: event
        event_type: check_held
    conditions:
      - condition: state
        entity_id: switch.coffee_maker
        state: "on"
        for: { seconds: "{{ trigger.event.data.s }}" }
    actions:
      - event: was_held
`;

t.test('a templated for: is rendered when the trigger fires, with trigger, and trigger.for is what it rendered', async (t) => {
  const { core } = await setup(t, CONFIG);
  const held = nextEvent(core, 'motion_held');
  const started = Date.now();
  core.states.set('binary_sensor.motion', 'on', { hold_ms: 60 });
  t.same((await held).data, { for: 0.06 });
  t.ok(Date.now() - started >= 50, 'waited the rendered 60 ms');

  const warm = nextEvent(core, 'warm_held');
  core.states.set('sensor.temp', '20');
  core.states.set('sensor.temp', '26');
  t.same((await warm).data, { for: 0 }, 'rendered from the new state, to seconds');

  const coffee = nextEvent(core, 'coffee_held');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { context: core.newContext() });
  t.same((await coffee).data, { for: 0.05 }, 'a template trigger, "H:MM:SS.F"');
});

t.test('a for: that fails to render or is not a duration is logged with the automation, and the trigger does not fire', async (t) => {
  const { core, log } = await setup(t, CONFIG);
  const never = recordEvents(core, 'never');
  core.states.set('binary_sensor.window', 'on');
  core.states.set('binary_sensor.door', 'on');
  await settle();
  const errors = log.entries.filter((e) => e.level === 'error').map((e) => e.msg);
  t.match(errors, [
    /^automation\.broken_for: Error rendering for template: ZeroDivisionError/,
    /^automation\.not_a_duration: Error rendering for template: "soon" is not a duration/,
  ]);
  t.equal(never.length, 0);
});

t.test('a templated timeout: is rendered when the wait starts, with the run variables', async (t) => {
  const { core } = await setup(t, CONFIG);
  const template = nextEvent(core, 'template_waited');
  const waited = nextEvent(core, 'trigger_waited');
  const started = Date.now();
  core.bus.fire('wait_please', { ms: 40 }, core.newContext());
  t.same((await template).data, { completed: false });
  t.same((await waited).data, { trigger: null, remaining: 0 });
  t.ok(Date.now() - started >= 70, 'two waits of 40 ms each');
});

t.test('a timeout that is not a duration stops the run, logged with the automation', async (t) => {
  const { core, log } = await setup(t, CONFIG);
  const never = recordEvents(core, 'never');
  const done = nextEvent(core, 'automation_triggered');
  core.bus.fire('bad_timeout', {}, core.newContext());
  await done;
  await settle();
  await settle();
  t.equal(never.length, 0, 'the run stopped at the wait');
  const errors = log.entries.filter((e) => e.level === 'error' && /bad_timeout/.test(e.msg)).map((e) => e.msg);
  t.match(errors, [/Error rendering timeout template: "a while" is not a duration/]);
});

t.test('a templated for: in a state condition is rendered when the condition is checked', async (t) => {
  const { core } = await setup(t, CONFIG);
  const held = recordEvents(core, 'was_held');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { context: core.newContext() });
  core.bus.fire('check_held', { s: 3600 }, core.newContext());
  const ran = nextEvent(core, 'was_held');
  core.bus.fire('check_held', { s: 0 }, core.newContext());
  await ran;
  await settle();
  t.equal(held.length, 1, 'on for 0 seconds, but not for an hour');
});

t.test('templates in for: and timeout: load; broken ones name their key', async (t) => {
  t.same(
    validate(`
automation:
  - triggers:
      - trigger: state
        entity_id: light.x
        for: "{{ states('input_number.minutes') | int }}:00"
    conditions:
      - condition: state
        entity_id: light.x
        state: "on"
        for: { minutes: "{{ 5 }}" }
    actions:
      - wait_template: "{{ false }}"
        timeout: "{{ 5 }}"
`),
    [],
  );
  t.same(
    validate(`
automation:
  - triggers:
      - trigger: state
        entity_id: light.x
        for: "{{ 5 "
    actions:
      - wait_for_trigger: { trigger: event, event_type: x }
        timeout: { seconds: "{% if %}" }
`),
    [
      "automation[0].triggers[0].for: invalid template: TemplateSyntaxError: unexpected end of template, expected 'end of print statement'. (line 1, column 6 of the template)",
      "automation[0].actions[0].timeout.seconds: invalid template: TemplateSyntaxError: Expected an expression, got 'end of statement block' (line 1, column 7 of the template)",
    ],
  );
});
