import t from 'tap';
import { startTestHub, type Teardown } from '../../helpers/hub.js';
import { WsClient, type WsMessage } from './client.js';

async function connect(t: Teardown): Promise<{ client: WsClient; wsUrl: string; token: string }> {
  const th = await startTestHub(t);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { client, wsUrl: th.wsUrl, token: th.token };
}

function failure(id: WsMessage['id'] | string | boolean, code: string, message: string | RegExp): Record<string, unknown> {
  return { id, type: 'result', success: false, error: { code, message } };
}

t.test('invalid JSON gets invalid_format with id null and the connection stays usable', async (t) => {
  const { client } = await connect(t);
  client.send('{"id": 1, "type": "ping"');
  t.same(await client.next(), failure(null, 'invalid_format', 'Message incorrectly formatted: the frame is not valid JSON.'));
  t.same(await client.command('ping'), { id: 1, type: 'pong' });
});

t.test('a message that is not an object, or lacks a proper id or type, is invalid_format', async (t) => {
  const { client } = await connect(t);
  const cases: [unknown, unknown, RegExp][] = [
    [5, 0, /expected a JSON object. Got 5/],
    [[[1]], 0, /expected a JSON object/],
    [{ type: 'ping' }, null, /id must be a positive integer. Got None/],
    [{ id: 'seven', type: 'ping' }, 'seven', /id must be a positive integer. Got 'seven'/],
    [{ id: 1.5, type: 'ping' }, 1.5, /id must be a positive integer. Got 1.5/],
    [{ id: true, type: 'ping' }, true, /id must be a positive integer/],
    [{ id: 0, type: 'ping' }, 0, /id must be a positive integer/],
    [{ id: -3, type: 'ping' }, -3, /id must be a positive integer/],
    [{ id: { a: 1 }, type: 'ping' }, null, /id must be a positive integer/],
    [{ id: 1 }, 1, /type must be a non-empty string. Got None/],
    [{ id: 1, type: '' }, 1, /type must be a non-empty string/],
    [{ id: 1, type: 7 }, 1, /type must be a non-empty string. Got 7/],
  ];
  for (const [message, id, pattern] of cases) {
    client.send(message);
    const reply = await client.next();
    t.match(reply, failure(id as number, 'invalid_format', pattern), JSON.stringify(message));
    t.equal(reply.id, id);
  }
  // None of these used up an id.
  t.same(await client.command('ping'), { id: 1, type: 'pong' });
});

t.test('ids must increase: id_reuse, without advancing', async (t) => {
  const { client } = await connect(t);
  client.send({ id: 5, type: 'ping' });
  t.same(await client.next(), { id: 5, type: 'pong' });
  client.send({ id: 5, type: 'ping' });
  t.same(await client.next(), failure(5, 'id_reuse', 'Identifier values have to increase.'));
  client.send({ id: 4, type: 'ping' });
  t.same(await client.next(), failure(4, 'id_reuse', 'Identifier values have to increase.'));
  client.send({ id: 6, type: 'ping' });
  t.same(await client.next(), { id: 6, type: 'pong' });
});

t.test('an unknown command is unknown_command and its id may be used again', async (t) => {
  const { client } = await connect(t);
  client.send({ id: 1, type: 'make_coffee' });
  t.same(await client.next(), failure(1, 'unknown_command', 'Unknown command.'));
  client.send({ id: 1, type: '__proto__' });
  t.same(await client.next(), failure(1, 'unknown_command', 'Unknown command.'));
  client.send({ id: 1, type: 'ping' });
  t.same(await client.next(), { id: 1, type: 'pong' });
});

t.test('schema errors name the key and use up the id', async (t) => {
  const { client } = await connect(t);
  const cases: [string, Record<string, unknown>, string | RegExp][] = [
    ['ping', { foo: 'x' }, /^extra keys not allowed @ data\['foo'\]. Got 'x'. This command takes only id and type.$/],
    ['call_service', { service: 'turn_on' }, "required key not provided @ data['domain']. Got None"],
    ['call_service', { domain: 1, service: 'turn_on' }, "expected str for dictionary value @ data['domain']. Got 1"],
    ['call_service', { domain: 'light', service: 'turn_on', target: 'light.x' }, /expected dict for dictionary value @ data\['target'\]/],
    ['call_service', { domain: 'light', service: 'turn_on', return_response: 'yes' }, /expected bool .*return_response/],
    [
      'call_service',
      { domain: 'light', service: 'turn_on', colour: 'red' },
      /extra keys not allowed @ data\['colour'\]. Got 'red'. Allowed keys: domain, service, target, service_data, return_response/,
    ],
    ['unsubscribe_events', { subscription: 'one' }, "expected int for dictionary value @ data['subscription']. Got 'one'"],
    ['subscribe_events', { event_type: 5 }, "expected str for dictionary value @ data['event_type']. Got 5"],
    ['subscribe_entities', { entity_ids: ['Not An Id'] }, /Entity ID Not An Id is an invalid entity ID/],
    ['supported_features', { features: { coalesce_messages: 'yes' } }, /expected int/],
  ];
  let id = 1;
  for (const [type, fields, message] of cases) {
    client.send({ id, type, ...fields });
    t.match(await client.next(), failure(id, 'invalid_format', message), `${type} ${JSON.stringify(fields)}`);
    client.send({ id, type: 'ping' });
    t.match(await client.next(), { id, error: { code: 'id_reuse' } }, 'the failed command used up its id');
    id++;
  }
});

