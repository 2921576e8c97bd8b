import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { EventBus, type HubEvent, StateChangedData } from '../../src/core/event-bus.js';
import { State } from '../../src/core/state.js';
import { StateTable } from '../../src/core/state-table.js';

t.test('listeners get typed events; match-all listeners get everything but state_reported', async (t) => {
  const clock = new ManualClock();
  const bus = new EventBus(clock);
  const seen: string[] = [];
  bus.on('a', 'custom_event', (e) => seen.push(`a:${e.event_type}`));
  bus.on('b', '*', (e) => seen.push(`b:${e.event_type}`));
  const ctx = createContext(clock.now());
  bus.fire('custom_event', { x: 1 }, ctx);
  bus.fire('state_reported', {}, ctx);
  bus.fire('other', {}, ctx);
  t.same(seen, ['a:custom_event', 'b:custom_event', 'b:other']);
});

t.test('removeOwner drops every listener of that owner only', async (t) => {
  const bus = new EventBus(new ManualClock());
  let a = 0;
  let b = 0;
  bus.on('driver:x', 'e1', () => a++);
  bus.on('driver:x', '*', () => a++);
  bus.on('driver:y', 'e1', () => b++);
  bus.removeOwner('driver:x');
  bus.fire('e1', {}, createContext(0));
  t.equal(a, 0);
  t.equal(b, 1);
  t.same(bus.listenerCounts(), [{ event: 'e1', listener_count: 1 }]);
  const off = bus.on('z', 'e2', () => b++);
  off();
  t.notOk(bus.hasListeners('e2'));
});

t.test('a throwing listener is reported and the others still run', async (t) => {
  const errors: string[] = [];
  const bus = new EventBus(new ManualClock(), (owner, type) => errors.push(`${owner}/${type}`));
  let ran = false;
  bus.on('bad', 'e', () => {
    throw new Error('boom');
  });
  bus.on('good', 'e', () => {
    ran = true;
  });
  bus.fire('e', {}, createContext(0));
  t.ok(ran);
  t.same(errors, ['bad/e']);
});

t.test('event JSON is built once and embeds the cached state JSON', async (t) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1) * 1000);
  const bus = new EventBus(clock);
  let event: HubEvent<'state_changed'> | undefined;
  bus.on('t', 'state_changed', (e) => {
    event = e;
  });
  let builds = 0;
  class CountingData extends StateChangedData {
    override toJsonString(): string {
      builds++;
      return super.toJsonString();
    }
  }
  let second: HubEvent<'state_changed'> | undefined;
  bus.on('t2', 'state_changed', (e) => {
    second = e;
  });
  const ctx = createContext(clock.now(), 'u1');
  const s = new State('light.a', 'on', { brightness: 3 }, clock.now(), clock.now(), ctx);
  bus.fire('state_changed', new CountingData('light.a', null, s), ctx);
  const json = event?.json ?? '';
  t.equal(second?.json, json, 'every listener reads the same JSON');
  t.equal(builds, 1, 'the event data is serialized once, however many listeners read it');
  t.ok(json.includes(s.json));
  t.same(JSON.parse(json), {
    event_type: 'state_changed',
    data: { entity_id: 'light.a', old_state: null, new_state: JSON.parse(s.json) },
    origin: 'LOCAL',
    time_fired: '2026-01-01T00:00:00+00:00',
    context: { id: ctx.id, parent_id: null, user_id: 'u1' },
  });
});

t.test('an event fired from inside a listener reaches every listener after the event being delivered', async (t) => {
  const bus = new EventBus(new ManualClock());
  const ctx = createContext(0);
  const seen = new Map<string, string[]>();
  const log = (who: string, what: string) => seen.set(who, [...(seen.get(who) ?? []), what]);
  // The first listener acts on the event at once (as restore state re-applying a stored state did).
  bus.on('first', 'report', (e) => {
    log('first', `report:${e.data.n}`);
    if (e.data.n === 1) bus.fire('report', { n: 2 }, ctx);
  });
  bus.on('later', 'report', (e) => log('later', `report:${e.data.n}`));
  bus.on('all', '*', (e) => log('all', `${e.event_type}:${e.data.n}`));
  bus.fire('report', { n: 1 }, ctx);
  t.same(seen.get('first'), ['report:1', 'report:2']);
  t.same(seen.get('later'), ['report:1', 'report:2'], 'a listener registered after the one that fired sees them in order');
  t.same(seen.get('all'), ['report:1', 'report:2'], 'so does a match-all listener');
});

