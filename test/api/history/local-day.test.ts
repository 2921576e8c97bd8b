import t from 'tap';
import { localDayStart } from '../../../src/api/history/local-day.js';

t.test("the logbook's default start: local midnight in the hub's time zone, DST days included", async (t) => {
  const us = (iso: string) => Date.parse(iso) * 1000;
  t.equal(localDayStart(us('2026-03-10T15:00:00Z'), 'UTC'), us('2026-03-10T00:00:00Z'));
  t.equal(localDayStart(us('2026-03-10T15:00:00Z'), 'Europe/Berlin'), us('2026-03-09T23:00:00Z'), 'winter: UTC+1');
  t.equal(localDayStart(us('2026-07-10T15:00:00Z'), 'Europe/Berlin'), us('2026-07-09T22:00:00Z'), 'summer: UTC+2');
  t.equal(localDayStart(us('2026-03-29T12:00:00Z'), 'Europe/Berlin'), us('2026-03-28T23:00:00Z'), 'the day clocks go forward began at +1');
  t.equal(localDayStart(us('2026-11-01T12:00:00Z'), 'America/New_York'), us('2026-11-01T04:00:00Z'), 'the day clocks go back began at -4');
  t.equal(
    localDayStart(us('2026-03-10T02:00:00Z'), 'America/Los_Angeles'),
    us('2026-03-09T07:00:00Z'),
    'before local midnight: the day before',
  );
  t.equal(localDayStart(us('2026-03-10T15:00:00Z'), 'No/Such_Zone'), us('2026-03-10T00:00:00Z'), 'an unknown zone counts as UTC');
});
