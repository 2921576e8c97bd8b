import t from 'tap';
import { HA_VERSION, HUB_VERSION } from '../../../src/version.js';
import { startTestHub } from '../../helpers/hub.js';
import { recordingLogger, startWsOnly, WsClient } from './client.js';

t.test('auth_required carries both versions; a valid token gets auth_ok with ha_version', async (t) => {
  const { wsUrl, token } = await startTestHub(t);
  const client = await WsClient.open(wsUrl);
  t.teardown(() => client.close());
  const required = await client.next();
  t.same(required, { type: 'auth_required', hub_version: HUB_VERSION, ha_version: HA_VERSION });
  client.send({ type: 'auth', access_token: token });
  t.same(await client.next(), { type: 'auth_ok', ha_version: HA_VERSION });
  const pong = await client.command('ping');
  t.same(pong, { id: 1, type: 'pong' });
});

t.test('an auth message sent right on open, before auth_required was read, works', async (t) => {
  const { wsUrl, token } = await startTestHub(t);
  const client = await WsClient.open(wsUrl);
  t.teardown(() => client.close());
  // Sent in the same tick as `open`, as the official client does; then a command straight after it.
  client.send({ type: 'auth', access_token: token });
  client.send({ id: 1, type: 'ping' });
  t.equal((await client.next()).type, 'auth_required');
  t.equal((await client.next()).type, 'auth_ok');
  t.same(await client.next(), { id: 1, type: 'pong' });
});

t.test('a wrong token gets auth_invalid and the socket closes', async (t) => {
  const { wsUrl } = await startTestHub(t);
  const client = await WsClient.open(wsUrl);
  client.send({ type: 'auth', access_token: 'abc.def' });
  t.equal((await client.next()).type, 'auth_required');
  t.same(await client.next(), { type: 'auth_invalid', message: 'Invalid access token or password' });
  const closed = await client.waitClosed();
  t.equal(closed.code, 1000);
});

t.test('malformed auth messages get auth_invalid naming the problem, then the socket closes', async (t) => {
  const { wsUrl } = await startTestHub(t);
  const cases: [string, unknown, RegExp][] = [
    ['not JSON', '{"type":"auth",', /not valid JSON/],
    ['not an object', '[1,2]', /expected a JSON object/],
    ['missing token', { type: 'auth' }, /required key not provided @ data\['access_token'\]/],
    ['token not a string', { type: 'auth', access_token: 5 }, /expected str for dictionary value @ data\['access_token'\]/],
    ['extra key', { type: 'auth', access_token: 'x', foo: 1 }, /extra keys not allowed @ data\['foo'\]/],
    ['a command instead', { id: 1, type: 'get_states' }, /extra keys not allowed @ data\['id'\]/],
    ['wrong type', { type: 'login', access_token: 'x' }, /expected 'auth' for dictionary value @ data\['type'\]/],
  ];
  for (const [name, message, pattern] of cases) {
    const client = await WsClient.open(wsUrl);
    client.send(message);
    await client.next();
    const reply = await client.next();
    t.equal(reply.type, 'auth_invalid', name);
    t.match(reply.message, /^Auth message incorrectly formatted: /, name);
    t.match(reply.message, pattern, name);
    await client.waitClosed();
  }
  const binary = await WsClient.open(wsUrl);
  binary.ws.send(Buffer.from([1, 2, 3]));
  await binary.next();
  t.match((await binary.next()).message, /binary/);
  await binary.waitClosed();
});

t.test('commands sent before auth_ok are never executed', async (t) => {
  const { hub, wsUrl } = await startTestHub(t);
  t.equal(hub.core.states.get('switch.coffee_maker')?.state, 'off');
  const turnOn = { id: 1, type: 'call_service', domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.coffee_maker' } };

  // A command as the first message is a malformed auth message.
  const first = await WsClient.open(wsUrl);
  first.send(turnOn);
  first.send({ type: 'auth', access_token: 'whatever' });
  await first.next();
  t.equal((await first.next()).type, 'auth_invalid');
  await first.waitClosed();

  // Commands right behind a failed auth are dropped with the socket.
  const second = await WsClient.open(wsUrl);
  second.send({ type: 'auth', access_token: 'bad.token' });
  second.send(turnOn);
  second.send([turnOn]);
  await second.next();
  t.equal((await second.next()).type, 'auth_invalid');
  await second.waitClosed();
  t.equal(second.messages.length, 2, 'nothing but auth_required and auth_invalid');
  t.equal(hub.core.states.get('switch.coffee_maker')?.state, 'off', 'the service was never called');
});

t.test('no auth message within the auth timeout closes the socket', async (t) => {
  const log = recordingLogger();
  const { wsUrl } = await startWsOnly(t, { authTimeoutMs: 200 }, log);
  const client = await WsClient.open(wsUrl);
  t.equal((await client.next()).type, 'auth_required');
  const closed = await client.waitClosed(3000);
  t.equal(closed.code, 1008);
  t.equal(client.messages.length, 1, 'no auth_invalid is sent');
  t.ok(log.lines.some((l) => /Did not receive auth message within 0.2 seconds/.test(l.msg)));
});

t.test('revoking a token closes the WebSockets authenticated with it, and only those', async (t) => {
  const { hub, wsUrl, token } = await startTestHub(t);
  const owner = hub.auth.ownerUser();
  if (owner === undefined) throw new Error('no owner');
  const other = await hub.auth.createToken(owner.id, 'second');
  const a = await WsClient.authenticated(wsUrl, token);
  const b = await WsClient.authenticated(wsUrl, other);
  t.teardown(() => b.close());
  const tokenId = token.slice(0, token.indexOf('.'));
  t.ok(await hub.auth.revokeToken(tokenId));
  const closed = await a.waitClosed();
  t.equal(closed.code, 1008);
  t.equal(closed.reason, 'Access token revoked');
  t.same(await b.command('ping'), { id: 1, type: 'pong' }, 'the other token still works');
  // And the revoked token no longer authenticates.
  const again = await WsClient.open(wsUrl);
  again.send({ type: 'auth', access_token: token });
  await again.next();
  t.equal((await again.next()).type, 'auth_invalid');
});