t.test('state changes made by a listener reach later listeners in the order the table made them', async (t) => {
  const clock = new ManualClock();
  const bus = new EventBus(clock);
  const table = new StateTable(8, bus, clock);
  // As restore state did: the device's first report brings the stored value back from inside the handler.
  bus.on('restore', 'state_changed', (e) => {
    if (e.data.new_state?.state === '0.0') table.set('input_number.target', '5.0');
  });
  const rows: string[] = [];
  bus.on('recorder', 'state_changed', (e) => rows.push(`${e.data.old_state?.state ?? 'none'}>${e.data.new_state?.state}`));
  table.set('input_number.target', '5.0', { restored: true });
  table.set('input_number.target', '0.0');
  t.same(rows, ['none>5.0', '5.0>0.0', '0.0>5.0'], 'each event follows from the one before');
  t.equal(rows.at(-1)?.split('>')[1], table.get('input_number.target')?.state, 'the last event is the current state');
});

t.test('a flood fired from one listener keeps its order, and a chain of listeners firing keeps its order', async (t) => {
  const bus = new EventBus(new ManualClock());
  const ctx = createContext(0);
  bus.on('fan-out', 'start', () => {
    for (let n = 0; n < 5000; n++) bus.fire('flood', { n }, ctx);
  });
  bus.on('chain', 'link', (e) => {
    const n = e.data.n as number;
    if (n < 60) bus.fire('link', { n: n + 1 }, ctx);
  });
  const flood: number[] = [];
  const links: number[] = [];
  bus.on('watch', 'flood', (e) => flood.push(e.data.n as number));
  bus.on('watch', 'link', (e) => links.push(e.data.n as number));
  bus.fire('start', {}, ctx);
  t.equal(flood.length, 5000);
  t.ok(
    flood.every((n, i) => n === i),
    'in order',
  );
  bus.fire('link', { n: 0 }, ctx);
  t.same(
    links,
    Array.from({ length: 61 }, (_, i) => i),
  );
  // The queue is empty again: the next event is delivered alone.
  flood.length = 0;
  bus.fire('flood', { n: -1 }, ctx);
  t.same(flood, [-1]);
});

t.test('a listener that throws while queued events wait costs no other listener its events', async (t) => {
  const errors: string[] = [];
  const bus = new EventBus(new ManualClock(), (owner, type) => errors.push(`${owner}/${type}`));
  const ctx = createContext(0);
  bus.on('source', 'a', () => {
    bus.fire('b', {}, ctx);
    bus.fire('c', {}, ctx);
  });
  bus.on('bad', 'b', () => {
    throw new Error('boom');
  });
  const seen: string[] = [];
  bus.on('watch', '*', (e) => seen.push(e.event_type));
  bus.fire('a', {}, ctx);
  t.same(seen, ['a', 'b', 'c']);
  t.same(errors, ['bad/b']);
});

t.test('a feedback loop between listeners ends and is reported instead of holding the event loop', async (t) => {
  const errors: unknown[] = [];
  const bus = new EventBus(new ManualClock(), (_owner, _type, err) => errors.push(err));
  const ctx = createContext(0);
  let deliveries = 0;
  bus.on('ping', 'ping', () => {
    deliveries++;
    bus.fire('ping', {}, ctx);
  });
  bus.fire('ping', {}, ctx);
  t.ok(errors.length > 0, 'the loop ended in an error the sink reported');
  t.ok(errors[0] instanceof RangeError, 'at the end of the stack, as before the queue');
  t.ok(deliveries < 100_000, `bounded (${deliveries} deliveries)`);
  // The bus still works.
  let later = 0;
  bus.on('x', 'later', () => later++);
  bus.fire('later', {}, ctx);
  t.equal(later, 1);
});