t.test('call_service errors carry Home Assistant codes', async (t) => {
  const th = await startTestHub(t);
  th.hub.core.services.register('test', {
    domain: 'test',
    service: 'fails',
    schema: { fields: {} },
    handler: () => {
      throw new Error('secret internals');
    },
  });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  const call = (fields: Record<string, unknown>) => client.command('call_service', fields);

  t.same((await call({ domain: 'light', service: 'explode' })).error, {
    code: 'not_found',
    message: 'Service light.explode not found.',
  });
  t.same((await call({ domain: 'nope', service: 'turn_on' })).error, { code: 'not_found', message: 'Service nope.turn_on not found.' });
  t.match(
    (await call({ domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' }, service_data: { brightness: 'x' } })).error,
    {
      code: 'invalid_format',
      message: /brightness/,
    },
  );
  t.match((await call({ domain: 'light', service: 'turn_on', target: { entity_id: 'light.kitchen' }, return_response: true })).error, {
    code: 'service_validation_error',
    message: "Validation error: An action which does not return responses can't be called with return_response=True",
  });
  t.match((await call({ domain: 'light', service: 'turn_on', target: { floor: 'x' } })).error, {
    code: 'invalid_format',
    message: /extra keys not allowed @ data\['target'\]\['floor'\]/,
  });
  t.same(
    (await call({ domain: 'test', service: 'fails' })).error,
    { code: 'unknown_error', message: 'Unknown error' },
    'no internals leak',
  );
  t.same(await client.command('ping'), { id: 7, type: 'pong' }, 'a failed command never closes the connection');
});

t.test('a referenced entity that does not exist is not an error', async (t) => {
  const { client } = await connect(t);
  const reply = await client.command('call_service', { domain: 'light', service: 'turn_on', target: { entity_id: 'light.missing' } });
  t.equal(reply.success, true);
});

t.test('binary frames get an error and the connection carries on', async (t) => {
  const { client } = await connect(t);
  client.ws.send(Buffer.from('{"id":1,"type":"ping"}'), { binary: true });
  t.match(await client.next(), failure(null, 'invalid_format', /binary frames are not supported/));
  t.same(await client.command('ping'), { id: 1, type: 'pong' });
});

t.test('an inbound frame over 4 MiB closes that socket; the others carry on', async (t) => {
  const th = await startTestHub(t);
  const big = await WsClient.authenticated(th.wsUrl, th.token);
  const other = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => other.close());
  const padding = 'x'.repeat(4 * 1024 * 1024);
  big.send({ id: 1, type: 'ping', padding });
  const closed = await big.waitClosed(5000);
  t.not(closed.code, 1000, 'not a normal close');
  t.notOk(
    big.messages.some((m) => m.type === 'pong'),
    'the big frame was never handled',
  );
  t.same(await other.command('ping'), { id: 1, type: 'pong' });
  // Just under the limit is fine.
  const under = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => under.close());
  under.send({ id: 1, type: 'ping', pad: 'x'.repeat(4 * 1024 * 1024 - 100) });
  t.match(await under.next(), failure(1, 'invalid_format', /extra keys not allowed @ data\['pad'\]/));
});

t.test('deeply nested input gets an error, never silence or a crash', async (t) => {
  const { client, wsUrl } = await connect(t);
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  client.send(`[${deep(100_000)}]`);
  t.match(await client.next(), failure(0, 'invalid_format', /expected a JSON object. Got a deeply nested list/));
  let nested: unknown = 1;
  for (let i = 0; i < 40; i++) nested = { a: nested };
  const reply = await client.command('call_service', { domain: 'light', service: 'turn_on', service_data: nested });
  t.match(reply.error, { code: 'invalid_format', message: "value nests deeper than 32 levels @ data['service_data']" });
  const fired = await client.command('fire_event', { event_type: 'x', event_data: nested });
  t.match(fired.error, { code: 'invalid_format', message: /nests deeper than 32 levels/ });
  t.same(await client.command('ping'), { id: 3, type: 'pong' });

  const unauthenticated = await WsClient.open(wsUrl);
  unauthenticated.send(`{"type":"auth","access_token":${deep(100_000)}}`);
  await unauthenticated.next();
  t.match(await unauthenticated.next(), { type: 'auth_invalid', message: /deeply nested list/ });
});
