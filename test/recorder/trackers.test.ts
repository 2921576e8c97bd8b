import t from 'tap';
import { MAX, MIN, SINCE, STATE, SUM, TrackerTable, VALUE } from '../../src/recorder/trackers.js';

t.test('a new tracker starts with no value, no extremes and no total, at the period it was added in', async (t) => {
  const table = new TrackerTable();
  const tr = table.add('sensor.a', 3, 600);
  t.equal(table.of('sensor.a'), tr);
  t.equal(table.of('sensor.b'), undefined);
  t.equal(table.meta(tr), 3);
  t.ok(Number.isNaN(table.get(tr, VALUE)));
  t.ok(Number.isNaN(table.get(tr, STATE)));
  t.equal(table.get(tr, SINCE), 600);
  t.equal(table.get(tr, MIN), Number.POSITIVE_INFINITY);
  t.equal(table.get(tr, MAX), Number.NEGATIVE_INFINITY);
  t.equal(table.get(tr, SUM), 0);
  t.equal(table.lastReset(tr), null);
});

t.test('every tracker keeps its own numbers and last_reset as the table grows past its first capacity', async (t) => {
  const table = new TrackerTable();
  const count = 100;
  for (let i = 0; i < count; i++) {
    const tr = table.add(`sensor.s${i}`, i * 2, 300);
    table.set(tr, VALUE, i + 0.5);
    table.set(tr, SUM, -i);
    if (i % 3 === 0) table.setLastReset(tr, `2026-01-0${(i % 9) + 1}T00:00:00+00:00`);
  }
  t.equal(table.size, count);
  for (let i = 0; i < count; i++) {
    const tr = table.of(`sensor.s${i}`) as number;
    t.equal(table.meta(tr), i * 2, `meta of s${i}`);
    t.equal(table.get(tr, VALUE), i + 0.5, `value of s${i}`);
    t.equal(table.get(tr, SUM), -i, `sum of s${i}`);
    t.equal(table.get(tr, SINCE), 300, `since of s${i}`);
    t.equal(table.lastReset(tr), i % 3 === 0 ? `2026-01-0${(i % 9) + 1}T00:00:00+00:00` : null, `last_reset of s${i}`);
  }
});
