import fc from 'fast-check';
import t from 'tap';
import { epochSeconds, isoFromMicros, isoFromMillis, ManualClock, microsFromIso, systemClock } from '../../src/core/clock.js';
import { contextJson, createContext, idFromParts, idParts, isContextId, newContextId } from '../../src/core/context.js';

t.test('timestamps are written as Python isoformat of a UTC datetime', async (t) => {
  t.equal(isoFromMicros(Date.UTC(2016, 4, 30, 21, 43, 32) * 1000 + 418320), '2016-05-30T21:43:32.418320+00:00');
  t.equal(isoFromMicros(Date.UTC(2016, 4, 30, 21, 43, 32) * 1000), '2016-05-30T21:43:32+00:00', 'no fraction when the microsecond is 0');
  t.equal(isoFromMicros(Date.UTC(2016, 4, 30, 21, 43, 32) * 1000 + 7), '2016-05-30T21:43:32.000007+00:00');
  t.equal(epochSeconds(1_500_000), 1.5);
});

t.test('property: ISO round trip keeps every microsecond', async (t) => {
  fc.assert(fc.property(fc.integer({ min: 0, max: 4_102_444_800_000_000 }), (us) => microsFromIso(isoFromMicros(us)) === us));
  t.equal(microsFromIso('not a time'), undefined);
  t.equal(microsFromIso('2026-01-01T00:00:00Z'), Date.UTC(2026, 0, 1) * 1000);
});

t.test('isoFromMillis writes what Date#toISOString writes', async (t) => {
  const four = { min: -62_167_219_200_000, max: 253_402_300_799_999 };
  fc.assert(fc.property(fc.integer(four), (ms) => isoFromMillis(ms) === new Date(ms).toISOString()));
  fc.assert(fc.property(fc.double({ ...four, noNaN: true }), (ms) => isoFromMillis(ms) === new Date(ms).toISOString()));
  t.equal(isoFromMillis(Date.UTC(2000, 1, 29, 23, 59, 59, 7)), '2000-02-29T23:59:59.007Z', 'a leap day');
  t.equal(isoFromMillis(-1), '1969-12-31T23:59:59.999Z');
  t.equal(isoFromMillis(Date.UTC(10000, 0, 1)), '+010000-01-01T00:00:00.000Z', 'five-digit years as Date writes them');
  t.throws(() => isoFromMillis(Number.NaN), RangeError, 'not a time: as Date');
  const now = Date.now();
  const text = isoFromMillis();
  t.ok(Date.parse(text) >= now && Date.parse(text) < now + 5000, 'no argument: now');
});

t.test('the system clock follows wall time in microseconds', async (t) => {
  const before = Date.now() * 1000;
  const now = systemClock.now();
  t.ok(Number.isInteger(now));
  t.ok(now >= before && now < before + 5_000_000);
  const clock = new ManualClock(10);
  clock.advance(5);
  t.equal(clock.now(), 15);
});

t.test('context ids are 32 lower-case hex characters, unique, and sort by time', async (t) => {
  const clock = new ManualClock();
  const ids = new Set<string>();
  let previous = '';
  let wellFormed = 0;
  let sorted = 0;
  for (let i = 0; i < 2000; i++) {
    clock.advance(1000);
    const id = newContextId(clock.now());
    if (isContextId(id)) wellFormed++;
    if (id > previous) sorted++;
    previous = id;
    ids.add(id);
  }
  t.equal(wellFormed, 2000, 'all ids are 32 lower-case hex');
  t.equal(sorted, 2000, 'later ids sort after earlier ones');
  t.equal(ids.size, 2000, 'no duplicates');
  const ctx = createContext(clock.now(), 'user1', 'parent1');
  t.same(JSON.parse(contextJson(ctx)), { id: ctx.id, parent_id: 'parent1', user_id: 'user1' });
  t.equal(contextJson(ctx), contextJson(ctx), 'cached');
  t.notOk(isContextId('ABC'));
});

t.test('the system clock never goes backwards between readings (bounded: 200,000 readings)', async (t) => {
  let previous = systemClock.now();
  let backwards = 0;
  for (let i = 0; i < 200_000; i++) {
    const now = systemClock.now();
    if (now < previous) backwards++;
    previous = now;
  }
  t.equal(backwards, 0);
  t.ok(Math.abs(systemClock.now() / 1000 - Date.now()) < 5, 'and it is wall time');
});

t.test('idParts: the three parts of an id, at once for the context made last and parsed for any other', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1) * 1000);
  const parts = { ms: 0, counter: 0, tag: 0 };
  let matched = 0;
  for (let i = 0; i < 1000; i++) {
    clock.advance(137 + (i % 7) * 1000);
    const ctx = createContext(clock.now(), i % 2 === 0 ? null : 'user');
    if (idParts(ctx, parts) && idFromParts(parts.ms, parts.counter, parts.tag) === ctx.id && parts.ms === Math.floor(clock.now() / 1000))
      matched++;
  }
  t.equal(matched, 1000, 'every id made');
  const made = createContext(clock.now());
  t.ok(idParts({ ...made }, parts), 'a copy of it: parsed');
  t.equal(idFromParts(parts.ms, parts.counter, parts.tag), made.id);
  const foreign = { id: '01890f3c2a7b4e5f9d8c7b6a5f4e3d2c', parent_id: null, user_id: null };
  t.ok(idParts(foreign, parts), 'an id of Home Assistant (a ULID in hex): parsed');
  t.equal(idFromParts(parts.ms, parts.counter, parts.tag), foreign.id, 'and written back the same');
  t.notOk(idParts({ id: 'not-a-hex-id', parent_id: null, user_id: null }, parts), 'another form: false');
  t.notOk(idParts({ id: '01890F3C2A7B4E5F9D8C7B6A5F4E3D2C', parent_id: null, user_id: null }, parts), 'upper-case hex: false');
});

t.test('ids made within one millisecond sort in the order they were made', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1) * 1000);
  const ids = Array.from({ length: 100 }, () => newContextId(clock.now()));
  t.same([...ids].sort(), ids);
  t.equal(new Set(ids).size, 100);
});
