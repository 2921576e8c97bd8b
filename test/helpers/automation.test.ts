import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { MINIMAL_CONFIG, startTestHub } from './hub.js';
import { ManualScheduler } from './manual-scheduler.js';
import { waitForState } from './wait.js';

const YAML = `${MINIMAL_CONFIG}
input_boolean:
  guest_mode: {name: Guest mode}
input_select:
  house_mode: {name: House mode, options: [Home, Away, Night]}
counter:
  arrivals: {name: Arrivals}
timer:
  guest_light: {name: Guest light, duration: "0:10:00"}
automation:
  - alias: Guests arrive
    trigger:
      - platform: state
        entity_id: input_boolean.guest_mode
        to: "on"
    condition:
      - condition: state
        entity_id: input_select.house_mode
        state: Home
    action:
      - service: counter.increment
        target: {entity_id: counter.arrivals}
      - service: light.turn_on
        target: {entity_id: light.hallway}
      - service: timer.start
        target: {entity_id: timer.guest_light}
  - alias: Guest light off
    triggers:
      - trigger: event
        event_type: timer.finished
        event_data: {entity_id: timer.guest_light}
    actions:
      - action: light.turn_off
        target: {entity_id: light.hallway}
      - action: input_boolean.turn_off
        target: {entity_id: input_boolean.guest_mode}
`;

t.test('automations written the way Home Assistant users write them drive and follow the helpers', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 18) * 1000);
  const scheduler = new ManualScheduler(clock);
  const { hub } = await startTestHub(t, { yaml: YAML, clock, scheduler });
  const core = hub.core;
  await core.services.call('input_boolean', 'turn_on', { entity_id: 'input_boolean.guest_mode' });
  await waitForState(core, 'timer.guest_light', (s) => s.state === 'active');
  t.equal(core.states.get('counter.arrivals')?.state, '1');
  t.equal(core.states.get('light.hallway')?.state, 'on');

  scheduler.advance(10 * 60_000);
  await waitForState(core, 'input_boolean.guest_mode', (s) => s.state === 'off');
  t.equal(core.states.get('light.hallway')?.state, 'off', 'the timer finishing turned the light off');

  await core.services.call('input_select', 'select_option', { entity_id: 'input_select.house_mode', option: 'Away' });
  await core.services.call('input_boolean', 'turn_on', { entity_id: 'input_boolean.guest_mode' });
  t.equal(core.states.get('counter.arrivals')?.state, '1', 'the condition on the input_select held it back');
  t.equal(core.states.get('timer.guest_light')?.state, 'idle');
});
