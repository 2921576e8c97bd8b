import t from 'tap';
import { ManualClock } from '../../../src/core/clock.js';
import type { State } from '../../../src/core/state.js';
import { startTestHub } from '../../helpers/hub.js';
import { applyEntityEvent, type ClientState, WsClient, type WsMessage } from './client.js';

const START_US = Date.UTC(2026, 0, 1) * 1000;

async function setup(t: Parameters<typeof startTestHub>[0]) {
  const clock = new ManualClock(START_US);
  const th = await startTestHub(t, { clock });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { ...th, clock, client, states: th.hub.core.states };
}

function eventOf(m: WsMessage): Record<string, unknown> {
  return m.event as Record<string, unknown>;
}

/** What a client-side state must equal: the table's state, with times compared in milliseconds. */
function asClientSees(s: State): Record<string, unknown> {
  return {
    entity_id: s.entity_id,
    state: s.state,
    attributes: s.attributes,
    context: s.context,
    last_changed: new Date(s.lastChangedUs / 1000).toISOString(),
    last_updated: new Date(s.lastUpdatedUs / 1000).toISOString(),
  };
}

t.test('subscribe_entities: result null, then a snapshot of every entity in the compressed form', async (t) => {
  const { client, states } = await setup(t);
  const reply = await client.command('subscribe_entities');
  t.same(reply, { id: 1, type: 'result', success: true, result: null });
  const first = await client.next();
  t.equal(first.type, 'event');
  t.equal(first.id, 1);
  const a = eventOf(first).a as Record<string, Record<string, unknown>>;
  t.same(Object.keys(eventOf(first)), ['a'], 'only additions');
  t.same(Object.keys(a).sort(), ['light.hallway', 'light.kitchen', 'switch.coffee_maker']);
  const coffee = states.get('switch.coffee_maker') as State;
  t.same(a['switch.coffee_maker'], {
    s: 'off',
    a: coffee.attributes,
    c: coffee.context.id,
    lc: coffee.lastChangedUs / 1e6,
  });
  t.notOk('lu' in (a['switch.coffee_maker'] as object), 'lu is left out when it equals lc');
});

t.test('changes arrive as a / c / r diffs with HA keys', async (t) => {
  const { client, states, clock, hub } = await setup(t);
  await client.command('subscribe_entities');
  await client.next(); // snapshot
  const nextEvent = async () => eventOf(await client.waitFor((m) => m.type === 'event'));

  clock.advance(250_000);
  states.set('sensor.temp', '20', { unit_of_measurement: '°C', friendly_name: 'Temp' });
  const created = states.get('sensor.temp') as State;
  t.same(await nextEvent(), {
    a: {
      'sensor.temp': {
        s: '20',
        a: { unit_of_measurement: '°C', friendly_name: 'Temp' },
        c: created.context.id,
        lc: created.lastChangedUs / 1e6,
      },
    },
  });

  clock.advance(250_000);
  states.set('sensor.temp', '21', { unit_of_measurement: '°C', friendly_name: 'Temp' });
  const changed = states.get('sensor.temp') as State;
  t.same(await nextEvent(), { c: { 'sensor.temp': { '+': { s: '21', lc: changed.lastChangedUs / 1e6, c: changed.context.id } } } });

  clock.advance(250_000);
  states.set('sensor.temp', '21', { unit_of_measurement: '°C', friendly_name: 'Temperature', battery: 90 });
  const attrs = states.get('sensor.temp') as State;
  t.same(await nextEvent(), {
    c: { 'sensor.temp': { '+': { lu: attrs.lastUpdatedUs / 1e6, c: attrs.context.id, a: { friendly_name: 'Temperature', battery: 90 } } } },
  });

  clock.advance(250_000);
  const userContext = hub.core.newContext('user-1');
  states.set('sensor.temp', '21', { unit_of_measurement: '°C' }, { context: userContext });
  const removedAttrs = states.get('sensor.temp') as State;
  t.same(await nextEvent(), {
    c: {
      'sensor.temp': {
        '+': { lu: removedAttrs.lastUpdatedUs / 1e6, c: { user_id: 'user-1', id: userContext.id } },
        '-': { a: ['friendly_name', 'battery'] },
      },
    },
  });

  states.remove('sensor.temp');
  t.same(await nextEvent(), { r: ['sensor.temp'] });
});

