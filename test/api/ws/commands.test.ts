import t from 'tap';
import { configObject } from '../../../src/api/config-object.js';
import { startTestHub, type Teardown, type TestHub } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

async function setup(t: Teardown): Promise<{ th: TestHub; client: WsClient; ownerId: string }> {
  const th = await startTestHub(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  const owner = th.hub.auth.ownerUser();
  if (owner === undefined) throw new Error('no owner');
  return { th, client, ownerId: owner.id };
}

function result(m: WsMessage): unknown {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result;
}

t.test('get_states returns every state object', async (t) => {
  const { th, client } = await setup(t);
  const reply = await client.command('get_states');
  t.equal(reply.type, 'result');
  t.equal(reply.success, true);
  const states = result(reply) as { entity_id: string }[];
  t.same(states.map((s) => s.entity_id).sort(), ['light.hallway', 'light.kitchen', 'switch.coffee_maker']);
  t.same(states, JSON.parse(th.hub.core.states.statesJson()));
});

t.test('ping answers pong with the same id and nothing else', async (t) => {
  const { client } = await setup(t);
  t.same(await client.command('ping'), { id: 1, type: 'pong' });
});

t.test('get_config returns the configuration object', async (t) => {
  const { th, client } = await setup(t);
  const config = result(await client.command('get_config')) as Record<string, unknown>;
  t.equal(config.location_name, 'Test Home');
  t.equal(config.time_zone, 'Europe/Amsterdam');
  t.equal(config.state, 'RUNNING');
  t.same(config, configObject(th.hub.config, 'RUNNING', th.hub.components()));
});

t.test('get_services returns the catalogue keyed by domain', async (t) => {
  const { th, client } = await setup(t);
  const services = result(await client.command('get_services')) as Record<string, Record<string, unknown>>;
  t.notOk(Array.isArray(services));
  t.ok(services.light?.turn_on, 'light.turn_on is listed');
  t.ok(services.switch?.toggle, 'switch.toggle is listed');
  t.same(services, JSON.parse(th.hub.core.services.catalogueJson()));
});

t.test('call_service: target as a string or a list, entity_id in service_data, result {context, response}', async (t) => {
  const { th, client, ownerId } = await setup(t);
  const states = th.hub.core.states;

  const r1 = result(
    await client.command('call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.coffee_maker' } }),
  ) as { context: { id: string; parent_id: unknown; user_id: unknown }; response: unknown };
  t.equal(states.get('switch.coffee_maker')?.state, 'on');
  t.match(r1.context.id, /^[0-9a-f]{32}$/);
  t.equal(r1.context.parent_id, null);
  t.equal(r1.context.user_id, ownerId, 'the context names the connection user');
  t.equal(r1.response, null, 'response is present and null when not requested');
  t.equal(states.get('switch.coffee_maker')?.context.id, r1.context.id, 'the state carries the call context');

  await client.command('call_service', {
    domain: 'light',
    service: 'turn_on',
    target: { entity_id: ['light.kitchen', 'light.hallway'] },
    service_data: { brightness: 100 },
  });
  t.equal(states.get('light.kitchen')?.state, 'on');
  t.equal(states.get('light.hallway')?.attributes.brightness, 100);

  await client.command('call_service', { domain: 'light', service: 'turn_off', service_data: { entity_id: 'light.kitchen' } });
  t.equal(states.get('light.kitchen')?.state, 'off');
  t.equal(states.get('light.hallway')?.state, 'on');
});

t.test('call_service with return_response returns the service response', async (t) => {
  const { th, client } = await setup(t);
  th.hub.core.services.register('test', {
    domain: 'test',
    service: 'echo',
    schema: { fields: { value: { kind: 'any' } } },
    response: 'optional',
    handler: (call) => ({ echoed: call.data.value ?? null }),
  });
  const withResponse = result(
    await client.command('call_service', { domain: 'test', service: 'echo', service_data: { value: [1, 'x'] }, return_response: true }),
  ) as { response: unknown };
  t.same(withResponse.response, { echoed: [1, 'x'] });
  const without = result(await client.command('call_service', { domain: 'test', service: 'echo' })) as { response: unknown };
  t.equal(without.response, null);
});

