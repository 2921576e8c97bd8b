import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { createContext } from '../../src/core/context.js';
import { EventBus, type HubEvent, StateChangedData } from '../../src/core/event-bus.js';
import { State } from '../../src/core/state.js';

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
