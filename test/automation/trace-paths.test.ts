import t from 'tap';
import { DEVICES, nextEvent, settle, setup } from './helpers.js';
import { finishedTrace, finishedTraces, resultAt, stepAt } from './trace-helpers.js';

const SCRIPTS = `${DEVICES}
script:
  branches:
    sequence:
      - if: "{{ mode == 'a' }}"
        then: [{ event: was_a }]
        else: [{ event: was_not_a }]
      - choose:
          - conditions: "{{ mode == 'x' }}"
            sequence: [{ event: chose_x }]
          - conditions:
              - condition: or
                conditions:
                  - "{{ mode == 'y' }}"
                  - "{{ mode == 'b' }}"
            sequence: [{ event: chose_b }]
        default: [{ event: chose_default }]
      - repeat:
          for_each: [one, two]
          sequence: [{ event: item, event_data: { item: "{{ repeat.item }}" } }]
      - repeat:
          while: "{{ repeat.index <= 2 }}"
          sequence: [{ event: while_tick }]
      - repeat:
          until: "{{ repeat.index == 2 }}"
          sequence: [{ event: until_tick }]
      - parallel:
          - event: first_branch
          - sequence:
              - variables: { inside: 1 }
              - event: second_branch
      - sequence:
          - event: nested
  halting:
    sequence:
      - event: before
      - enabled: false
        event: disabled
      - condition: template
        value_template: "{{ go }}"
      - stop: done here
      - event: never
  failing_stop:
    sequence:
      - stop: it broke
        error: true
  waiting:
    sequence:
      - wait_template: "{{ is_state('switch.coffee_maker', 'on') }}"
        timeout: { milliseconds: 20 }
        continue_on_timeout: false
      - event: never
  slow:
    mode: single
    sequence:
      - wait_template: "{{ is_state('switch.coffee_maker', 'on') }}"
  restarting:
    mode: restart
    sequence:
      - wait_template: "{{ is_state('switch.coffee_maker', 'on') }}"
`;

t.test('if, choose, repeat, parallel and sequence steps are traced under Home Assistant paths', async (t) => {
  const { core, extension } = await setup(t, SCRIPTS);
  await core.services.call('script', 'branches', { mode: 'b' }, {});
  const trace = await finishedTrace(extension, 'script', 'branches');
  t.equal(trace.script_execution, 'finished');
  t.notOk('trigger' in trace, 'scripts have no trigger');
  const paths = Object.keys(trace.trace);
  t.same(paths, [
    'sequence/0',
    'sequence/0/if/condition/0',
    'sequence/0/else/0',
    'sequence/1',
    'sequence/1/choose/0/conditions/0',
    'sequence/1/choose/1/conditions/0',
    'sequence/1/choose/1/conditions/0/conditions/0',
    'sequence/1/choose/1/conditions/0/conditions/1',
    'sequence/1/choose/1/sequence/0',
    'sequence/2',
    'sequence/2/repeat/sequence/0',
    'sequence/3',
    'sequence/3/repeat/while/0',
    'sequence/3/repeat/sequence/0',
    'sequence/4',
    'sequence/4/repeat/sequence/0',
    'sequence/4/repeat/until/0',
    'sequence/5',
    'sequence/5/parallel/0/sequence/0',
    'sequence/5/parallel/1/sequence/0',
    'sequence/5/parallel/1/sequence/1',
    'sequence/6',
    'sequence/6/sequence/0',
  ]);
  t.same(resultAt(trace, 'sequence/0'), { choice: 'else' });
  t.same(resultAt(trace, 'sequence/0/if/condition/0'), { result: false });
  t.same(resultAt(trace, 'sequence/1'), { choice: 1 });
  t.same(resultAt(trace, 'sequence/1/choose/0/conditions/0'), { result: false });
  t.same(resultAt(trace, 'sequence/1/choose/1/conditions/0'), { result: true });
  t.same(
    trace.trace['sequence/1/choose/1/conditions/0/conditions/1']?.map((s) => s.result),
    [{ result: true }],
    'nested conditions under conditions/<n>',
  );
  t.same(
    trace.trace['sequence/2/repeat/sequence/0']?.map((s) => s.result),
    [
      { event: 'item', event_data: { item: 'one' } },
      { event: 'item', event_data: { item: 'two' } },
    ],
    'one element per iteration',
  );
  t.match(stepAt(trace, 'sequence/2/repeat/sequence/0').changed_variables, { repeat: { item: 'one', index: 1, first: true } });
  t.same(
    trace.trace['sequence/3/repeat/while/0']?.map((s) => s.result),
    [{ result: true }, { result: true }, { result: false }],
    'each while check',
  );
  t.same(
    trace.trace['sequence/4/repeat/until/0']?.map((s) => s.result),
    [{ result: false }, { result: true }],
    'each until check',
  );
  t.same(stepAt(trace, 'sequence/5/parallel/1/sequence/0').changed_variables, { inside: 1 });
  t.match(stepAt(trace, 'sequence/0').changed_variables, { mode: 'b', context: { id: String } }, 'the first step shows the run variables');
});

