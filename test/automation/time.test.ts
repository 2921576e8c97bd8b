import t from 'tap';
import { TimeZone } from '../../src/automation/local-time.js';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { DEVICES, nextEvent, recordEvents, setup } from './helpers.js';

const us = (iso: string) => Date.parse(iso) * 1000;
const amsterdam = TimeZone.of('Europe/Amsterdam') as TimeZone;

t.test('local time in the hub zone, with weekday and the fraction of a second', async (t) => {
  t.same(amsterdam.local(us('2026-01-15T06:00:00.250Z')), { year: 2026, month: 1, day: 15, weekday: 3, secondsOfDay: 7 * 3600 + 0.25 });
  t.same(amsterdam.local(us('2026-07-15T23:30:00Z')), { year: 2026, month: 7, day: 16, weekday: 3, secondsOfDay: 1.5 * 3600 });
  t.equal(TimeZone.of('Mars/Olympus'), undefined);
});

t.test('nextAt: later today, else tomorrow, across daylight-saving changes', async (t) => {
  t.equal(isoFromMicros(amsterdam.nextAt(us('2026-01-15T05:00:00Z'), 7 * 3600)), '2026-01-15T06:00:00+00:00');
  t.equal(isoFromMicros(amsterdam.nextAt(us('2026-01-15T06:00:00Z'), 7 * 3600)), '2026-01-16T06:00:00+00:00', 'strictly after');
  t.equal(
    isoFromMicros(amsterdam.nextAt(us('2026-03-28T12:00:00Z'), 7 * 3600)),
    '2026-03-29T05:00:00+00:00',
    'summer time: 07:00 is 05:00 UTC',
  );
  t.equal(
    isoFromMicros(amsterdam.nextAt(us('2026-03-29T00:00:00Z'), 2.5 * 3600)),
    '2026-03-29T01:30:00+00:00',
    '02:30 does not exist that night; it fires at 03:30 summer time',
  );
  t.equal(
    isoFromMicros(amsterdam.nextAt(us('2026-10-25T00:00:00Z'), 2.5 * 3600)),
    '2026-10-25T01:30:00+00:00',
    'the repeated hour fires once',
  );
  t.equal(isoFromMicros(TimeZone.UTC.nextAt(us('2026-01-15T23:59:59Z'), 0)), '2026-01-16T00:00:00+00:00');
});

t.test('a time trigger fires at the local time in the hub time zone', async (t) => {
  // 07:00 in Amsterdam on 15 January is 06:00 UTC; the clock stands 50 ms before it.
  const clock = new ManualClock(us('2026-01-15T06:00:00Z') - 50_000);
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - id: wake_up
    triggers:
      - { trigger: time, at: "07:00" }
      - { trigger: time, at: ["06:00:00", "23:00"] }
    conditions:
      - { condition: time, after: "06:30", before: "07:30", weekday: [mon, tue, wed, thu, fri] }
    actions:
      - { action: light.turn_on, target: { entity_id: light.kitchen } }
`,
    { clock },
  );
  const triggered = await nextEvent(core, 'automation_triggered');
  t.equal(triggered.data.source, 'time');
  t.equal(core.states.get('automation.wake_up')?.attributes.last_triggered, isoFromMicros(clock.now()));
  await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'light.kitchen');
  t.equal(core.states.get('light.kitchen')?.state, 'on');
});

t.test('time conditions: after/before (also across midnight) and weekdays', async (t) => {
  // Thursday 15 January 2026, 07:00 in Amsterdam.
  const clock = new ManualClock(us('2026-01-15T06:00:00Z'));
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - id: morning
    triggers: []
    conditions: [ { condition: time, after: "06:00", before: "08:00" } ]
    actions: [ { event: ran, event_data: { id: morning } } ]
  - id: night
    triggers: []
    conditions: [ { condition: time, after: "22:00", before: "06:00" } ]
    actions: [ { event: ran, event_data: { id: night } } ]
  - id: weekend
    triggers: []
    conditions: [ { condition: time, weekday: [sat, sun] } ]
    actions: [ { event: ran, event_data: { id: weekend } } ]
  - id: thursday
    triggers: []
    conditions: [ { condition: time, weekday: thu, before: "07:00:01" } ]
    actions: [ { event: ran, event_data: { id: thursday } } ]
`,
    { clock },
  );
  const ran = recordEvents(core, 'ran');
  for (const id of ['morning', 'night', 'weekend', 'thursday']) {
    await core.services.call('automation', 'trigger', { entity_id: `automation.${id}`, skip_condition: false });
  }
  t.same(
    ran.map((e) => e.data.id),
    ['morning', 'thursday'],
  );
  clock.advance(16 * 3600 * 1_000_000);
  await core.services.call('automation', 'trigger', { entity_id: 'automation.night', skip_condition: false });
  t.same(ran.at(-1)?.data, { id: 'night' }, '23:00 is inside 22:00-06:00');
});

t.test('a time condition between an input_datetime and a timestamp sensor, read when it is checked', async (t) => {
  // 07:00 in Amsterdam (winter time).
  const clock = new ManualClock(us('2026-01-15T06:00:00Z'));
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - alias: Morning light
    triggers:
      - { trigger: event, event_type: motion }
    conditions:
      - { condition: time, after: input_datetime.wake_up, before: sensor.leave_time }
    actions:
      - { action: light.turn_on, target: { entity_id: light.kitchen } }
`,
    { clock },
  );
  const wakeUp = (hour: number) =>
    core.states.set('input_datetime.wake_up', `0${hour}:30:00`, { has_date: false, has_time: true, hour, minute: 30, second: 0 });
  // 08:15 Amsterdam, as the sensor gives it in UTC.
  core.states.set('sensor.leave_time', '2026-01-15T07:15:00+00:00', { device_class: 'timestamp' });
  wakeUp(6);
  const runs = recordEvents(core, 'automation_triggered');
  core.bus.fire('motion', {}, core.newContext());
  await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'light.kitchen');
  t.equal(core.states.get('light.kitchen')?.state, 'on', '06:30 < 07:00 < 08:15');
  await core.services.call('light', 'turn_off', { entity_id: 'light.kitchen' });

  wakeUp(8);
  core.bus.fire('motion', {}, core.newContext());
  core.states.set('sensor.leave_time', 'unknown', { device_class: 'timestamp' });
  wakeUp(6);
  core.bus.fire('motion', {}, core.newContext());
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(core.states.get('light.kitchen')?.state, 'off', 'not after 08:30, nor with no leave time');
  t.equal(runs.length, 1, 'only the first motion passed the condition');
});
