import t from 'tap';
import { isoFromMicros, ManualClock } from '../../src/core/clock.js';
import { MINIMAL_CONFIG, startTestHub } from '../helpers/hub.js';
import { WsClient } from './ws/client.js';

const T0 = Date.UTC(2026, 2, 10, 8, 0, 0) * 1000;
const MIN = 60_000_000;

type Entry = { entity_id?: string; state?: string };

/** A hub with `extra` sections whose kitchen light, hallway light and coffee maker each went on at T0 + 1..3 min. */
async function hubWith(t: Parameters<typeof startTestHub>[0], extra: string) {
  const clock = new ManualClock(T0);
  const th = await startTestHub(t, { clock, yaml: `${MINIMAL_CONFIG}${extra}` });
  for (const [domain, id] of [
    ['light', 'light.kitchen'],
    ['light', 'light.hallway'],
    ['switch', 'switch.coffee_maker'],
  ] as const) {
    clock.advance(MIN);
    await th.hub.core.services.call(domain, 'turn_on', { entity_id: id });
  }
  clock.advance(MIN);
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  const rest = async (query = '') =>
    ((await (await th.api(`/api/logbook/${isoFromMicros(T0 + 1)}${query}`)).json()) as Entry[]).map((e) => e.entity_id);
  const wsEvents = async (fields: Record<string, unknown> = {}) =>
    ((await ws.command('logbook/get_events', { start_time: isoFromMicros(T0 + 1), ...fields })).result as Entry[]).map((e) => e.entity_id);
  return { ...th, clock, ws, rest, wsEvents };
}

t.test('logbook: exclude hides its entities from REST, logbook/get_events and logbook/event_stream, past and live', async (t) => {
  const h = await hubWith(t, 'logbook:\n  exclude:\n    entities: [switch.coffee_maker]\n    entity_globs: [light.hall*]\n');
  t.same(await h.rest(), ['light.kitchen'], 'REST');
  t.same(await h.wsEvents(), ['light.kitchen'], 'get_events');
  t.same(await h.rest('?entity=switch.coffee_maker'), ['switch.coffee_maker'], 'an entity asked for by name is shown (as HA)');

  const id = h.ws.takeId();
  h.ws.send({ id, type: 'logbook/event_stream', start_time: isoFromMicros(T0 + 1) });
  await h.ws.waitFor((m) => m.id === id && m.type === 'result');
  const past = await h.ws.waitFor((m) => m.id === id && m.type === 'event');
  t.same(
    (past.event as { events: Entry[] }).events.map((e) => e.entity_id),
    ['light.kitchen'],
    'event_stream: the past, filtered',
  );
  await h.hub.core.services.call('switch', 'turn_off', { entity_id: 'switch.coffee_maker' });
  await h.hub.core.services.call('light', 'turn_off', { entity_id: 'light.hallway' });
  await h.hub.core.services.call('light', 'turn_off', { entity_id: 'light.kitchen' });
  const live = await h.ws.waitFor((m) => m.id === id && m.type === 'event');
  t.same(
    (live.event as { events: Entry[] }).events.map((e) => [e.entity_id, e.state]),
    [['light.kitchen', 'off']],
    'event_stream: live changes, filtered (the excluded ones, sent first, never arrive)',
  );
});

t.test("the recorder's include/exclude is merged into the logbook's, as Home Assistant's logbook merges them", async (t) => {
  // The recorder keeps only lights; the logbook's own include names the coffee maker. Merged: lights and the coffee
  // maker (which was never recorded), so the lights show; the logbook's filter alone would have hidden them.
  const h = await hubWith(t, 'recorder:\n  include:\n    domains: [light]\nlogbook:\n  include:\n    entities: [switch.coffee_maker]\n');
  t.same(await h.rest(), ['light.kitchen', 'light.hallway']);
  t.same(await h.wsEvents(), ['light.kitchen', 'light.hallway']);
});

t.test('history: include/exclude is accepted and, as in Home Assistant since 2023, filters nothing', async (t) => {
  const h = await hubWith(t, 'history:\n  exclude:\n    domains: [light]\n');
  const res = await h.api(`/api/history/period/${isoFromMicros(T0 + 1)}?filter_entity_id=light.kitchen`);
  t.equal(res.status, 200);
  const body = (await res.json()) as Entry[][];
  t.same(
    body[0]?.map((s) => s.state),
    ['off', 'on'],
    'an entity named is answered, as Home Assistant answers it',
  );
});
