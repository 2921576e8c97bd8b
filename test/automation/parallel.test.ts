import t from 'tap';
import { DEVICES, recordEvents, setup, stateBecomes, validate } from './helpers.js';

const SCRIPTS = `${DEVICES}
script:
  both:
    sequence:
      - variables: { who: outer }
      - parallel:
          - sequence:
              - variables: { who: slow }
              # Far longer than the quick branch's 20 ms, so that a loaded machine cannot swap them.
              - delay: { milliseconds: 400 }
              - event: mark
                event_data: { who: "{{ who }}" }
          - sequence:
              - variables: { who: quick }
              - event: mark
                event_data: { who: "{{ who }}" }
              - delay: { milliseconds: 20 }
              - event: mark
                event_data: { who: "{{ who }}" }
          - action: light.turn_on
            target: { entity_id: light.kitchen }
      - event: mark
        event_data: { who: "{{ who }}" }
  failing:
    sequence:
      - parallel:
          - stop: the kettle is empty
            error: true
          - sequence:
              - delay: { milliseconds: 30 }
              - event: mark
                event_data: { who: other branch }
      - event: mark
        event_data: { who: after }
  tolerant:
    sequence:
      - parallel:
          - action: light.turn_on
            data: { brightness: very }
            target: { entity_id: light.kitchen }
            continue_on_error: true
          - action: switch.turn_on
            target: { entity_id: switch.coffee_maker }
      - event: mark
        event_data: { who: after }
  long:
    sequence:
      - parallel:
          - sequence: [ { delay: 5 }, { event: mark, event_data: { who: late } } ]
          - sequence: [ { delay: 5 }, { event: mark, event_data: { who: late } } ]
`;

t.test('parallel runs its branches at once, each with its own variables, and waits for all of them', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const marks = recordEvents(core, 'mark');
  const began = Date.now();
  await core.services.call('script', 'both', {});
  const took = Date.now() - began;
  t.same(
    marks.map((e) => e.data.who),
    ['quick', 'quick', 'slow', 'outer'],
    'the quick branch did not wait for the slow one; a branch’s variables stay in it',
  );
  t.ok(took >= 395, `the run waited for the slowest branch (${took} ms)`);
  t.equal(core.states.get('light.kitchen')?.state, 'on');
});

t.test('a failing branch fails the run once every branch has ended', async (t) => {
  const { core, log } = await setup(t, SCRIPTS);
  const marks = recordEvents(core, 'mark');
  await t.rejects(core.services.call('script', 'failing', {}), /the kettle is empty/);
  t.same(
    marks.map((e) => e.data.who),
    ['other branch'],
    'the other branch ran to its end; nothing after the parallel action ran',
  );
  t.ok(log.entries.some((e) => e.level === 'error' && e.msg.includes('script.failing: Error executing script')));
});

t.test('continue_on_error on a branch lets the run go on', async (t) => {
  const { core, log } = await setup(t, SCRIPTS);
  const marks = recordEvents(core, 'mark');
  await core.services.call('script', 'tolerant', {});
  t.ok(log.entries.some((e) => e.level === 'warn' && e.msg.includes('call_service light.turn_on at pos 1 failed, continuing')));
  t.equal(core.states.get('switch.coffee_maker')?.state, 'on');
  t.same(
    marks.map((e) => e.data.who),
    ['after'],
  );
});

t.test('stopping the script stops every branch', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const marks = recordEvents(core, 'mark');
  await core.services.call('script', 'turn_on', { entity_id: 'script.long' });
  t.equal(core.states.get('script.long')?.state, 'on');
  await core.services.call('script', 'turn_off', { entity_id: 'script.long' });
  await stateBecomes(core, 'script.long', 'off');
  t.equal(marks.length, 0);
  t.equal(core.states.get('script.long')?.attributes.current, 0);
});

t.test('parallel config problems are reported at each branch', async (t) => {
  t.same(
    validate(`
script:
  x:
    sequence:
      - parallel:
          - delay: soon
          - sequence: [ { teleport: home } ]
`),
    [
      'script.x.sequence[0].parallel[0].delay: "soon" is not a duration: expected seconds (a number), "HH:MM:SS", or a mapping of days/hours/minutes/seconds/milliseconds',
      'script.x.sequence[0].parallel[1].sequence[0]: unknown action: expected one of the keys action, service, delay, event, condition, wait_for_trigger, wait_template, stop, variables, scene, if, choose, sequence, repeat, parallel (action: is a service call, service: its legacy name)',
    ],
  );
});
