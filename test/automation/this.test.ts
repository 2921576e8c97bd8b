import t from 'tap';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { DEVICES, nextEvent, setup } from './helpers.js';

/** `this` is the automation's, script's or template entity's own state as it is when a template renders. */
const CONFIG = `${DEVICES}
automation:
  - alias: Looks at itself
    triggers:
      - trigger: event
        event_type: look
    actions:
      - event: seen
        event_data:
          state: "{{ this.state }}"
          current: "{{ this.attributes.current }}"
          triggered: "{{ this.attributes.last_triggered is not none }}"
  - alias: Armed by its first run
    triggers:
      - trigger: template
        value_template: "{{ is_state('switch.coffee_maker', 'on') and (this.attributes.last_triggered or '') != '' }}"
    actions:
      - event: armed_and_fired
script:
  introspect:
    sequence:
      - event: script_seen
        event_data: { state: "{{ this.state }}", current: "{{ this.attributes.current }}" }
`;

t.test("an automation's actions see its state while it runs, not the state before the run", async (t) => {
  const { core } = await setup(t, CONFIG);
  const seen = nextEvent(core, 'seen');
  core.bus.fire('look', {}, core.newContext());
  t.same((await seen).data, { state: 'on', current: 1, triggered: true }, 'current and last_triggered as the run wrote them');
});

t.test("an automation's trigger templates read this when they render, not when the trigger attached", async (t) => {
  const { core, log } = await setup(t, CONFIG);
  const manual = nextEvent(core, 'armed_and_fired');
  await core.services.call('automation', 'trigger', { entity_id: 'automation.armed_by_its_first_run' }, { context: core.newContext() });
  await manual;
  const fired = nextEvent(core, 'armed_and_fired');
  await core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { context: core.newContext() });
  t.same((await fired).data, {}, 'the trigger fired: its template saw last_triggered set by the manual run');
  t.same(
    log.entries.filter((e) => e.level === 'error').map((e) => e.msg),
    [],
    'this was never None, though the trigger attached before the automation first wrote its state',
  );
});

t.test("a script's sequence sees the script running", async (t) => {
  const { core } = await setup(t, CONFIG);
  const seen = nextEvent(core, 'script_seen');
  await core.services.call('script', 'introspect', {}, { context: core.newContext() });
  t.same((await seen).data, { state: 'on', current: 1 });
});

t.test("a template entity's this is its own current state at each render", async (t) => {
  const th = await startTestHub(t, {
    yaml: `${MINIMAL_CONFIG}
template:
  - triggers:
      - trigger: event
        event_type: bump
    sensor:
      - name: Bumps
        state: "{{ this.state | int(0) + 1 }}"
        attributes:
          before: "{{ this.state }}"
`,
  });
  const core = th.hub.core;
  for (const expected of ['1', '2', '3']) {
    const res = await th.api('/api/events/bump', { method: 'POST', body: '{}' });
    t.equal(res.status, 200);
    await waitForState(core, 'sensor.bumps', (s) => s.state === expected);
  }
  const state = (await (await th.api('/api/states/sensor.bumps')).json()) as { state: string; attributes: { before: string } };
  t.same([state.state, state.attributes.before], ['3', '2'], 'each render saw the state the one before wrote');
});
