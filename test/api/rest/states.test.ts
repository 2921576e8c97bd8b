import t from 'tap';
import { ManualClock } from '../../../src/core/clock.js';
import { startTestHub } from '../../helpers/hub.js';
import { jsonPost, recordEvents } from './helpers.js';

interface StateBody {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  context: { id: string; parent_id: string | null; user_id: string | null };
}

t.test('GET /api/states lists every entity and follows changes', async (t) => {
  const { api, hub } = await startTestHub(t);
  const res = await api('/api/states');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  const states = (await res.json()) as StateBody[];
  t.same(
    states.map((s) => s.entity_id),
    ['light.kitchen', 'light.hallway', 'switch.coffee_maker'],
  );
  t.same(states, JSON.parse(hub.core.states.statesJson()));

  const again = (await (await api('/api/states')).json()) as StateBody[];
  t.same(again, states, 'unchanged table, same answer');

  await api('/api/states/sensor.outside', jsonPost({ state: '12' }));
  const after = (await (await api('/api/states')).json()) as StateBody[];
  t.equal(after.length, 4);
  t.equal(after[3]?.state, '12', 'a write shows up in the next listing');
});

t.test('GET /api/states/<entity_id>', async (t) => {
  const { api, hub } = await startTestHub(t);
  const res = await api('/api/states/light.kitchen');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  const body = (await res.json()) as StateBody;
  t.equal(body.entity_id, 'light.kitchen');
  t.equal(body.state, 'off');
  t.equal(body.attributes.friendly_name, 'Kitchen');
  t.match(body.last_changed, /\+00:00$/);
  t.equal(JSON.stringify(body), hub.core.states.get('light.kitchen')?.json, 'the cached JSON, byte for byte');

  t.equal((await api('/api/states/light%2Ekitchen')).status, 200, 'the id is URL-decoded');
  t.equal((await api('/api/states/LIGHT.Kitchen')).status, 200, 'looked up lower-cased as well, as in Home Assistant');
  t.equal((await api('/api/states/light.kitchen?x=1')).status, 200, 'a query string is ignored');

  for (const id of ['light.cellar', 'not%20an%20id', 'nodot']) {
    const missing = await api(`/api/states/${id}`);
    t.equal(missing.status, 404, id);
    t.same(await missing.json(), { message: 'Entity not found.' });
  }
});

t.test('POST /api/states/<entity_id> creates, updates and fires state_changed', async (t) => {
  const clock = new ManualClock();
  const { api, hub } = await startTestHub(t, { clock });
  const owner = hub.auth.ownerUser();
  const events = recordEvents(t, hub.core.bus, 'state_changed');

  const created = await api(
    '/api/states/sensor.Outside',
    jsonPost({ state: '12.5', attributes: { unit_of_measurement: '°C', list: [1, 2] } }),
  );
  t.equal(created.status, 201, 'new entity');
  t.equal(created.headers.get('location'), '/api/states/sensor.Outside', 'Location as written in the URL');
  const first = (await created.json()) as StateBody;
  t.equal(first.entity_id, 'sensor.outside', 'stored lower-cased');
  t.equal(first.state, '12.5');
  t.same(first.attributes, { unit_of_measurement: '°C', list: [1, 2] });
  t.equal(first.context.user_id, owner?.id, "the caller's context");
  t.equal(events.length, 1);
  t.equal(events[0]?.data.old_state, null);
  t.equal(events[0]?.data.new_state?.json, JSON.stringify(first));
  t.equal(events[0]?.context.user_id, owner?.id);

  clock.advance(1_000_000);
  const same = await api(
    '/api/states/sensor.outside',
    jsonPost({ state: '12.5', attributes: { list: [1, 2], unit_of_measurement: '°C' } }),
  );
  t.equal(same.status, 200, 'existing entity');
  t.equal(same.headers.get('location'), '/api/states/sensor.outside');
  t.same(await same.json(), first, 'nothing changed: same object, same timestamps');
  t.equal(events.length, 1, 'and no event');

  clock.advance(1_000_000);
  const replaced = (await (
    await api('/api/states/sensor.outside', jsonPost({ state: '12.5', attributes: { other: true } }))
  ).json()) as StateBody;
  t.same(replaced.attributes, { other: true }, 'attributes are replaced, not merged');
  t.equal(replaced.last_changed, first.last_changed, 'same state keeps last_changed');
  t.not(replaced.last_updated, first.last_updated);
  t.equal(events.length, 2);

  clock.advance(1_000_000);
  const cleared = (await (await api('/api/states/sensor.outside', jsonPost({ state: '12.5' }))).json()) as StateBody;
  t.same(cleared.attributes, {}, 'no attributes means none');

  clock.advance(1_000_000);
  const forced = await api('/api/states/sensor.outside', jsonPost({ state: '12.5', force_update: true }));
  const forcedBody = (await forced.json()) as StateBody;
  t.equal(forced.status, 200);
  t.not(forcedBody.last_changed, cleared.last_changed, 'force_update moves last_changed');
  t.equal(events.length, 4, 'and fires');

  const numeric = (await (await api('/api/states/sensor.count', jsonPost({ state: 7 }))).json()) as StateBody;
  t.equal(numeric.state, '7', 'a number becomes a string');
  const flag = (await (await api('/api/states/sensor.flag', jsonPost({ state: true }))).json()) as StateBody;
  t.equal(flag.state, 'True', "a boolean as Python's str() writes it");

  const overwritten = await api('/api/states/light.kitchen', jsonPost({ state: 'on' }));
  t.equal(overwritten.status, 200, "a driver's entity can be overwritten, as in Home Assistant");
  t.equal(hub.core.states.get('light.kitchen')?.state, 'on');
});