t.test('subscribe_events: result has no result key; events carry the subscription id', async (t) => {
  const { th, client } = await setup(t);
  const reply = await client.command('subscribe_events', { event_type: 'state_changed' });
  t.same(reply, { id: 1, type: 'result', success: true }, 'no `result` field, as the interface shows');
  th.hub.core.states.set('sensor.outside', '12.5', { unit_of_measurement: '°C' });
  const event = await client.waitFor((m) => m.type === 'event');
  t.equal(event.id, 1);
  const body = event.event as { event_type: string; data: { entity_id: string; old_state: unknown; new_state: { state: string } } };
  t.equal(body.event_type, 'state_changed');
  t.equal(body.data.entity_id, 'sensor.outside');
  t.equal(body.data.old_state, null);
  t.equal(body.data.new_state.state, '12.5');
  t.match(body, { origin: 'LOCAL', time_fired: /\+00:00$/, context: { id: /^[0-9a-f]{32}$/ } });
});

t.test('subscribe_events without event_type gets every event; a never-fired type is accepted', async (t) => {
  const { th, client } = await setup(t);
  t.same(await client.command('subscribe_events'), { id: 1, type: 'result', success: true });
  t.same(await client.command('subscribe_events', { event_type: 'never_fired_anywhere' }), { id: 2, type: 'result', success: true });
  t.same(await client.command('subscribe_events', { event_type: 'my_custom_event' }), { id: 3, type: 'result', success: true });
  th.hub.core.bus.fire('my_custom_event', { n: 1 }, th.hub.core.newContext());
  const seen = await client.waitForCount((m) => m.type === 'event', 2);
  t.same(seen.map((m) => m.id).sort(), [1, 3], 'the match-all and the typed subscription got it');
  for (const m of seen) t.same((m.event as { data: unknown }).data, { n: 1 });
});

t.test('unsubscribe_events stops a subscription; an unknown one is not_found', async (t) => {
  const { th, client } = await setup(t);
  await client.command('subscribe_events', { event_type: 'state_changed' });
  t.same(await client.command('unsubscribe_events', { subscription: 1 }), { id: 2, type: 'result', success: true, result: null });
  th.hub.core.states.set('sensor.x', '1');
  // The pong is queued after anything the change would have produced.
  t.same(await client.command('ping'), { id: 3, type: 'pong' });
  t.notOk(
    client.messages.some((m) => m.type === 'event'),
    'no event after unsubscribing',
  );
  const missing = await client.command('unsubscribe_events', { subscription: 1 });
  t.same(missing, { id: 4, type: 'result', success: false, error: { code: 'not_found', message: 'Subscription not found.' } });
});

t.test('fire_event fires with the user context and origin REMOTE', async (t) => {
  const { client, ownerId } = await setup(t);
  await client.command('subscribe_events', { event_type: 'doorbell' });
  const reply = result(await client.command('fire_event', { event_type: 'doorbell', event_data: { floor: 1 } })) as {
    context: { id: string; user_id: string };
  };
  t.equal(reply.context.user_id, ownerId);
  const event = await client.waitFor((m) => m.type === 'event');
  t.match(event.event, { event_type: 'doorbell', data: { floor: 1 }, origin: 'REMOTE', context: { id: reply.context.id } });
  const noData = await client.command('fire_event', { event_type: 'doorbell' });
  t.equal(noData.success, true);
  t.same(((await client.waitFor((m) => m.type === 'event')).event as { data: unknown }).data, {});
});

t.test('fire_event refuses over-long and hub-only event types', async (t) => {
  const { client } = await setup(t);
  const long = await client.command('fire_event', { event_type: 'x'.repeat(65) });
  t.match(long.error, { code: 'home_assistant_error', message: /has a max length of 64 characters/ });
  const forged = await client.command('fire_event', { event_type: 'state_changed', event_data: { entity_id: 'light.x' } });
  t.match(forged.error, { code: 'not_allowed', message: /fired by the hub only/ });
  const badData = await client.command('fire_event', { event_type: 'x', event_data: [1] });
  t.match(badData.error, { code: 'invalid_format', message: "expected dict for dictionary value @ data['event_data']. Got [1]" });
});

