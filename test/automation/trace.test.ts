import t from 'tap';
import { DEVICES, nextEvent, setup, validate } from './helpers.js';
import { finishedTrace, finishedTraces, resultAt, stepAt } from './trace-helpers.js';

const AUTOMATIONS = `${DEVICES}
automation:
  - id: evening
    alias: Evening
    triggers:
      - trigger: event
        event_type: other
      - trigger: event
        event_type: go
    conditions:
      - "{{ trigger.event.data.ok | default(true) }}"
    actions:
      - action: light.turn_on
        target: { entity_id: light.kitchen }
        data: { brightness: 120 }
      - variables: { level: "{{ 40 + 2 }}" }
      - event: done
        event_data: { level: "{{ level }}" }
  - id: failing
    triggers: [{ trigger: event, event_type: fail }]
    actions:
      - action: light.no_such_service
        target: { entity_id: light.kitchen }
      - event: not_reached
  - id: carrying_on
    triggers: [{ trigger: event, event_type: carry }]
    actions:
      - action: light.no_such_service
        continue_on_error: true
      - event: carried
  - alias: No id here
    triggers: [{ trigger: event, event_type: anonymous }]
    actions: [{ event: anonymous_done }]
`;

t.test('a run that finishes keeps its trigger, conditions and each step with its result and variables', async (t) => {
  const { core, extension } = await setup(t, AUTOMATIONS);
  const triggered = nextEvent(core, 'automation_triggered');
  core.bus.fire('go', { ok: true }, core.newContext());
  const context = (await triggered).context;
  const trace = await finishedTrace(extension, 'automation', 'evening');

  t.equal(trace.state, 'stopped');
  t.equal(trace.script_execution, 'finished');
  t.equal(trace.domain, 'automation');
  t.equal(trace.item_id, 'evening');
  t.equal(trace.trigger, "event 'go'");
  t.equal(trace.last_step, 'action/2');
  t.same(
    trace.context,
    { id: context.id, parent_id: context.parent_id, user_id: null },
    'the run context, as automation_triggered carried it',
  );
  t.match(trace.timestamp, { start: /^\d{4}-.*\+00:00$/, finish: /^\d{4}-.*\+00:00$/ });
  t.same(Object.keys(trace.trace), ['trigger/1', 'condition/0', 'action/0', 'action/1', 'action/2'], 'steps in the order reached');
  t.match(stepAt(trace, 'trigger/1').changed_variables, { trigger: { platform: 'event', idx: '1', event: { data: { ok: true } } } });
  t.match(
    stepAt(trace, 'trigger/1').changed_variables,
    { this: { entity_id: 'automation.evening', state: 'on' } },
    'template states as JSON',
  );
  t.same(resultAt(trace, 'condition/0'), { result: true });
  t.same(resultAt(trace, 'action/0'), {
    params: { domain: 'light', service: 'turn_on', service_data: { brightness: 120 }, target: { entity_id: ['light.kitchen'] } },
    running_script: false,
  });
  t.same(stepAt(trace, 'action/1').changed_variables, { level: 42 }, 'the variables an action set');
  t.same(resultAt(trace, 'action/2'), { event: 'done', event_data: { level: 42 } });
  t.match(trace.config, { id: 'evening', alias: 'Evening' }, 'the configuration as written');
  t.equal(trace.error, undefined);
});

t.test('a run stopped by its condition is kept as failed_conditions, with the condition result', async (t) => {
  const { core, extension } = await setup(t, AUTOMATIONS);
  core.bus.fire('go', { ok: false }, core.newContext());
  const trace = await finishedTrace(extension, 'automation', 'evening');
  t.equal(trace.script_execution, 'failed_conditions');
  t.same(resultAt(trace, 'condition/0'), { result: false });
  t.same(Object.keys(trace.trace), ['trigger/1', 'condition/0']);
  t.equal(trace.last_step, 'condition/0');
});

t.test('an error ends the run: the step and the trace carry it; continue_on_error records it and goes on', async (t) => {
  const { core, extension } = await setup(t, AUTOMATIONS);
  core.bus.fire('fail', {}, core.newContext());
  const failed = await finishedTrace(extension, 'automation', 'failing');
  t.equal(failed.script_execution, 'error');
  t.match(failed.error, /light\.no_such_service not found/);
  t.match(stepAt(failed, 'action/0').error, /light\.no_such_service not found/);
  t.notOk('action/1' in failed.trace, 'nothing after the error');

  core.bus.fire('carry', {}, core.newContext());
  const carried = await finishedTrace(extension, 'automation', 'carrying_on');
  t.equal(carried.script_execution, 'finished');
  t.equal(carried.error, undefined);
  t.match(stepAt(carried, 'action/0').error, /not found/);
  t.same(resultAt(carried, 'action/1'), { event: 'carried', event_data: {} });
});

