import t from 'tap';
import { createContext } from '../../src/core/context.js';
import type { Core } from '../../src/core/core.js';
import { DEVICES, nextEvent, recordEvents, settle, setup, stateBecomes } from './helpers.js';

const MOTION_LIGHT = `${DEVICES}
automation:
  - id: hall_light
    alias: Hall light on motion
    triggers:
      - trigger: state
        entity_id: binary_sensor.motion
        from: "off"
        to: "on"
    actions:
      - action: light.turn_on
        target: { entity_id: light.kitchen }
`;

t.test('a state trigger (from/to) runs the actions; the entity shows HA attributes', async (t) => {
  const { core } = await setup(t, MOTION_LIGHT);
  const entity = core.states.get('automation.hall_light_on_motion');
  t.equal(entity?.state, 'on');
  t.same(entity?.attributes, { last_triggered: null, mode: 'single', current: 0, id: 'hall_light', friendly_name: 'Hall light on motion' });

  const triggered = recordEvents(core, 'automation_triggered');
  core.states.set('binary_sensor.motion', 'on');
  t.equal(core.states.get('light.kitchen')?.state, 'off', 'from unknown (a new entity) does not match from: off');
  core.states.set('binary_sensor.motion', 'off');
  const cause = createContext(core.clock.now(), 'user-1');
  core.states.set('binary_sensor.motion', 'on', {}, { context: cause });
  const light = await stateBecomes(core, 'light.kitchen', 'on');
  t.equal(light.context.parent_id, cause.id, "the run's context is a child of the trigger's");
  t.equal(light.context.user_id, null);
  t.equal(triggered.length, 1);
  t.same(triggered[0]?.data, {
    name: 'Hall light on motion',
    entity_id: 'automation.hall_light_on_motion',
    source: 'state of binary_sensor.motion',
  });
  t.equal(triggered[0]?.context.id, light.context.id);
  await nextEvent(
    core,
    'state_changed',
    (e) => e.data.entity_id === 'automation.hall_light_on_motion' && e.data.new_state?.attributes.current === 0,
  );
  t.match(core.states.get('automation.hall_light_on_motion')?.attributes.last_triggered, /^\d{4}-\d\d-\d\dT/);
});

t.test('attribute-only changes do not fire a from/to trigger but fire a bare one', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Any change
    triggers: [ { trigger: state, entity_id: sensor.x } ]
    actions: [ { event: any_change } ]
  - alias: To on
    triggers: [ { trigger: state, entity_id: sensor.x, to: "on" } ]
    actions: [ { event: to_on } ]
`,
  );
  const any = recordEvents(core, 'any_change');
  const on = recordEvents(core, 'to_on');
  core.states.set('sensor.x', 'on');
  await nextEvent(core, 'to_on');
  core.states.set('sensor.x', 'on', { colour: 'red' });
  await nextEvent(core, 'any_change', () => any.length === 2);
  t.equal(on.length, 1, 'to: on did not fire for the attribute change');
});

t.test('for: fires only after the state held; a change in between cancels it', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Off for a moment
    triggers: [ { trigger: state, entity_id: binary_sensor.motion, to: "off", for: { milliseconds: 80 } } ]
    actions: [ { event: off_held } ]
  - alias: On for longer
    triggers: [ { trigger: state, entity_id: binary_sensor.motion, to: "on", for: 0.2 } ]
    actions: [ { event: on_held } ]
`,
  );
  const offHeld = recordEvents(core, 'off_held');
  core.states.set('binary_sensor.motion', 'on');
  core.states.set('binary_sensor.motion', 'off');
  core.states.set('binary_sensor.motion', 'on');
  await nextEvent(core, 'on_held');
  t.equal(offHeld.length, 0, 'off did not hold for 80 ms, so it never fired');
  const started = Date.now();
  core.states.set('binary_sensor.motion', 'off');
  await nextEvent(core, 'off_held');
  t.ok(Date.now() - started >= 70, 'fired after the hold time');
});