t.test('POST /api/states/<entity_id> rejects bad input with 400 and a message', async (t) => {
  const { api, hub } = await startTestHub(t);
  const events = recordEvents(t, hub.core.bus, 'state_changed');
  const cases: [string, string | Buffer, string][] = [
    ['sensor.a', '{"state": ', 'Invalid JSON specified.'],
    ['sensor.a', '', 'Invalid JSON specified.'],
    ['sensor.a', Buffer.from([0x7b, 0x22, 0x73, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'Invalid JSON specified.'],
    ['sensor.a', '[1, 2]', 'State data should be a JSON object.'],
    ['sensor.a', '"on"', 'State data should be a JSON object.'],
    ['sensor.a', 'null', 'State data should be a JSON object.'],
    ['sensor.a', '{"attributes": {}}', 'No state specified.'],
    ['sensor.a', '{"state": null}', 'No state specified.'],
    ['nodot', '{"state": "on"}', 'Invalid entity ID specified.'],
    ['sensor..a', '{"state": "on"}', 'Invalid entity ID specified.'],
    ['sensor.a%20b', '{"state": "on"}', 'Invalid entity ID specified.'],
    ['_sensor.a', '{"state": "on"}', 'Invalid entity ID specified.'],
    ['sensor.a', JSON.stringify({ state: 'x'.repeat(256) }), 'Invalid state specified.'],
    ['sensor.a', '{"state": {"a": 1}}', 'Invalid state specified: state should be a string, a number or a boolean.'],
    ['sensor.a', '{"state": "on", "attributes": [1]}', 'Invalid attributes specified: attributes should be a JSON object.'],
    ['sensor.a', '{"state": "on", "attributes": "x"}', 'Invalid attributes specified: attributes should be a JSON object.'],
    ['sensor.a', '{"state": "on", "force_update": "yes"}', 'Invalid force_update specified: force_update should be true or false.'],
    [
      'sensor.a',
      `{"state": "on", "attributes": {"a": ${'['.repeat(100)}${']'.repeat(100)}}}`,
      'Request body is nested deeper than 64 levels of arrays and objects.',
    ],
  ];
  for (const [id, body, message] of cases) {
    const res = await api(`/api/states/${id}`, { method: 'POST', body });
    t.equal(res.status, 400, `${id} ${String(body).slice(0, 40)}`);
    t.same(await res.json(), { message }, message);
  }
  t.equal(events.length, 0, 'nothing was written');
  t.notOk(hub.core.states.has('sensor.a'));

  const longest = await api('/api/states/sensor.a', jsonPost({ state: 'x'.repeat(255) }));
  t.equal(longest.status, 201, '255 characters are allowed');
  const nested = await api(
    '/api/states/sensor.b',
    jsonPost({ state: 'on', attributes: { a: JSON.parse(`${'['.repeat(60)}${']'.repeat(60)}`) } }),
  );
  t.equal(nested.status, 201, 'moderate nesting is fine');
});

t.test('DELETE /api/states/<entity_id>', async (t) => {
  const { api, hub } = await startTestHub(t);
  const owner = hub.auth.ownerUser();
  await api('/api/states/sensor.gone', jsonPost({ state: 'here' }));
  const events = recordEvents(t, hub.core.bus, 'state_changed');

  const res = await api('/api/states/Sensor.Gone', { method: 'DELETE' });
  t.equal(res.status, 200);
  t.same(await res.json(), { message: 'Entity removed.' });
  t.equal(events.length, 1, 'state_changed fired');
  t.equal(events[0]?.data.entity_id, 'sensor.gone');
  t.equal(events[0]?.data.new_state, null, 'with new_state null');
  t.equal(events[0]?.data.old_state?.state, 'here');
  t.equal(events[0]?.context.user_id, owner?.id);

  t.equal((await api('/api/states/sensor.gone')).status, 404);
  const again = await api('/api/states/sensor.gone', { method: 'DELETE' });
  t.equal(again.status, 404);
  t.same(await again.json(), { message: 'Entity not found.' });
  t.equal(events.length, 1);
});
