import fc from 'fast-check';
import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { HubError } from '../../src/core/errors.js';
import { EventBus, type HubEvent } from '../../src/core/event-bus.js';
import type { JsonObject } from '../../src/core/json.js';
import { StateTable } from '../../src/core/state-table.js';

function setup(capacity = 8) {
  const clock = new ManualClock();
  const bus = new EventBus(clock);
  const table = new StateTable(capacity, bus, clock);
  const events: HubEvent<'state_changed'>[] = [];
  bus.on('test', 'state_changed', (e) => events.push(e));
  return { clock, bus, table, events };
}

t.test('a new entity fires state_changed with old_state null and both timestamps equal', async (t) => {
  const { table, events } = setup();
  const { state, created, changed } = table.set('light.kitchen', 'on', { brightness: 10 });
  t.ok(created && changed);
  t.equal(events.length, 1);
  t.equal(events[0]?.data.old_state, null);
  t.equal(events[0]?.data.new_state, state);
  t.equal(state.last_changed, state.last_updated);
  t.same(JSON.parse(state.json), {
    entity_id: 'light.kitchen',
    state: 'on',
    attributes: { brightness: 10 },
    last_changed: state.last_changed,
    last_updated: state.last_updated,
    context: { id: state.context.id, parent_id: null, user_id: null },
  });
  t.match(state.last_changed, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
});

t.test('writing the same state and attributes fires nothing and moves no timestamp', async (t) => {
  const { table, events, clock } = setup();
  const first = table.set('sensor.t', '21.5', { unit_of_measurement: '°C', list: [1, { a: 2 }] }).state;
  clock.advance(1_000_000);
  const again = table.set('sensor.t', '21.5', { list: [1, { a: 2 }], unit_of_measurement: '°C' });
  t.notOk(again.changed);
  t.equal(again.state, first, 'the same object, so the same cached JSON');
  t.equal(events.length, 1);
});

t.test('an attribute change moves last_updated only; a state change moves both', async (t) => {
  const { table, clock } = setup();
  const a = table.set('sensor.t', '1', { x: 1 }).state;
  clock.advance(1_000_123);
  const b = table.set('sensor.t', '1', { x: 2 }).state;
  t.equal(b.last_changed, a.last_changed);
  t.not(b.last_updated, a.last_updated);
  clock.advance(1_000_000);
  const c = table.set('sensor.t', '2', { x: 2 }).state;
  t.not(c.last_changed, b.last_changed);
  t.equal(c.last_changed, c.last_updated);
  t.equal(c.attributesJson, b.attributesJson, 'unchanged attributes reuse their JSON');
});

t.test('force_update fires and moves both timestamps even when nothing changed', async (t) => {
  const { table, clock, events } = setup();
  const a = table.set('sensor.t', '1').state;
  clock.advance(5);
  const b = table.set('sensor.t', '1', {}, { forceUpdate: true });
  t.ok(b.changed);
  t.not(b.state.last_changed, a.last_changed);
  t.equal(events.length, 2);
});

t.test('writes carry the given context; without one each write gets a fresh one', async (t) => {
  const { table, clock } = setup();
  const ctx = createContext(clock.now(), 'user-1');
  t.equal(table.set('switch.a', 'on', {}, { context: ctx }).state.context, ctx);
  const other = table.set('switch.a', 'off').state.context;
  t.not(other.id, ctx.id);
  t.equal(other.user_id, null);
});

t.test('removal fires new_state null and frees the slot', async (t) => {
  const { table, events } = setup(1);
  table.set('switch.a', 'on');
  t.ok(table.remove('switch.a'));
  t.equal(events.at(-1)?.data.new_state, null);
  t.equal(events.at(-1)?.data.old_state?.state, 'on');
  t.notOk(table.remove('switch.a'));
  t.equal(table.get('switch.a'), undefined);
  table.set('switch.b', 'on');
  t.equal(table.size, 1, 'the freed slot was reused');
});

t.test('a full table refuses a new entity with a clear error and keeps working', async (t) => {
  const { table } = setup(2);
  table.set('switch.a', 'on');
  table.set('switch.b', 'on');
  t.throws(() => table.set('switch.c', 'on'), { kind: 'entity_table_full', message: /all 2 slots are in use.*switch\.c/ });
  table.set('switch.a', 'off');
  t.equal(table.get('switch.a')?.state, 'off');
});

t.test('invalid ids and over-long states are refused', async (t) => {
  const { table } = setup();
  t.throws(() => table.set('Light.Kitchen', 'on'), HubError);
  t.throws(() => table.set('light.kitchen', 'x'.repeat(256)), { kind: 'invalid_state', message: /length 256.*255/ });
  t.equal(table.set('light.kitchen', 'x'.repeat(255)).state.state.length, 255);
});

t.test('statesJson is cached until something changes', async (t) => {
  const { table } = setup();
  table.set('switch.a', 'on');
  table.set('switch.b', 'off');
  const first = table.statesJson();
  t.equal(table.statesJson(), first, 'same string while nothing changed');
  t.same(
    JSON.parse(first).map((s: JsonObject) => s.entity_id),
    ['switch.a', 'switch.b'],
  );
  table.set('switch.a', 'on');
  t.equal(table.statesJson(), first, 'a write that changed nothing keeps the cache');
  table.set('switch.a', 'off');
  t.not(table.statesJson(), first);
});

t.test('property: the state rules hold for any sequence of writes', async (t) => {
  const write = fc.record({
    state: fc.constantFrom('on', 'off', 'unknown'),
    attrs: fc.constantFrom<JsonObject>({}, { a: 1 }, { a: 2 }, { a: 1, b: [1, 2] }),
    force: fc.boolean(),
    advance: fc.integer({ min: 1, max: 10_000_000 }),
  });
  fc.assert(
    fc.property(fc.array(write, { minLength: 1, maxLength: 30 }), (writes) => {
      const { table, clock, events } = setup();
      let prev = undefined as ReturnType<typeof table.get>;
      for (const w of writes) {
        clock.advance(w.advance);
        const before = events.length;
        const { state } = table.set('sensor.x', w.state, w.attrs, { forceUpdate: w.force });
        const fired = events.length - before;
        if (prev === undefined) {
          if (fired !== 1 || state.lastChangedUs !== clock.now()) return false;
        } else {
          const sameState = prev.state === w.state;
          const sameAttrs = JSON.stringify(prev.attributes) === JSON.stringify(w.attrs);
          if (sameState && sameAttrs && !w.force) {
            if (fired !== 0 || state !== prev) return false;
          } else {
            if (fired !== 1) return false;
            if (state.lastUpdatedUs !== clock.now()) return false;
            const lcMoved = state.lastChangedUs !== prev.lastChangedUs;
            if (lcMoved !== (!sameState || w.force)) return false;
          }
        }
        prev = state;
      }
      return true;
    }),
  );
  t.pass();
});

t.test('coalesce: writes change the table at once and reach listeners as one change from what they saw', async (t) => {
  const { table, events, clock } = setup();
  const shown = table.set('light.desk', 'on', { restored: true }).state;
  events.length = 0;
  clock.advance(1000);
  let midway: string | undefined;
  table.coalesce('light.desk', () => {
    table.set('light.desk', 'off', {});
    midway = table.get('light.desk')?.state;
    table.set('sensor.other', '1');
    clock.advance(1000);
    table.set('light.desk', 'on', { brightness: 100 });
  });
  t.equal(midway, 'off', 'readers see each write');
  t.same(
    events.map((e) => `${e.data.entity_id}:${e.data.old_state?.state ?? 'none'}>${e.data.new_state?.state}`),
    ['sensor.other:none>1', 'light.desk:on>on'],
    "other entities' writes are published as usual; the held entity's once, when it ends",
  );
  const last = events.at(-1);
  const now = table.get('light.desk');
  t.equal(last?.data.old_state, shown, 'from the state listeners last saw');
  t.equal(last?.data.new_state, now, 'to the current state');
  t.equal(now?.lastChangedUs, shown.lastChangedUs, 'the state string did not change for anyone who watched: last_changed stays');
  t.equal(now?.lastUpdatedUs, shown.lastUpdatedUs + 2000);
  t.same(now?.attributes, { brightness: 100 });
  t.equal(last?.timeFiredUs, now?.lastUpdatedUs);
  t.ok(table.statesJson().includes(`"last_changed":"${shown.last_changed}"`), 'the cached JSON of all states has the published one');
});

t.test('coalesce: nothing written, nothing published; a removal parts from what listeners saw; one entity at a time', async (t) => {
  const { table, events } = setup();
  const shown = table.set('switch.a', 'on').state;
  events.length = 0;
  table.coalesce('switch.a', () => {});
  t.equal(events.length, 0);

  table.coalesce('switch.a', () => {
    table.set('switch.a', 'off');
    table.remove('switch.a');
  });
  t.same(
    events.map((e) => [e.data.old_state, e.data.new_state]),
    [[shown, null]],
  );

  events.length = 0;
  table.set('switch.a', 'on');
  table.set('switch.b', 'on');
  events.length = 0;
  table.coalesce('switch.a', () => {
    table.coalesce('switch.b', () => {
      table.set('switch.b', 'off');
    });
    table.set('switch.a', 'off');
  });
  t.same(
    events.map((e) => `${e.data.entity_id}:${e.data.new_state?.state}`),
    ['switch.b:off', 'switch.a:off'],
    'a nested one holds nothing back',
  );
});
