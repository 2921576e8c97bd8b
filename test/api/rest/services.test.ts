import t from 'tap';
import { HubError } from '../../../src/core/errors.js';
import { startTestHub, type TestHub } from '../../helpers/hub.js';
import { jsonPost, recordEvents } from './helpers.js';

interface StateBody {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  context: { id: string; parent_id: string | null; user_id: string | null };
}

/** POSTs JSON (a string is sent as JSON text) and reads the JSON answer. */
async function post(hub: TestHub, path: string, body?: unknown): Promise<{ status: number; type: string | null; body: unknown }> {
  const res = await hub.api(path, body === undefined ? { method: 'POST' } : jsonPost(JSON.stringify(body)));
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

/** Registers test-only services with each kind of response support (light and switch have none). */
function registerResponseServices({ hub }: TestHub): void {
  const { services } = hub.core;
  services.register('test', { domain: 'test', service: 'ping', schema: { fields: {} }, handler: () => undefined });
  services.register('test', {
    domain: 'test',
    service: 'echo',
    response: 'optional',
    schema: { fields: { text: { kind: 'text' } } },
    handler: (call) => ({ echoed: call.data.text ?? null }),
  });
  services.register('test', {
    domain: 'test',
    service: 'forecast',
    response: 'only',
    schema: { fields: {} },
    handler: () => ({ tomorrow: 'sunny' }),
  });
  services.register('test', {
    domain: 'light',
    service: 'describe',
    response: 'optional',
    schema: { fields: {} },
    entity: (entity) => ({ state: entity.state ?? null }),
  });
  services.register('test', {
    domain: 'test',
    service: 'refuse',
    schema: { fields: {} },
    handler: () => {
      throw new HubError('service_validation', 'The coffee maker refuses: no water.');
    },
  });
}

t.test('GET /api/services is an object keyed by domain', async (t) => {
  const hub = await startTestHub(t);
  const res = await hub.api('/api/services');
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'application/json');
  const catalogue = (await res.json()) as Record<string, Record<string, { fields: Record<string, unknown>; target?: unknown }>>;
  t.notOk(Array.isArray(catalogue), 'not an array (interface spec, unlike Home Assistant)');
  t.ok(catalogue.light?.turn_on, 'light.turn_on');
  t.ok(catalogue.light?.turn_on?.fields.brightness, 'with its fields');
  t.ok(catalogue.light?.turn_on?.target, 'and its target');
  t.ok(catalogue.switch?.toggle, 'switch.toggle');
  t.same(catalogue, hub.hub.core.services.catalogue());
});

