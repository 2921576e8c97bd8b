import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { startTestHub } from '../helpers/hub.js';
import { jsonPost } from './rest/helpers.js';
import { WsClient } from './ws/client.js';

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0) * 1000;
const MIN = 60_000_000;

/** A hub whose clock the test moves, with a sensor and a switch that changed a few times from T0. */
async function hubWithHistory(t: Parameters<typeof startTestHub>[0]) {
  const clock = new ManualClock(T0);
  const th = await startTestHub(t, { clock });
  const post = (id: string, state: string, attributes: Record<string, unknown>) =>
    th.api(`/api/states/${id}`, jsonPost({ state, attributes }));
  for (let i = 0; i < 6; i++) {
    await post('sensor.outside', String(10 + i), { unit_of_measurement: '°C', state_class: 'measurement', friendly_name: 'Outside' });
    clock.advance(MIN);
  }
  await th.hub.core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' }, { userId: 'user-7' });
  clock.advance(MIN);
  await th.hub.core.services.call('switch', 'turn_off', { entity_id: 'switch.coffee_maker' });
  clock.advance(MIN);
  await post('sensor.outside', '15', {
    unit_of_measurement: '°C',
    state_class: 'measurement',
    friendly_name: 'Outside',
    note: 'attrs only',
  });
  clock.advance(MIN);
  return { ...th, clock };
}

t.test('REST history: one list per entity, the start state clamped to the start, minimal and attribute-free forms', async (t) => {
  const { api } = await hubWithHistory(t);
  const start = isoFromMicros(T0 + 2 * MIN + 1);
  const res = await api(
    `/api/history/period/${start}?filter_entity_id=sensor.outside,switch.coffee_maker&end_time=${encodeURIComponent(isoFromMicros(T0 + 20 * MIN))}`,
  );
  t.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>[][];
  t.equal(body.length, 2);
  const outside = body[0] ?? [];
  t.same(
    outside.map((s) => s.state),
    ['12', '13', '14', '15'],
    'the state at the start, then each change (the attribute-only update is not significant)',
  );
  t.same(outside[0], {
    entity_id: 'sensor.outside',
    state: '12',
    attributes: { unit_of_measurement: '°C', state_class: 'measurement', friendly_name: 'Outside' },
    last_changed: start,
    last_updated: start,
  });
  const minimal = (await (
    await api(`/api/history/period/${start}?filter_entity_id=sensor.outside&minimal_response&no_attributes`)
  ).json()) as Record<string, unknown>[][];
  t.same(Object.keys(minimal[0]?.[0] ?? {}), ['entity_id', 'state', 'attributes', 'last_changed', 'last_updated']);
  t.same(minimal[0]?.[0]?.attributes, {}, 'no_attributes');
  t.same(Object.keys(minimal[0]?.[1] ?? {}), ['state', 'last_changed'], 'the middle of a minimal response');
  const all = (await (
    await api(`/api/history/period/${start}?filter_entity_id=sensor.outside&significant_changes_only=0`)
  ).json()) as Record<string, unknown>[][];
  t.equal(all[0]?.length, 5, 'significant_changes_only=0 includes the attribute-only update');
  const last = all[0]?.[4];
  t.not(last?.last_changed, last?.last_updated, 'with its own last_changed');
});