t.test('numeric_state fires when crossing into the range, once', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Hot
    mode: parallel
    triggers: [ { trigger: numeric_state, entity_id: sensor.temp, above: 25, below: 40 } ]
    actions: [ { event: hot } ]
`,
  );
  const hot = recordEvents(core, 'hot');
  core.states.set('sensor.temp', '20');
  core.states.set('sensor.temp', '26');
  await nextEvent(core, 'hot');
  core.states.set('sensor.temp', '27');
  core.states.set('sensor.temp', '45');
  core.states.set('sensor.temp', 'unavailable');
  core.states.set('sensor.temp', '30');
  await nextEvent(core, 'hot', () => hot.length === 2);
  t.equal(hot.length, 2, 'once per crossing, not per update inside the range');
});

t.test('conditions block the actions; the trigger service skips them by default', async (t) => {
  const { core, log } = await setup(
    t,
    `${DEVICES}
automation:
  - id: guarded
    triggers: [ { trigger: event, event_type: doorbell, event_data: { button: front } } ]
    conditions:
      - condition: or
        conditions:
          - { condition: state, entity_id: switch.coffee_maker, state: "on" }
          - condition: numeric_state
            entity_id: sensor.lux
            below: 10
    actions: [ { action: light.turn_on, target: { entity_id: light.kitchen } } ]
`,
  );
  const triggered = recordEvents(core, 'automation_triggered');
  core.bus.fire('doorbell', { button: 'front' }, core.newContext());
  core.bus.fire('doorbell', { button: 'back' }, core.newContext());
  t.equal(triggered.length, 0, 'blocked by the conditions');
  t.ok(log.entries.some((e) => e.msg.includes('conditions not met')));

  await core.services.call('automation', 'trigger', { entity_id: 'automation.guarded', skip_condition: false });
  t.equal(core.states.get('light.kitchen')?.state, 'off', 'skip_condition: false checks them');
  await core.services.call('automation', 'trigger', { entity_id: 'automation.guarded' });
  t.equal(core.states.get('light.kitchen')?.state, 'on', 'the trigger service waits for the run; conditions skipped');
  t.same(triggered[0]?.data, { name: 'guarded', entity_id: 'automation.guarded' }, 'no source for a manual trigger');

  await core.services.call('light', 'turn_off', { entity_id: 'light.kitchen' });
  core.states.set('sensor.lux', '5');
  core.bus.fire('doorbell', { button: 'front', extra: 1 }, core.newContext());
  await stateBecomes(core, 'light.kitchen', 'on');
});

/** Opens the gate the runs wait at, once they have reached it. */
async function release(core: Core): Promise<void> {
  await settle();
  core.bus.fire('release', {}, core.newContext());
}

/** An automation whose run announces itself and then waits at a gate the test opens. */
function gated(mode: string, extra = ''): string {
  return `${DEVICES}
automation:
  - id: gated
    mode: ${mode}
    ${extra}
    triggers: [ { trigger: event, event_type: go } ]
    actions:
      - event: run_started
      - wait_for_trigger: [ { trigger: event, event_type: release } ]
      - event: run_finished
`;
}

t.test('mode single: a second trigger while running is logged and dropped', async (t) => {
  const { core, log } = await setup(t, gated('single'));
  const started = recordEvents(core, 'run_started');
  const finished = recordEvents(core, 'run_finished');
  const first = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  await nextEvent(core, 'run_started');
  t.equal(core.states.get('automation.gated')?.attributes.current, 1);
  await core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  t.ok(log.entries.some((e) => e.level === 'warn' && e.msg === 'automation.gated: Already running'));
  await release(core);
  await first;
  t.equal(started.length, 1);
  t.equal(finished.length, 1);
  t.equal(core.states.get('automation.gated')?.attributes.current, 0);
});

t.test('mode restart: a new trigger stops the running run and starts again', async (t) => {
  const { core, log } = await setup(t, gated('restart'));
  const finished = recordEvents(core, 'run_finished');
  const first = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  await nextEvent(core, 'run_started');
  const second = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  await first;
  t.ok(log.entries.some((e) => e.msg === 'automation.gated: Restarting'));
  await nextEvent(core, 'run_started');
  t.equal(core.states.get('automation.gated')?.attributes.current, 1);
  await release(core);
  await second;
  t.equal(finished.length, 1, 'only the second run finished');
});

t.test('mode queued: runs wait their turn; beyond max they are dropped', async (t) => {
  const { core, log } = await setup(t, gated('queued', 'max: 2'));
  const started = recordEvents(core, 'run_started');
  const finished = recordEvents(core, 'run_finished');
  const first = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  const second = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  await core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  t.ok(log.entries.some((e) => e.msg === 'automation.gated: Maximum number of runs exceeded'));
  await nextEvent(core, 'run_started');
  t.match(core.states.get('automation.gated')?.attributes, { mode: 'queued', current: 2, max: 2 });
  t.equal(started.length, 1, 'the second waits in the queue');
  await release(core);
  await first;
  await nextEvent(core, 'run_started', () => started.length === 2);
  t.equal(finished.length, 1);
  await release(core);
  await second;
  t.equal(finished.length, 2);
  t.equal(started.length, 2);
});

t.test('mode parallel: runs overlap up to max', async (t) => {
  const { core, log } = await setup(t, gated('parallel', 'max: 2'));
  const started = recordEvents(core, 'run_started');
  const finished = recordEvents(core, 'run_finished');
  const runs = [
    core.services.call('automation', 'trigger', { entity_id: 'automation.gated' }),
    core.services.call('automation', 'trigger', { entity_id: 'automation.gated' }),
  ];
  await core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  t.ok(log.entries.some((e) => e.msg === 'automation.gated: Maximum number of runs exceeded'));
  await nextEvent(core, 'run_started', () => started.length === 2);
  t.equal(core.states.get('automation.gated')?.attributes.current, 2);
  await release(core);
  await Promise.all(runs);
  t.equal(finished.length, 2);
});

t.test('turn_off detaches the triggers and stops the running actions; turn_on and toggle re-enable', async (t) => {
  const { core } = await setup(t, gated('single'));
  const started = recordEvents(core, 'run_started');
  const finished = recordEvents(core, 'run_finished');
  const run = core.services.call('automation', 'trigger', { entity_id: 'automation.gated' });
  await nextEvent(core, 'run_started');
  await core.services.call('automation', 'turn_off', { entity_id: 'automation.gated' });
  await run;
  t.equal(core.states.get('automation.gated')?.state, 'off');
  t.equal(core.states.get('automation.gated')?.attributes.current, 0);
  core.bus.fire('go', {}, core.newContext());
  await release(core);
  t.equal(started.length, 1, 'no trigger while off');
  t.equal(finished.length, 0, 'the stopped run did not go on');

  await core.services.call('automation', 'toggle', { entity_id: 'automation.gated' });
  t.equal(core.states.get('automation.gated')?.state, 'on');
  core.bus.fire('go', {}, core.newContext());
  await nextEvent(core, 'run_started');
  await core.services.call('automation', 'turn_off', { entity_id: 'automation.gated', stop_actions: false });
  await release(core);
  await nextEvent(core, 'run_finished');
  t.pass('stop_actions: false lets the run finish');
  await core.services.call('automation', 'turn_on', { entity_id: 'automation.gated' });
  t.equal(core.states.get('automation.gated')?.state, 'on');
});

t.test('initial_state: false starts disabled; homeassistant start triggers fire at start-up', async (t) => {
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - id: disabled
    initial_state: false
    triggers: [ { trigger: event, event_type: go } ]
    actions: [ { event: should_not_happen } ]
  - id: boot
    triggers: [ { trigger: homeassistant, event: start } ]
    actions: [ { action: switch.turn_on, entity_id: switch.coffee_maker } ]
`,
  );
  t.equal(core.states.get('automation.disabled')?.state, 'off');
  await stateBecomes(core, 'switch.coffee_maker', 'on');
});