t.test('a service call answers with the states its own context changed', async (t) => {
  const hub = await startTestHub(t);
  const owner = hub.hub.auth.ownerUser();
  const calls = recordEvents(t, hub.hub.core.bus, 'call_service');

  const on = await post(hub, '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 120 });
  t.equal(on.status, 200);
  t.equal(on.type, 'application/json');
  const changed = on.body as StateBody[];
  t.equal(changed.length, 1);
  t.equal(changed[0]?.entity_id, 'light.kitchen');
  t.equal(changed[0]?.state, 'on');
  t.equal(changed[0]?.attributes.brightness, 120);
  t.equal(changed[0]?.context.user_id, owner?.id, "the caller's user id is in the context");
  t.equal(calls.at(-1)?.context.id, changed[0]?.context.id, 'the call_service event has the same context');
  t.equal(hub.hub.core.states.get('light.kitchen')?.state, 'on');

  // Something else changes a state while the call runs: it is not this call's change.
  const { core } = hub.hub;
  const off = core.bus.on('test-bystander', 'call_service', (e) => {
    if (e.data.service === 'toggle') core.states.set('sensor.bystander', String(calls.length), {}, { context: core.newContext() });
  });
  t.teardown(off);
  const toggled = await post(hub, '/api/services/switch/toggle', { entity_id: 'switch.coffee_maker' });
  t.equal(toggled.status, 200);
  t.same(
    (toggled.body as StateBody[]).map((s) => [s.entity_id, s.state]),
    [['switch.coffee_maker', 'on']],
  );
  t.ok(core.states.has('sensor.bystander'), 'the other write did happen during the call');

  const offAgain = await post(hub, '/api/services/switch/turn_off', { entity_id: 'switch.coffee_maker' });
  t.same(
    (offAgain.body as StateBody[]).map((s) => s.state),
    ['off'],
  );
  const unchanged = await post(hub, '/api/services/switch/turn_off', { entity_id: 'switch.coffee_maker' });
  t.same(unchanged.body, [], 'nothing changed, nothing listed');
});

t.test('entity_id as a string, a comma-separated string or a list', async (t) => {
  const hub = await startTestHub(t);
  const ids = (body: unknown): string[] => (body as StateBody[]).map((s) => s.entity_id).sort();
  const one = await post(hub, '/api/services/light/turn_on', { entity_id: 'light.kitchen' });
  t.same(ids(one.body), ['light.kitchen']);
  const comma = await post(hub, '/api/services/light/turn_off', { entity_id: 'light.kitchen, light.hallway' });
  t.same(ids(comma.body), ['light.kitchen'], 'both addressed; the hallway was already off');
  const list = await post(hub, '/api/services/light/turn_on', { entity_id: ['light.kitchen', 'LIGHT.HALLWAY'] });
  t.same(ids(list.body), ['light.hallway', 'light.kitchen']);
  const all = await post(hub, '/api/services/light/turn_off', { entity_id: 'all' });
  t.same(ids(all.body), ['light.hallway', 'light.kitchen']);

  const unknown = await post(hub, '/api/services/light/turn_on', { entity_id: 'light.cellar' });
  t.equal(unknown.status, 200, 'an unknown entity is not an error');
  t.same(unknown.body, []);
  const otherDomain = await post(hub, '/api/services/light/turn_on', { entity_id: 'switch.coffee_maker' });
  t.same(otherDomain.body, [], 'a light service ignores a switch');
  t.equal(hub.hub.core.states.get('switch.coffee_maker')?.state, 'off');
});

t.test('invalid service data gets 400 with a message naming the field', async (t) => {
  const hub = await startTestHub(t);
  const cases: [unknown, RegExp][] = [
    [{ entity_id: 'light.kitchen', brightness: 'lots' }, /expected int for dictionary value @ data\['brightness'\]. Got 'lots'/],
    [
      { entity_id: 'light.kitchen', brightness_pct: 150 },
      /value must be between 0 and 100 for dictionary value @ data\['brightness_pct'\]/,
    ],
    [
      { entity_id: 'light.kitchen', color_name: 'ultraviolet' },
      /value must be one of .*aliceblue.* for dictionary value @ data\['color_name'\]. Got 'ultraviolet'/,
    ],
    [{ entity_id: 'light.kitchen', hs_color: [1] }, /data\['hs_color'\]/],
    [{ entity_id: 'light.kitchen', sparkle: true }, /extra keys not allowed @ data\['sparkle'\].*Allowed keys: .*brightness/],
    [{ entity_id: 5 }, /expected an entity id or a list of entity ids for dictionary value @ data\['entity_id'\]/],
    [{ entity_id: [['light.kitchen']] }, /data\['entity_id'\]/],
    [{ brightness: 10 }, /must contain at least one of entity_id/],
    [[1, 2], /expected a dictionary for service data/],
    ['on', /expected a dictionary for service data/],
  ];
  for (const [body, message] of cases) {
    const res = await post(hub, '/api/services/light/turn_on', body);
    t.equal(res.status, 400, JSON.stringify(body));
    t.equal(res.type, 'application/json');
    t.match((res.body as { message: string }).message, message);
  }
  t.equal(hub.hub.core.states.get('light.kitchen')?.state, 'off', 'nothing was turned on');

  const clamped = await post(hub, '/api/services/light/turn_on', { entity_id: 'light.kitchen', brightness: 300 });
  t.equal(clamped.status, 200, 'brightness is clamped to 255, as in Home Assistant');
  t.equal((clamped.body as StateBody[])[0]?.attributes.brightness, 255);
  const named = await post(hub, '/api/services/light/turn_on', { entity_id: 'light.kitchen', color_name: 'red' });
  t.equal(named.status, 200);
  t.same((named.body as StateBody[])[0]?.attributes.hs_color, [0, 100]);
});

t.test('bodies, names and unknown services', async (t) => {
  const hub = await startTestHub(t);
  registerResponseServices(hub);

  const invalid = await hub.api('/api/services/light/turn_on', { method: 'POST', body: '{"entity_id": "light.kitchen"' });
  t.equal(invalid.status, 400);
  t.same(await invalid.json(), { message: 'Data should be valid JSON.' });

  const empty = await post(hub, '/api/services/test/ping');
  t.equal(empty.status, 200, 'an empty body is no data');
  t.same(empty.body, []);
  const nullBody = await post(hub, '/api/services/test/ping', null);
  t.equal(nullBody.status, 200, 'null is no data');
  const emptyLight = await post(hub, '/api/services/light/turn_on');
  t.equal(emptyLight.status, 400, 'an entity service without a target');
  t.match((emptyLight.body as { message: string }).message, /must contain at least one of entity_id/);

  for (const [path, name] of [
    ['/api/services/light/blink', 'light.blink'],
    ['/api/services/garage/open', 'garage.open'],
  ] as const) {
    const res = await post(hub, path, { entity_id: 'light.kitchen' });
    t.equal(res.status, 400, path);
    t.same(res.body, { message: `Service ${name} not found.` });
  }

  const upper = await post(hub, '/api/services/LIGHT/Turn_On', { entity_id: 'light.kitchen' });
  t.equal(upper.status, 200, 'domain and service names are case-insensitive');
  t.equal((upper.body as StateBody[]).length, 1);
  const encoded = await post(hub, '/api/services/light/turn%5Foff', { entity_id: 'light.kitchen' });
  t.equal(encoded.status, 200, 'names are URL-decoded');
  t.equal((encoded.body as StateBody[])[0]?.state, 'off');

  const refused = await post(hub, '/api/services/test/refuse', {});
  t.equal(refused.status, 400, "a domain's own validation error");
  t.same(refused.body, { message: 'The coffee maker refuses: no water.' });
});

t.test('?return_response', async (t) => {
  const hub = await startTestHub(t);
  registerResponseServices(hub);

  const unsupported = await post(hub, '/api/services/light/turn_on?return_response', { entity_id: 'light.kitchen' });
  t.equal(unsupported.status, 400);
  t.same(unsupported.body, { message: 'Service does not support responses. Remove return_response from request.' });
  t.equal(hub.hub.core.states.get('light.kitchen')?.state, 'off', 'and the call did not run');

  const required = await post(hub, '/api/services/test/forecast', {});
  t.equal(required.status, 400);
  t.same(required.body, {
    message: 'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.',
  });

  const only = await post(hub, '/api/services/test/forecast?return_response', {});
  t.equal(only.status, 200);
  t.same(only.body, { changed_states: [], service_response: { tomorrow: 'sunny' } });

  const optional = await post(hub, '/api/services/test/echo?return_response=false', { text: 'hi' });
  t.same(optional.body, { changed_states: [], service_response: { echoed: 'hi' } }, 'only the key counts, not its value');
  const without = await post(hub, '/api/services/test/echo', { text: 'hi' });
  t.same(without.body, [], 'optional response not asked for: the plain array');

  await post(hub, '/api/services/light/turn_on', { entity_id: 'light.kitchen' });
  const perEntity = await post(hub, '/api/services/light/describe?other=1&return_response', { entity_id: 'light.kitchen' });
  t.equal(perEntity.status, 200);
  t.same(perEntity.body, { changed_states: [], service_response: { 'light.kitchen': { state: 'on' } } });

  const noMatch = await post(hub, '/api/services/light/describe?return_response', { entity_id: 'light.cellar' });
  t.equal(noMatch.status, 400);
  t.same(noMatch.body, { message: 'Service call requested response data but did not match any entities' });

  const badQuery = await post(hub, '/api/services/test/echo?%E0%A4=1', {});
  t.equal(badQuery.status, 400, 'a malformed query is a 400');
});