t.test('REST history and logbook: bad parameters get 400 naming the parameter', async (t) => {
  const { api } = await hubWithHistory(t);
  const cases: [string, number, RegExp][] = [
    ['/api/history/period/yesterday?filter_entity_id=sensor.outside', 400, /^Invalid datetime/],
    ['/api/history/period', 400, /^filter_entity_id is missing$/],
    ['/api/history/period?filter_entity_id=not%20an%20id', 400, /^Invalid filter_entity_id$/],
    ['/api/history/period?filter_entity_id=sensor.outside&end_time=soon', 400, /^Invalid end_time/],
    [
      `/api/history/period/${isoFromMicros(T0)}?filter_entity_id=sensor.outside&end_time=${isoFromMicros(T0 - MIN)}`,
      400,
      /end_time.*before the start/,
    ],
    ['/api/logbook/nope', 400, /^Invalid datetime/],
    ['/api/logbook?entity=switch.coffee_maker&context_id=abc', 400, /^Can't combine entity with context_id$/],
    ['/api/logbook?period=0', 400, /period/],
  ];
  for (const [path, status, message] of cases) {
    const res = await api(path);
    t.equal(res.status, status, path);
    t.match(((await res.json()) as { message: string }).message, message, path);
  }
  const future = await api(`/api/history/period/${isoFromMicros(T0 + 1000 * MIN)}?filter_entity_id=sensor.outside`);
  t.same(await future.json(), [], 'a start in the future is []');
  t.equal((await api('/api/history/period?filter_entity_id=sensor.outside', { headers: { authorization: 'Bearer nope' } })).status, 401);
});

t.test('REST logbook: state changes of non-continuous entities, with who caused them', async (t) => {
  const { api } = await hubWithHistory(t);
  // From just after the hub started (its first states are written at T0).
  const res = await api(`/api/logbook/${isoFromMicros(T0 + 1)}?end_time=${encodeURIComponent(isoFromMicros(T0 + 60 * MIN))}`);
  t.equal(res.status, 200);
  const entries = (await res.json()) as Record<string, unknown>[];
  const coffee = entries.filter((e) => e.entity_id === 'switch.coffee_maker');
  t.same(
    coffee.map((e) => [e.state, e.context_user_id]),
    [
      ['on', 'user-7'],
      ['off', undefined],
    ],
  );
  t.match(coffee[0], {
    when: isoFromMicros(T0 + 6 * MIN),
    name: 'Coffee Maker',
    context_event_type: 'call_service',
    context_domain: 'switch',
    context_service: 'turn_on',
  });
  t.notOk(
    entries.some((e) => e.entity_id === 'sensor.outside'),
    'a sensor with a unit is continuous: not in the logbook',
  );
  const one = (await (await api(`/api/logbook/${isoFromMicros(T0 + 1)}?entity=switch.coffee_maker`)).json()) as unknown[];
  t.equal(one.length, 2, 'entity narrows it');
});

t.test('WebSocket history_during_period and logbook/get_events answer in the compressed forms', async (t) => {
  const { wsUrl, token } = await hubWithHistory(t);
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.close());
  const reply = await ws.command('history/history_during_period', {
    start_time: isoFromMicros(T0 + 2 * MIN + 1),
    entity_ids: ['sensor.outside', 'switch.coffee_maker', 'sensor.nothing'],
    minimal_response: true,
    no_attributes: true,
  });
  t.equal(reply.success, true);
  const result = reply.result as Record<string, Record<string, unknown>[]>;
  t.same(Object.keys(result), ['sensor.outside', 'switch.coffee_maker'], 'entities without history are left out');
  t.same(result['sensor.outside']?.[0], { s: '12', lu: (T0 + 2 * MIN + 1) / 1e6 });
  t.same(result['sensor.outside']?.[1], { s: '13', lu: (T0 + 3 * MIN) / 1e6 });
  const full = await ws.command('history/history_during_period', {
    start_time: isoFromMicros(T0),
    entity_ids: ['sensor.outside'],
    significant_changes_only: false,
  });
  const points = (full.result as Record<string, Record<string, unknown>[]>)['sensor.outside'] ?? [];
  t.equal(points.length, 7);
  t.same(Object.keys(points[6] ?? {}), ['s', 'a', 'lu', 'lc'], 'an attribute-only update carries lc');
  const bad = await ws.command('history/history_during_period', { start_time: 'tomorrow-ish', entity_ids: ['sensor.outside'] });
  t.match(bad.error, { code: 'invalid_start_time', message: /^Invalid start_time/ });
  const badEnd = await ws.command('logbook/get_events', { start_time: isoFromMicros(T0), end_time: 'x' });
  t.match(badEnd.error, { code: 'invalid_end_time' });
  const badIds = await ws.command('history/history_during_period', { start_time: isoFromMicros(T0), entity_ids: ['Not valid'] });
  t.match(badIds.error, { code: 'invalid_format', message: /entity_ids/ });
  const log = await ws.command('logbook/get_events', { start_time: isoFromMicros(T0 + 1), entity_ids: ['switch.coffee_maker'] });
  t.same(
    (log.result as Record<string, unknown>[]).map((e) => [e.state, e.when]),
    [
      ['on', (T0 + 6 * MIN) / 1e6],
      ['off', (T0 + 7 * MIN) / 1e6],
    ],
  );
});

t.test('history/stream and logbook/event_stream: the past, then changes as they happen, until unsubscribed', async (t) => {
  const { wsUrl, token, hub } = await hubWithHistory(t);
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.close());
  const id = ws.takeId();
  ws.send({ id, type: 'history/stream', start_time: isoFromMicros(T0), entity_ids: ['switch.coffee_maker'], minimal_response: true });
  t.match(await ws.waitFor((m) => m.id === id && m.type === 'result'), { success: true, result: null });
  const past = await ws.waitFor((m) => m.id === id && m.type === 'event');
  t.same(
    ((past.event as { states: Record<string, { s: string }[]> }).states['switch.coffee_maker'] ?? []).map((s) => s.s),
    ['off', 'on', 'off'],
  );
  const lid = ws.takeId();
  ws.send({ id: lid, type: 'logbook/event_stream', start_time: isoFromMicros(T0), entity_ids: ['switch.coffee_maker'] });
  await ws.waitFor((m) => m.id === lid && m.type === 'result');
  const logPast = await ws.waitFor((m) => m.id === lid && m.type === 'event');
  t.equal((logPast.event as { events: unknown[] }).events.length, 3);
  await hub.core.services.call('switch', 'turn_on', { entity_id: 'switch.coffee_maker' });
  const live = await ws.waitFor((m) => m.id === id && m.type === 'event');
  t.same((live.event as { states: Record<string, { s: string }[]> }).states['switch.coffee_maker']?.[0]?.s, 'on');
  const liveLog = await ws.waitFor((m) => m.id === lid && m.type === 'event');
  t.match((liveLog.event as { events: Record<string, unknown>[] }).events[0], { entity_id: 'switch.coffee_maker', state: 'on' });
  t.match(await ws.command('unsubscribe_events', { subscription: id }), { success: true });
  const ended = ws.takeId();
  ws.send({
    id: ended,
    type: 'history/stream',
    start_time: isoFromMicros(T0),
    end_time: isoFromMicros(T0 + 5 * MIN),
    entity_ids: ['sensor.outside'],
  });
  await ws.waitFor((m) => m.id === ended && m.type === 'event');
  t.match(
    await ws.command('unsubscribe_events', { subscription: ended }),
    { success: false },
    'a stream with an end in the past is not kept',
  );
});

t.test('without the recorder the endpoints do not exist', async (t) => {
  const { api, wsUrl, token } = await startTestHub(t, { yaml: 'recorder:\n  enabled: false\n' });
  t.equal((await api('/api/history/period?filter_entity_id=sensor.x')).status, 404);
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.close());
  t.match((await ws.command('history/history_during_period', { start_time: '2026-01-01T00:00:00Z', entity_ids: ['sensor.x'] })).error, {
    code: 'unknown_command',
  });
});