t.test('an automation without id is traced under its object id; a manual trigger under "trigger"', async (t) => {
  const { core, extension } = await setup(t, AUTOMATIONS);
  core.bus.fire('anonymous', {}, core.newContext());
  const anon = await finishedTrace(extension, 'automation', 'no_id_here');
  t.equal(anon.script_execution, 'finished');

  await core.services.call('automation', 'trigger', { entity_id: 'automation.evening', skip_condition: true }, {});
  const manual = await finishedTrace(extension, 'automation', 'evening');
  t.equal(manual.trigger, null);
  t.same(Object.keys(manual.trace), ['trigger', 'action/0', 'action/1', 'action/2'], 'skipped conditions are not traced');
});

const BOUNDED = `${DEVICES}
automation:
  - id: counted
    triggers: [{ trigger: event, event_type: count }]
    actions: [{ event: counted }]
  - id: two_only
    trace: { stored_traces: 2 }
    triggers: [{ trigger: event, event_type: two }]
    actions: [{ event: two_done }]
script:
  long_loop:
    sequence:
      - repeat:
          count: 10000
          sequence:
            - variables: { n: "{{ repeat.index }}" }
            - event: tick
      - event: after_loop
`;

t.test('the last five runs are kept (stored_traces changes it), oldest dropped first', async (t) => {
  const { core, extension } = await setup(t, BOUNDED);
  for (let i = 0; i < 7; i++) {
    core.bus.fire('count', {}, core.newContext());
    await finishedTraces(extension, 'automation', 'counted', Math.min(i + 1, 5));
  }
  const all = await finishedTraces(extension, 'automation', 'counted', 5);
  t.equal(extension.traces.list('automation', 'counted').length, 5, 'five kept after seven runs');
  t.equal(new Set(all.map((trace) => trace.run_id)).size, 5);
  const contexts = extension.traces.contexts('automation', 'counted');
  t.equal(Object.keys(contexts).length, 5, 'one context per kept run');

  for (let i = 0; i < 3; i++) {
    core.bus.fire('two', {}, core.newContext());
    await finishedTraces(extension, 'automation', 'two_only', Math.min(i + 1, 2));
  }
  t.equal(extension.traces.list('automation', 'two_only').length, 2, 'stored_traces: 2');
});

t.test('a repeat of 10,000 iterations keeps the last 20 of each step, counts the rest, and still traces what follows', async (t) => {
  const { core, extension } = await setup(t, BOUNDED);
  await core.services.call('script', 'long_loop', {}, {});
  const trace = await finishedTrace(extension, 'script', 'long_loop');
  t.equal(trace.script_execution, 'finished');
  t.equal(trace.trace['sequence/0/repeat/sequence/0']?.length, 20);
  t.equal(trace.trace['sequence/0/repeat/sequence/1']?.length, 20);
  const iterations = trace.trace['sequence/0/repeat/sequence/0'] as readonly { changed_variables?: Record<string, unknown> }[];
  t.same(iterations.at(-1)?.changed_variables?.repeat, { first: false, index: 10_000, last: true }, 'the last iteration is kept');
  t.equal(trace.steps_dropped, 2 * 10_000 - 40);
  t.same(resultAt(trace, 'sequence/1'), { event: 'after_loop', event_data: {} }, 'the step after the loop is there');
  t.equal(trace.last_step, 'sequence/1');
  t.ok(JSON.stringify(trace).length < 64 * 1024, 'the whole trace stays small');
});

t.test('trace: stored_traces is checked like the rest of the configuration', async (t) => {
  t.same(
    validate(`
automation:
  - id: a
    trace: { stored_traces: -1 }
    triggers: [{ trigger: event, event_type: x }]
    actions: []
  - id: b
    trace: { stored_traces: 3, keep: forever }
    triggers: [{ trigger: event, event_type: x }]
    actions: []
script:
  s:
    trace: { stored_traces: 1000 }
    sequence: []
`),
    [
      'automation[0].trace.stored_traces: -1 is not allowed: expected an integer from 0 to 100',
      'automation[1].trace.keep: unknown option; allowed: stored_traces',
      'script.s.trace.stored_traces: 1000 is not allowed: expected an integer from 0 to 100',
    ],
  );
});
