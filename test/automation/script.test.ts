import t from 'tap';
import { HubError } from '../../src/core/errors.js';
import { DEVICES, nextEvent, recordEvents, setup, stateBecomes } from './helpers.js';

const SCRIPTS = `${DEVICES}
script:
  morning:
    alias: Good morning
    icon: mdi:weather-sunny
    fields:
      level: { name: Level, description: How bright, required: false, example: 120 }
    sequence:
      - action: light.turn_on
        target: { entity_id: light.kitchen }
      - delay: { milliseconds: 40 }
      - action: switch.turn_on
        entity_id: switch.coffee_maker
      - delay: 0.04
      - action: light.turn_off
        target: { entity_id: light.kitchen }
  answer:
    sequence:
      - action: light.turn_on
        target: { entity_id: light.living_room }
      - variables: { result: { answer: 42 } }
      - stop: done
        response_variable: result
  failing:
    sequence:
      - stop: the kettle is empty
        error: true
  marker:
    sequence: [ { delay: 0.1 } ]
  looping:
    mode: queued
    sequence:
      - event: loop
      - action: script.looping
`;

t.test('script.<name> runs the sequence in order with its delays and waits for the end', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  t.same(core.states.get('script.morning')?.attributes, {
    last_triggered: null,
    mode: 'single',
    current: 0,
    icon: 'mdi:weather-sunny',
    friendly_name: 'Good morning',
  });
  const order: string[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    if (!e.data.entity_id.startsWith('script.')) order.push(`${e.data.entity_id}=${e.data.new_state?.state}`);
  });
  const started = recordEvents(core, 'script_started');
  const began = Date.now();
  const result = await core.services.call('script', 'morning', {}, { collectChanges: true });
  t.ok(Date.now() - began >= 70, 'waited for both delays');
  t.same(order, ['light.kitchen=on', 'switch.coffee_maker=on', 'light.kitchen=off']);
  t.equal(core.states.get('script.morning')?.state, 'off');
  t.same(started[0]?.data, { name: 'Good morning', entity_id: 'script.morning' });
  t.equal(started[0]?.context.id, result.context.id, 'the run uses the caller’s context, as in Home Assistant');
  t.ok(
    result.changed.some((s) => s.entity_id === 'switch.coffee_maker'),
    'so the REST answer lists what the script changed',
  );
  t.match(core.states.get('script.morning')?.attributes.last_triggered, /^\d{4}-/);
});

t.test('script.turn_on starts the script and returns without waiting; turn_off stops it', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  await core.services.call('script', 'turn_on', { entity_id: 'script.morning' });
  t.equal(core.states.get('script.morning')?.state, 'on', 'running when turn_on returns');
  t.equal(core.states.get('script.morning')?.attributes.current, 1);
  await stateBecomes(core, 'switch.coffee_maker', 'on');
  t.equal(core.states.get('light.kitchen')?.state, 'on', 'the last step has not run yet');
  await core.services.call('script', 'turn_off', { entity_id: 'script.morning' });
  t.equal(core.states.get('script.morning')?.state, 'off');
  await core.services.call('script', 'marker', {});
  t.equal(core.states.get('light.kitchen')?.state, 'on', 'well past its delay, it never took its last step');
  await core.services.call('script', 'toggle', { entity_id: 'script.morning' });
  t.equal(core.states.get('script.morning')?.state, 'on');
  await core.services.call('script', 'toggle', { entity_id: 'script.morning' });
  t.equal(core.states.get('script.morning')?.state, 'off');
});

t.test('responses: what stop returns with response_variable, else {}', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  const answer = await core.services.call('script', 'answer', {}, { returnResponse: true });
  t.same(answer.response, { answer: 42 });
  const none = await core.services.call('script', 'morning', {}, { returnResponse: true });
  t.same(none.response, {});
  t.equal((await core.services.call('script', 'answer', {})).response, null, 'nothing without return_response');
  await t.rejects(core.services.call('script', 'turn_on', { entity_id: 'script.answer' }, { returnResponse: true }), HubError);
  const catalogue = core.services.catalogue().script;
  t.match(catalogue?.morning, {
    name: 'Good morning',
    fields: { level: { name: 'Level', description: 'How bright', required: false, example: 120 } },
    response: { optional: true },
  });
});

t.test('a failing script fails its caller; a queued script calling itself is refused, not deadlocked', async (t) => {
  const { core, log } = await setup(t, SCRIPTS);
  await t.rejects(core.services.call('script', 'failing', {}), { message: 'script.failing: the kettle is empty' });
  const loops = recordEvents(core, 'loop');
  await core.services.call('script', 'looping', {});
  t.equal(loops.length, 1);
  t.ok(log.entries.some((e) => e.msg.includes('script.looping: Disallowed recursion detected')));
  t.equal(core.states.get('script.looping')?.state, 'off');
});

t.test('script.reload re-creates scripts and their services', async (t) => {
  const { core } = await setup(t, SCRIPTS);
  await core.services.call('script', 'reload', {});
  t.ok(core.services.has('script', 'morning'));
  const changed = nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'script.answer' && e.data.new_state?.state === 'off');
  await core.services.call('script', 'answer', {});
  await changed;
});