t.test('an entity_ids filter limits the snapshot and the events', async (t) => {
  const { client, states } = await setup(t);
  await client.command('subscribe_entities', { entity_ids: ['light.kitchen', 'sensor.later'] });
  const snapshot = eventOf(await client.next());
  t.same(Object.keys(snapshot.a as object), ['light.kitchen']);
  states.set('light.hallway', 'on');
  states.set('sensor.later', '1');
  const next = eventOf(await client.waitFor((m) => m.type === 'event'));
  t.same(Object.keys(next.a as object), ['sensor.later'], 'the hallway change was not sent');
  const commaString = await client.command('subscribe_entities', { entity_ids: 'light.hallway, switch.coffee_maker' });
  t.equal(commaString.success, true);
  t.same(Object.keys(eventOf(await client.waitFor((m) => m.type === 'event' && m.id === commaString.id)).a as object).sort(), [
    'light.hallway',
    'switch.coffee_maker',
  ]);
});

t.test('waiting diffs of one entity collapse to its latest state, and the client ends up right', async (t) => {
  const { client, states, clock } = await setup(t);
  await client.command('subscribe_entities');
  const store = new Map<string, ClientState>();
  applyEntityEvent(store, eventOf(await client.next()));

  // All in one tick, so every diff is still waiting when the next change of the same entity comes.
  for (let i = 0; i < 50; i++) {
    clock.advance(250_000);
    states.set('sensor.fast', String(i), i % 2 === 0 ? { even: true, n: i } : { n: i });
    states.set('sensor.slow', String(i >> 4), { n: i >> 4 });
  }
  states.set('sensor.gone', 'x');
  states.remove('sensor.gone');
  const pong = await client.command('ping');
  t.equal(pong.type, 'pong');
  const events = client.messages.filter((m) => m.type === 'event' && m.id === 1).slice(1);
  t.equal(events.length, 3, 'one message per entity, not one per change');
  for (const m of events) applyEntityEvent(store, eventOf(m));
  t.same(eventOf(events[2] as WsMessage), { r: ['sensor.gone'] }, 'created and removed while waiting: the removal');
  for (const s of states.states()) t.same(store.get(s.entity_id), asClientSees(s), s.entity_id);
  t.equal(store.size, states.size);
});

t.test('call_service changes show up in subscribe_entities', async (t) => {
  const { client, states } = await setup(t);
  await client.command('subscribe_entities');
  const store = new Map<string, ClientState>();
  applyEntityEvent(store, eventOf(await client.next()));
  await client.command('call_service', {
    domain: 'light',
    service: 'turn_on',
    target: { entity_id: 'light.kitchen' },
    service_data: { brightness: 50 },
  });
  const diff = eventOf(await client.waitFor((m) => m.type === 'event'));
  applyEntityEvent(store, diff);
  t.equal(store.get('light.kitchen')?.state, 'on');
  t.same(store.get('light.kitchen'), asClientSees(states.get('light.kitchen') as State));
});

t.test('unsubscribe_events ends an entities subscription too', async (t) => {
  const { client, states } = await setup(t);
  await client.command('subscribe_entities');
  await client.next();
  t.same(await client.command('unsubscribe_events', { subscription: 1 }), { id: 2, type: 'result', success: true, result: null });
  states.set('sensor.after', '1');
  await client.command('ping');
  t.equal(client.messages.filter((m) => m.type === 'event').length, 1, 'only the snapshot');
});
