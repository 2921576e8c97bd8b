import t from 'tap';
import { nextSunEvent } from '../../src/automation/sun.js';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { DEVICES, nextEvent, recordEvents, setup, stateBecomes, validate } from './helpers.js';

const us = (iso: string) => Date.parse(iso) * 1000;
// The test hub's location (helpers' HUB_SECTION).
const amsterdam = { latitude: 52.37, longitude: 4.89 };
const SUNRISE = '2026-01-15T07:43:14.235Z';
const SUNSET = '2026-01-15T15:56:54.269Z';

t.test('sun events at the hub location; none for months near a pole', async (t) => {
  const iso = (e: Parameters<typeof nextSunEvent>[0], at: string) => isoFromMicros(nextSunEvent(e, us(at), amsterdam) ?? 0);
  t.equal(iso('sunrise', '2026-01-15T00:00:00Z'), '2026-01-15T07:43:14.235000+00:00', '08:43 in Amsterdam');
  t.equal(iso('sunset', '2026-01-15T00:00:00Z'), '2026-01-15T15:56:54.269000+00:00');
  t.match(iso('sunrise', SUNRISE), /^2026-01-16T07:4/, 'strictly after: the next day’s');
  const svalbard = { latitude: 78.2, longitude: 15.6 };
  t.match(isoFromMicros(nextSunEvent('sunrise', us('2026-01-15T00:00:00Z'), svalbard) ?? 0), /^2026-02-1/, 'polar night ends in February');
});

const AUTOMATIONS = `${DEVICES}
automation:
  - id: before_sunrise
    triggers: [ { trigger: sun, event: sunrise, offset: "-00:30:00" } ]
    actions:
      - event: sun
        event_data: { event: "{{ trigger.event }}", offset: "{{ trigger.offset }}", platform: "{{ trigger.platform }}" }
  - id: daytime
    triggers: []
    conditions: [ { condition: sun, after: sunrise, before: sunset } ]
    actions: [ { event: ran, event_data: { id: daytime } } ]
  - id: night
    triggers: []
    conditions:
      - condition: or
        conditions:
          - { condition: sun, after: sunset }
          - { condition: sun, before: sunrise }
    actions: [ { event: ran, event_data: { id: night } } ]
  - id: an_hour_after_sunrise
    triggers: []
    conditions: [ { condition: sun, after: sunrise, after_offset: "01:00:00" } ]
    actions: [ { event: ran, event_data: { id: an_hour_after_sunrise } } ]
  - id: until_just_before_sunset
    triggers: []
    conditions: [ { condition: sun, before: sunset, before_offset: -600 } ]
    actions: [ { event: ran, event_data: { id: until_just_before_sunset } } ]
`;

t.test('the sun trigger fires at sunrise moved by its offset, on the hub clock', async (t) => {
  const clock = new ManualClock(us(SUNRISE) - 1800_000_000 - 50_000);
  const { core } = await setup(t, AUTOMATIONS, { clock });
  t.notOk(core.states.has('sun.sun'), 'no sun.sun without a sun: section');
  const fired = recordEvents(core, 'sun');
  const triggered = recordEvents(core, 'automation_triggered');
  if (fired.length === 0) await nextEvent(core, 'sun');
  t.same(fired[0]?.data, { event: 'sunrise', offset: -1800, platform: 'sun' });
  t.equal(triggered[0]?.data.source, 'sun sunrise');
});

t.test('the sun condition: after/before sunrise and sunset, with offsets', async (t) => {
  const clock = new ManualClock(us('2026-01-15T06:00:00Z'));
  const { core } = await setup(t, AUTOMATIONS, { clock });
  const ran = recordEvents(core, 'ran');
  const check = async () => {
    ran.length = 0;
    for (const id of ['daytime', 'night', 'an_hour_after_sunrise', 'until_just_before_sunset']) {
      await core.services.call('automation', 'trigger', { entity_id: `automation.${id}`, skip_condition: false });
    }
    return ran.map((e) => e.data.id);
  };
  t.same(await check(), ['night', 'until_just_before_sunset'], '07:00 in Amsterdam: before sunrise');
  clock.advance(us(SUNRISE) + 1_000_000 - clock.now());
  t.same(await check(), ['daytime', 'until_just_before_sunset'], 'just after sunrise');
  clock.advance(3600_000_000);
  t.same(await check(), ['daytime', 'an_hour_after_sunrise', 'until_just_before_sunset']);
  clock.advance(us(SUNSET) - 300_000_000 - clock.now());
  t.same(await check(), ['daytime', 'an_hour_after_sunrise'], 'five minutes before sunset: past the -10 minutes offset');
  clock.advance(600_000_000);
  t.same(await check(), ['night', 'an_hour_after_sunrise'], 'after sunset');
});

t.test('sun config problems', async (t) => {
  t.same(
    validate(`
automation:
  - triggers:
      - { trigger: sun }
      - { trigger: sun, event: noon, offset: soon }
    conditions:
      - { condition: sun }
      - { condition: sun, after: dusk }
    actions: []
sun: { elevation: 3 }
`),
    [
      'automation[0].triggers[0].event: is required: expected one of sunrise, sunset',
      'automation[0].triggers[1].event: "noon" is not allowed: expected one of sunrise, sunset',
      'automation[0].triggers[1].offset: "soon" is not a duration: expected seconds (a number), "HH:MM:SS", or a mapping of days/hours/minutes/seconds/milliseconds',
      'automation[0].conditions[0]: must contain at least one of before, after',
      'automation[0].conditions[1].after: "dusk" is not allowed: expected one of sunrise, sunset',
      'sun: takes no options: write `sun:` alone; the location comes from hub: latitude/longitude',
    ],
  );
});

t.test('sun.sun: below the horizon before sunrise, above it from sunrise on, updated at the event', async (t) => {
  const clock = new ManualClock(us(SUNRISE) - 50_000);
  const { core } = await setup(t, `${DEVICES}\nsun:\n`, { clock });
  const before = core.states.get('sun.sun');
  t.equal(before?.state, 'below_horizon');
  t.same(before?.attributes, {
    next_dawn: '2026-01-16T07:02:58.529000+00:00',
    next_dusk: '2026-01-15T16:36:24.278000+00:00',
    next_midnight: '2026-01-15T23:50:12.086000+00:00',
    next_noon: '2026-01-15T11:49:51.411000+00:00',
    next_rising: '2026-01-15T07:43:14.235000+00:00',
    next_setting: '2026-01-15T15:56:54.269000+00:00',
    elevation: -0.35,
    azimuth: 124.81,
    rising: true,
    friendly_name: 'Sun',
  });
  const after = await stateBecomes(core, 'sun.sun', 'above_horizon');
  t.match(after.attributes.next_rising, /^2026-01-16T07:4/, 'the next rising is tomorrow’s');
  t.equal(after.attributes.next_setting, '2026-01-15T15:56:54.269000+00:00');
});