t.test('homeassistant shutdown triggers run when the hub stops, and get a moment to finish', async (t) => {
  const { core, extension } = await setup(
    t,
    `${DEVICES}
automation:
  - id: bye
    triggers: [ { trigger: homeassistant, event: shutdown } ]
    actions:
      - delay: { milliseconds: 30 }
      - action: light.turn_off
        target: { entity_id: light.living_room }
`,
  );
  await core.services.call('light', 'turn_on', { entity_id: 'light.living_room' });
  core.bus.fire('homeassistant_stop', {}, core.newContext());
  await extension.stop();
  t.equal(core.states.get('light.living_room')?.state, 'off', 'the run finished before the extension stopped');
  t.notOk(core.states.has('automation.bye'), 'stop removed the entities');
  t.notOk(core.services.has('automation', 'reload'), 'and the services');
});

t.test('actions: if/choose, condition stops quietly, stop, event data, continue_on_error', async (t) => {
  const { core, log } = await setup(
    t,
    `${DEVICES}
automation:
  - id: logic
    triggers: [ { trigger: event, event_type: go, id: go_trigger } ]
    actions:
      - if: [ { condition: trigger, id: go_trigger } ]
        then: [ { event: branch, event_data: { which: then } } ]
        else: [ { event: branch, event_data: { which: else } } ]
      - choose:
          - conditions: [ { condition: state, entity_id: light.kitchen, state: "on" } ]
            sequence: [ { event: chose, event_data: { option: 1 } } ]
        default: [ { event: chose, event_data: { option: default } } ]
      - action: light.turn_on
        continue_on_error: true
        data: { brightness: "very" }
        target: { entity_id: light.kitchen }
      - condition: not
        conditions: [ { condition: state, entity_id: switch.coffee_maker, state: "on" } ]
      - stop: all done
      - event: never
`,
  );
  const branch = recordEvents(core, 'branch');
  const chose = recordEvents(core, 'chose');
  const never = recordEvents(core, 'never');
  core.bus.fire('go', {}, core.newContext());
  await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'automation.logic' && e.data.new_state?.attributes.current === 0);
  t.same(branch[0]?.data, { which: 'then' });
  t.same(chose[0]?.data, { option: 'default' });
  t.ok(log.entries.some((e) => e.level === 'warn' && e.msg.includes('call_service light.turn_on at pos 3 failed, continuing')));
  t.ok(log.entries.some((e) => e.msg === 'automation.logic: Stop script sequence: all done'));
  t.equal(never.length, 0);
});

t.test('automation.reload re-creates the automations from the configuration', async (t) => {
  const { core } = await setup(t, MOTION_LIGHT);
  await core.services.call('automation', 'turn_off', { entity_id: 'automation.hall_light_on_motion' });
  const reloaded = nextEvent(core, 'automation_reloaded');
  await core.services.call('automation', 'reload', {});
  await reloaded;
  t.equal(core.states.get('automation.hall_light_on_motion')?.state, 'on', 'back to its configured state');
  core.states.set('binary_sensor.motion', 'off');
  core.states.set('binary_sensor.motion', 'on');
  await stateBecomes(core, 'light.kitchen', 'on');
});