t.test('auth/current_user describes the connection user', async (t) => {
  const { client, ownerId } = await setup(t);
  const user = result(await client.command('auth/current_user'));
  t.same(user, { id: ownerId, name: 'Test Owner', is_owner: true, is_admin: true, credentials: [], mfa_modules: [] });
});

t.test('auth/long_lived_access_token creates a token shown once; a duplicate name is refused', async (t) => {
  const { th, client, ownerId } = await setup(t);
  const token = result(await client.command('auth/long_lived_access_token', { lifespan: 365, client_name: 'Node-RED' })) as string;
  t.type(token, 'string');
  t.ok(th.hub.auth.listTokens(ownerId).some((x) => x.name === 'Node-RED'));
  const second = await WsClient.authenticated(th.wsUrl, token);
  t.same(await second.command('ping'), { id: 1, type: 'pong' }, 'the new token authenticates');
  second.close();
  const dup = await client.command('auth/long_lived_access_token', { lifespan: 365, client_name: 'Node-RED' });
  t.same(dup.error, { code: 'home_assistant_error', message: 'Node-RED already exists' });
  const missing = await client.command('auth/long_lived_access_token', { client_name: 'x' });
  t.same(missing.error, { code: 'invalid_format', message: "required key not provided @ data['lifespan']. Got None" });
  const blank = await client.command('auth/long_lived_access_token', { lifespan: 1, client_name: '  ' });
  t.match(blank.error, { code: 'invalid_format', message: /client_name must have 1 to 100 characters/ });
});

t.test('a JSON array of commands in one frame is handled in order', async (t) => {
  const { client } = await setup(t);
  client.send([
    { id: 1, type: 'ping' },
    { id: 2, type: 'get_config' },
    { id: 2, type: 'ping' },
    { id: 3, type: 'ping' },
  ]);
  const replies = [await client.next(), await client.next(), await client.next(), await client.next()];
  t.same(
    replies.map((m) => [m.id, m.type, m.success ?? null]),
    [
      [1, 'pong', null],
      [2, 'result', true],
      [2, 'result', false],
      [3, 'pong', null],
    ],
  );
  t.match(replies[2], { error: { code: 'id_reuse' } });
});

t.test('supported_features with coalesce_messages sends waiting messages as one JSON array frame', async (t) => {
  const { th, client } = await setup(t);
  const features = await client.command('supported_features', { features: { coalesce_messages: 1 } });
  t.same(features, { id: 1, type: 'result', success: true, result: null });
  await client.command('subscribe_events', { event_type: 'state_changed' });
  const framesBefore = client.frames.length;
  // Three changes in one tick: three messages waiting at the next flush, so one frame.
  th.hub.core.states.set('sensor.a', '1');
  th.hub.core.states.set('sensor.b', '2');
  th.hub.core.states.set('sensor.c', '3');
  const events = await client.waitForCount((m) => m.type === 'event', 3);
  t.same(
    events.map((m) => (m.event as { data: { entity_id: string } }).data.entity_id),
    ['sensor.a', 'sensor.b', 'sensor.c'],
  );
  const frame = client.frames[framesBefore] as string;
  t.equal(client.frames.length, framesBefore + 1, 'one frame');
  t.ok(frame.startsWith('[{'), 'a JSON array');
  // A single waiting message still goes out bare.
  t.same(await client.command('ping'), { id: 3, type: 'pong' });
  t.ok((client.frames.at(-1) as string).startsWith('{'));
});

t.test('without coalescing every message is its own frame', async (t) => {
  const { th, client } = await setup(t);
  await client.command('subscribe_events', { event_type: 'state_changed' });
  const framesBefore = client.frames.length;
  th.hub.core.states.set('sensor.a', '1');
  th.hub.core.states.set('sensor.b', '2');
  await client.waitForCount((m) => m.type === 'event', 2);
  t.equal(client.frames.length, framesBefore + 2);
});
