import t from 'tap';
import { helperHub } from './helper-setup.js';

t.test('counter: step, minimum/maximum, reset, set_value', async (t) => {
  const { call, state, attrs } = await helperHub(
    t,
    `counter:
  cups: {name: Cups, initial: 2, step: 3, minimum: 0, maximum: 10}
  plain:
`,
  );
  const id = 'counter.cups';
  t.equal(state(id), '2');
  t.same(attrs(id), { friendly_name: 'Cups', editable: false, initial: 2, step: 3, minimum: 0, maximum: 10 });
  t.same(attrs('counter.plain'), { editable: false, initial: 0, step: 1 }, 'minimum and maximum only when set');
  await call('counter', 'increment', id);
  t.equal(state(id), '5');
  await call('counter', 'increment', id);
  await call('counter', 'increment', id);
  t.equal(state(id), '10', 'kept at the maximum');
  await call('counter', 'reset', id);
  t.equal(state(id), '2');
  await call('counter', 'decrement', id);
  t.equal(state(id), '0', 'kept at the minimum');
  await call('counter', 'set_value', id, { value: 7 });
  t.equal(state(id), '7');
  await t.rejects(call('counter', 'set_value', id, { value: 11 }), {
    message: 'Validation error: Value 11 for counter.cups exceeding the maximum value of 10',
  });
  await call('counter', 'decrement', 'counter.plain');
  t.equal(state('counter.plain'), '-1', 'no minimum: below zero');
});

t.test('timer: start, pause, resume, cancel, finish on the clock, with their events', async (t) => {
  const { call, state, attrs, scheduler, events } = await helperHub(t, 'timer:\n  tea: {name: Tea, duration: "00:03:00"}\n');
  const id = 'timer.tea';
  t.equal(state(id), 'idle');
  t.same(attrs(id), { friendly_name: 'Tea', duration: '0:03:00', editable: false });

  await call('timer', 'start', id);
  t.equal(state(id), 'active');
  t.same(attrs(id), {
    friendly_name: 'Tea',
    duration: '0:03:00',
    editable: false,
    finishes_at: '2026-01-15T06:03:00+00:00',
    remaining: '0:03:00',
  });
  scheduler.advance(60_000);
  t.equal(state(id), 'active');
  await call('timer', 'pause', id);
  t.equal(state(id), 'paused');
  t.same(attrs(id), { friendly_name: 'Tea', duration: '0:03:00', editable: false, remaining: '0:02:00' });
  scheduler.advance(600_000);
  t.equal(state(id), 'paused', 'a paused timer does not run');
  await call('timer', 'start', id);
  t.equal(attrs(id)?.finishes_at, '2026-01-15T06:13:00+00:00', 'resumes with what was left');
  scheduler.advance(119_000);
  t.equal(state(id), 'active');
  scheduler.advance(1000);
  t.equal(state(id), 'idle', 'finished at its end');
  t.same(attrs(id), { friendly_name: 'Tea', duration: '0:03:00', editable: false });
  t.same(
    events.map((e) => e.type),
    ['timer.started', 'timer.paused', 'timer.restarted', 'timer.finished'],
  );
  t.same(events.at(-1)?.data, { entity_id: id, finished_at: '2026-01-15T06:13:00+00:00' });

  events.length = 0;
  await call('timer', 'start', id, { duration: 30 });
  t.equal(attrs(id)?.duration, '0:00:30', 'a start with a duration runs that long');
  await call('timer', 'cancel', id);
  t.equal(state(id), 'idle');
  t.equal(attrs(id)?.duration, '0:03:00', 'cancel goes back to the configured duration');
  scheduler.advance(60_000);
  await call('timer', 'start', id, { duration: '0:00:10' });
  await call('timer', 'finish', id);
  t.same(
    events.map((e) => e.type),
    ['timer.started', 'timer.cancelled', 'timer.started', 'timer.finished'],
  );
  scheduler.advance(20_000);
  t.equal(events.length, 4, 'a finished timer does not fire again');
});

t.test('timer: change adds or removes time from an active timer only', async (t) => {
  const { call, state, attrs, scheduler, events } = await helperHub(t, 'timer:\n  oven: {duration: 60}\n');
  const id = 'timer.oven';
  await t.rejects(call('timer', 'change', id, { duration: 10 }), {
    message: 'Timer timer.oven is not running, only active timers can be changed',
  });
  await call('timer', 'start', id);
  scheduler.advance(20_000);
  await call('timer', 'change', id, { duration: 10 });
  t.equal(attrs(id)?.remaining, '0:00:50');
  t.equal(attrs(id)?.finishes_at, '2026-01-15T06:01:10+00:00');
  await t.rejects(call('timer', 'change', id, { duration: 30 }), { message: 'Not possible to change timer timer.oven beyond duration' });
  await t.rejects(call('timer', 'change', id, { duration: -60 }), {
    message: 'Not possible to change timer timer.oven to negative time remaining',
  });
  await call('timer', 'change', id, { duration: '-0:00:40' });
  t.equal(attrs(id)?.remaining, '0:00:10');
  scheduler.advance(10_000);
  t.equal(state(id), 'idle');
  t.same(
    events.map((e) => e.type),
    ['timer.started', 'timer.changed', 'timer.changed', 'timer.finished'],
  );
  await t.rejects(call('timer', 'start', id, { duration: 'soon' }), { message: /expected a duration/ });
});