t.test('stop, a failed condition, stop with error and a wait that timed out end the run as Home Assistant says', async (t) => {
  const { core, extension } = await setup(t, SCRIPTS);
  await core.services.call('script', 'halting', { go: true }, {});
  const stopped = await finishedTrace(extension, 'script', 'halting');
  t.equal(stopped.script_execution, 'finished', 'a stop action finishes the script');
  t.same(resultAt(stopped, 'sequence/3'), { stop: 'done here', error: false });
  t.same(resultAt(stopped, 'sequence/2'), { result: true });
  t.notOk('sequence/1' in stopped.trace, 'a disabled action is skipped, and the paths after it keep their config index');

  await core.services.call('script', 'halting', { go: false }, {});
  const [, failedCondition] = await finishedTraces(extension, 'script', 'halting', 2);
  t.equal(failedCondition?.script_execution, 'aborted', 'a condition action that fails aborts');
  t.same(failedCondition && resultAt(failedCondition, 'sequence/2'), { result: false });
  t.equal(failedCondition?.last_step, 'sequence/2');

  await t.rejects(core.services.call('script', 'failing_stop', {}, {}), /it broke/);
  const failedStop = await finishedTrace(extension, 'script', 'failing_stop');
  t.equal(failedStop.script_execution, 'aborted');
  t.same(resultAt(failedStop, 'sequence/0'), { stop: 'it broke', error: true });
  t.equal(stepAt(failedStop, 'sequence/0').error, 'it broke');

  await core.services.call('script', 'waiting', {}, {});
  const waited = await finishedTrace(extension, 'script', 'waiting');
  t.equal(waited.script_execution, 'aborted', 'a wait that timed out without continue_on_timeout aborts');
  t.match(resultAt(waited, 'sequence/0'), { wait: { completed: false, remaining: 0 }, timeout: true });
});

t.test('a run refused by single mode, a restarted one and a stopped one are traced too', async (t) => {
  const { core, extension } = await setup(t, SCRIPTS);
  await core.services.call('script', 'turn_on', {}, { target: { entity_id: 'script.slow' } });
  await settle();
  await core.services.call('script', 'turn_on', {}, { target: { entity_id: 'script.slow' } });
  const list = extension.traces.list('script', 'slow');
  t.equal(list.length, 2);
  t.match(list[0], { state: 'running', script_execution: null, timestamp: { finish: null } }, 'a running run is listed');
  t.match(list[1], { state: 'stopped', script_execution: 'failed_single' });
  await core.services.call('script', 'turn_off', {}, { target: { entity_id: 'script.slow' } });
  const traces = await finishedTraces(extension, 'script', 'slow', 2);
  t.equal(traces[0]?.script_execution, 'cancelled', 'stopped from outside');

  await core.services.call('script', 'turn_on', {}, { target: { entity_id: 'script.restarting' } });
  await settle();
  await core.services.call('script', 'turn_on', {}, { target: { entity_id: 'script.restarting' } });
  await settle();
  const on = nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'switch.coffee_maker');
  await core.services.call('switch', 'turn_on', {}, { target: { entity_id: 'switch.coffee_maker' } });
  await on;
  const restarted = await finishedTraces(extension, 'script', 'restarting', 2);
  t.same(
    restarted.map((trace) => trace.script_execution),
    ['cancelled', 'finished'],
  );
});
