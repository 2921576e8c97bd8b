import t from 'tap';
import { TimeZone } from '../../src/automation/local-time.js';
import type { TimePatternTrigger } from '../../src/automation/model.js';
import { nextPatternTime } from '../../src/automation/time-pattern.js';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { DEVICES, nextEvent, recordEvents, setup, validate } from './helpers.js';

const us = (iso: string) => Date.parse(iso) * 1000;
const amsterdam = TimeZone.of('Europe/Amsterdam') as TimeZone;
const range = (max: number, every = 1) => Array.from({ length: max + 1 }, (_, i) => i).filter((v) => v % every === 0);
const pattern = (hours: number[], minutes: number[], seconds: number[]): TimePatternTrigger => ({
  kind: 'time_pattern',
  id: '0',
  index: 0,
  enabled: true,
  hours,
  minutes,
  seconds,
});
const next = (p: TimePatternTrigger, iso: string, zone = amsterdam) => isoFromMicros(nextPatternTime(p, zone, us(iso)));

t.test('the next matching wall-clock second, in the hub time zone', async (t) => {
  const everyFiveMinutes = pattern(range(23), range(59, 5), [0]);
  t.equal(next(everyFiveMinutes, '2026-01-15T06:02:10Z'), '2026-01-15T06:05:00+00:00');
  t.equal(next(everyFiveMinutes, '2026-01-15T06:05:00Z'), '2026-01-15T06:10:00+00:00', 'strictly after');
  t.equal(next(everyFiveMinutes, '2026-01-15T22:58:00Z'), '2026-01-15T23:00:00+00:00', 'over local midnight');
  const atHalfPastSeven = pattern([7], [30], [0]);
  t.equal(next(atHalfPastSeven, '2026-01-15T07:00:00Z'), '2026-01-16T06:30:00+00:00', '07:30 Amsterdam is 06:30 UTC: tomorrow');
  t.equal(next(atHalfPastSeven, '2026-07-15T04:00:00Z'), '2026-07-15T05:30:00+00:00', 'summer time');
  const everyTenSeconds = pattern(range(23), range(59), range(59, 10));
  t.equal(next(everyTenSeconds, '2026-01-15T06:00:59.5Z'), '2026-01-15T06:01:00+00:00');
  const everyThirdHour = pattern(range(23, 3), [0], [0]);
  t.equal(next(everyThirdHour, '2026-01-15T22:30:00Z', TimeZone.UTC), '2026-01-16T00:00:00+00:00');
  t.equal(next(everyThirdHour, '2026-01-15T00:00:00Z', TimeZone.UTC), '2026-01-15T03:00:00+00:00');
});

t.test('a time_pattern trigger fires on the hub clock; disabled triggers and conditions are left out', async (t) => {
  // 07:04:59.950 in Amsterdam; the pattern matches at 07:05:00.
  const clock = new ManualClock(us('2026-01-15T06:04:59.950Z'));
  const { core } = await setup(
    t,
    `${DEVICES}
automation:
  - id: tick
    triggers:
      - { trigger: time_pattern, minutes: /5, id: five }
      - { trigger: time_pattern, seconds: "*", enabled: false, id: every_second }
      - { trigger: event, event_type: poke }
    conditions:
      - { condition: state, entity_id: light.kitchen, state: "on", enabled: false }
      - { condition: trigger, id: [five, "2"] }
    actions:
      - event: ticked
        event_data: { platform: "{{ trigger.platform }}", id: "{{ trigger.id }}", idx: "{{ trigger.idx }}" }
`,
    { clock },
  );
  const ticked = recordEvents(core, 'ticked');
  const triggered = recordEvents(core, 'automation_triggered');
  // Both events may come in one turn: wait only for the ones not seen yet.
  const seen = async (n: number) => {
    if (ticked.length < n) await nextEvent(core, 'ticked');
  };
  await seen(1);
  t.equal(triggered[0]?.data.source, 'time pattern');
  t.same(ticked[0]?.data, { platform: 'time_pattern', id: 'five', idx: '0' });
  if (core.states.get('automation.tick')?.attributes.current !== 0) {
    await nextEvent(core, 'state_changed', (e) => e.data.entity_id === 'automation.tick' && e.data.new_state?.attributes.current === 0);
  }
  core.bus.fire('poke', {}, core.newContext());
  await seen(2);
  t.same(ticked[1]?.data, { platform: 'event', id: '2', idx: '2' }, 'a trigger without id: has its index as id');
  t.equal(ticked.length, 2, 'the disabled every-second trigger never fired');
});

t.test('time_pattern config problems', async (t) => {
  t.same(
    validate(`
automation:
  - triggers:
      - { trigger: time_pattern }
      - { trigger: time_pattern, hours: 24, minutes: "/0", seconds: "{{ 5 }}" }
      - { trigger: time_pattern, minutes: "/61", seconds: "x" }
    actions: []
`),
    [
      'automation[0].triggers[0]: must contain at least one of hours, minutes, seconds',
      'automation[0].triggers[1].hours: 24 is not allowed: expected a number from 0 to 23, "*" or "/n" (every n)',
      'automation[0].triggers[1].minutes: "/0" is not allowed: expected a number from 0 to 59, "*" or "/n" (every n)',
      'automation[0].triggers[1].seconds: a template is not allowed here: this key takes a fixed value',
      'automation[0].triggers[2].minutes: "/61" is not allowed: expected a number from 0 to 59, "*" or "/n" (every n)',
      'automation[0].triggers[2].seconds: "x" is not allowed: expected a number from 0 to 59, "*" or "/n" (every n)',
    ],
  );
});
