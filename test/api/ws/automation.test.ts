import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection, createLongLivedTokenAuth } from 'home-assistant-js-websocket';
import t from 'tap';
import WebSocket from 'ws';
import { ManualClock } from '../../../src/core/clock.js';
import { writeGuestAuth } from '../../helpers/guest.js';
import { startTestHub, type Teardown, type TestHubOptions } from '../../helpers/hub.js';
import { WsClient, type WsMessage, withDeadline } from './client.js';

// Node 20 has no global WebSocket; the official client uses whatever is there.
(globalThis as { WebSocket?: unknown }).WebSocket = WebSocket;

async function hub(t: Teardown, options: TestHubOptions = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-wsauto-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { ...options, dataDir });
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  return { th, ws, guestToken };
}

function errorOf(reply: WsMessage): unknown {
  return reply.success === false ? reply.error : `succeeded: ${JSON.stringify(reply.result)}`;
}

type TriggerEvent = { variables: { trigger: Record<string, unknown> }; context: Record<string, unknown> | null };

function eventsOf(ws: WsClient, id: number): TriggerEvent[] {
  return ws.messages.filter((m) => m.type === 'event' && m.id === id).map((m) => m.event as TriggerEvent);
}

/** The n-th event (from 1) of subscription `id`, waiting for it with the client's deadline. */
async function triggerEvent(ws: WsClient, id: unknown, n: number): Promise<TriggerEvent> {
  const found = await ws.waitForCount((m) => m.type === 'event' && m.id === id, n);
  return found[n - 1]?.event as TriggerEvent;
}

function listeners(th: { hub: { core: { bus: { listenerCounts(): { event: string; listener_count: number }[] } } } }, event: string) {
  return th.hub.core.bus.listenerCounts().find((c) => c.event === event)?.listener_count ?? 0;
}

const turn = (ws: WsClient, service: 'turn_on' | 'turn_off') =>
  ws.command('call_service', { domain: 'switch', service, target: { entity_id: 'switch.coffee_maker' } });

t.test('subscribe_trigger: a state trigger fires twice with the state and the cause, then stops when unsubscribed', async (t) => {
  const { th, ws } = await hub(t);
  const before = listeners(th, 'state_changed');
  const sub = await ws.command('subscribe_trigger', {
    trigger: [
      { trigger: 'state', entity_id: 'switch.coffee_maker', to: 'on' },
      { trigger: 'state', entity_id: 'switch.coffee_maker', to: 'off' },
    ],
  });
  t.same([sub.success, sub.result], [true, null]);

  const on = await turn(ws, 'turn_on');
  const fired = await triggerEvent(ws, sub.id, 1);
  t.match(fired.variables.trigger, {
    platform: 'state',
    id: '0',
    idx: '0',
    entity_id: 'switch.coffee_maker',
    from_state: { entity_id: 'switch.coffee_maker', state: 'off' },
    to_state: { entity_id: 'switch.coffee_maker', state: 'on', attributes: { friendly_name: 'Coffee Maker' } },
    description: 'state of switch.coffee_maker',
  });
  const onContext = (on.result as { context: Record<string, unknown> }).context;
  t.same(fired.context, onContext, "the event carries the context of the change that fired it (the caller's)");

  await turn(ws, 'turn_off');
  const second = await triggerEvent(ws, sub.id, 2);
  t.match(second.variables.trigger, { id: '1', idx: '1', to_state: { state: 'off' } });

  t.same((await ws.command('unsubscribe_events', { subscription: sub.id })).success, true);
  t.equal(listeners(th, 'state_changed'), before, 'the listener is gone');
  // The service's reply follows the state change, so an event would have come before it.
  await turn(ws, 'turn_on');
  t.equal(eventsOf(ws, sub.id as number).length, 2, 'no event after unsubscribing');
});

t.test('subscribe_trigger: the older platform: key, one mapping, with variables its template reads', async (t) => {
  const { ws } = await hub(t);
  const sub = await ws.command('subscribe_trigger', {
    trigger: { platform: 'template', value_template: "{{ is_state('switch.coffee_maker', wanted) }}" },
    variables: { wanted: 'on' },
  });
  t.equal(sub.success, true);
  await turn(ws, 'turn_on');
  t.match((await triggerEvent(ws, sub.id, 1)).variables.trigger, {
    platform: 'template',
    entity_id: 'switch.coffee_maker',
    to_state: { state: 'on' },
  });
});

t.test('subscribe_trigger: a time trigger on the hub clock fires with no context', async (t) => {
  // 07:00 in Amsterdam on 15 January is 06:00 UTC; the clock stands 50 ms before it.
  const clock = new ManualClock(Date.parse('2026-01-15T06:00:00Z') * 1000 - 50_000);
  const { ws } = await hub(t, { clock });
  const sub = await ws.command('subscribe_trigger', { trigger: { trigger: 'time', at: '07:00' } });
  t.equal(sub.success, true);
  clock.advance(50_000);
  t.same(await triggerEvent(ws, sub.id, 1), {
    variables: { trigger: { platform: 'time', id: '0', idx: '0', description: 'time' } },
    context: null,
  });
});

t.test('subscribe_trigger: closing the connection detaches its triggers', async (t) => {
  const { th, ws } = await hub(t);
  const other = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => other.close());
  const sub = await other.command('subscribe_trigger', { trigger: { trigger: 'event', event_type: 'doorbell' } });
  t.equal(sub.success, true);
  t.equal(listeners(th, 'doorbell'), 1);
  await ws.command('fire_event', { event_type: 'doorbell', event_data: { button: 1 } });
  t.match((await triggerEvent(other, sub.id, 1)).variables.trigger, {
    platform: 'event',
    event: { event_type: 'doorbell', data: { button: 1 } },
  });
  other.close();
  await other.waitClosed();
  // The server sees the close a moment later: bounded by 100 round trips on the other connection.
  for (let i = 0; i < 100 && listeners(th, 'doorbell') > 0; i++) await ws.command('ping');
  t.equal(listeners(th, 'doorbell'), 0);
});

t.test('subscribe_trigger and execute_script are for admins; invalid triggers name the key', async (t) => {
  const { th, ws, guestToken } = await hub(t);
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  const trigger = { trigger: 'state', entity_id: 'switch.coffee_maker' };
  t.same(errorOf(await guest.command('subscribe_trigger', { trigger })), { code: 'unauthorized', message: 'Unauthorized' });
  t.same(errorOf(await guest.command('execute_script', { sequence: [{ event: 'x' }] })), { code: 'unauthorized', message: 'Unauthorized' });
  t.same((await guest.command('validate_config', { triggers: trigger })).result, { triggers: { valid: true, error: null } });

  t.match(errorOf(await ws.command('subscribe_trigger', { trigger: { trigger: 'state' } })), {
    code: 'invalid_format',
    message: /@ data\['trigger'\]\['entity_id'\]/,
  });
  t.match(errorOf(await ws.command('subscribe_trigger', { trigger: [trigger, { trigger: 'nope' }] })), {
    code: 'invalid_format',
    message: /unknown trigger type "nope".* @ data\['trigger'\]\[1\]\['trigger'\]/,
  });
  t.match(errorOf(await ws.command('subscribe_trigger', {})), {
    code: 'invalid_format',
    message: "required key not provided @ data['trigger']. Got None",
  });
});

t.test('execute_script runs the actions with a context of the user and answers with the response', async (t) => {
  const { th, ws } = await hub(t);
  const user = (await ws.command('auth/current_user')).result as { id: string };
  const reply = await ws.command('execute_script', {
    sequence: [
      { action: 'switch.turn_on', target: { entity_id: 'switch.coffee_maker' } },
      { variables: { answer: { greeting: '{{ greeting }}, {{ states("switch.coffee_maker") }}', user: '{{ context.user_id }}' } } },
      { stop: 'done', response_variable: 'answer' },
      { action: 'switch.turn_off', target: { entity_id: 'switch.coffee_maker' } },
    ],
    variables: { greeting: 'hello' },
  });
  t.equal(reply.success, true, JSON.stringify(reply.error));
  const result = reply.result as { context: { id: string; parent_id: null; user_id: string }; response: unknown };
  t.same(result.response, { greeting: 'hello, on', user: user.id });
  t.match(result.context, { parent_id: null, user_id: user.id });
  const state = th.hub.core.states.get('switch.coffee_maker');
  t.equal(state?.state, 'on', 'the actions after stop did not run');
  t.equal(state?.context.id, result.context.id, 'the service call ran in the context answered');

  const single = await ws.command('execute_script', { sequence: { event: 'ping_pong' } });
  t.same((single.result as { response: unknown }).response, null, 'one action, no stop: response null');
});

t.test('execute_script errors: Home Assistant codes and the message, never a stack', async (t) => {
  const { ws } = await hub(t);
  const missing = errorOf(
    await ws.command('execute_script', { sequence: [{ action: 'switch.explode', target: { entity_id: 'switch.coffee_maker' } }] }),
  );
  t.match(missing, { code: 'home_assistant_error', message: /switch\.explode/ });
  const badData = errorOf(
    await ws.command('execute_script', {
      sequence: [{ action: 'light.turn_on', data: { entity_id: 'light.kitchen', flash: 'sometimes' } }],
    }),
  );
  t.match(badData, { code: 'invalid_format', message: /flash/ });
  const template = errorOf(await ws.command('execute_script', { sequence: [{ event: 'x', event_data: { v: '{{ nothing.here }}' } }] }));
  t.match(template, { code: 'home_assistant_error', message: /^Error rendering event_data template: / });
  const invalid = errorOf(await ws.command('execute_script', { sequence: [{ delay: 'soon' }] }));
  t.match(invalid, { code: 'invalid_format', message: /@ data\['sequence'\]\[0\]\['delay'\]/ });
  const stopped = errorOf(await ws.command('execute_script', { sequence: [{ stop: 'Not today', error: true }] }));
  t.same(stopped, { code: 'home_assistant_error', message: 'Not today' });
  for (const e of [missing, badData, template, invalid, stopped]) t.notMatch(JSON.stringify(e), /\n\s+at /, 'no stack trace');
  t.equal((await ws.command('ping')).type, 'pong', 'the connection carries on');
});

t.test('execute_script: a run still going when the hub stops is stopped, and its caller told so', async (t) => {
  const { th, ws } = await hub(t);
  const started = await ws.command('subscribe_events', { event_type: 'started' });
  const id = ws.takeId();
  ws.send({ id, type: 'execute_script', sequence: [{ event: 'started' }, { delay: '00:10:00' }, { event: 'never' }] });
  await ws.waitFor((m) => m.type === 'event' && m.id === started.id);
  const stopping = th.hub.stop();
  const reply = await ws.waitFor((m) => m.id === id);
  await stopping;
  t.same(errorOf(reply), { code: 'home_assistant_error', message: 'The script was stopped' });
});

t.test('validate_config: one entry per part given, through the automation parsers, changing nothing', async (t) => {
  const { th, ws } = await hub(t);
  const states = [...th.hub.core.states.states()].length;
  const plural = await ws.command('validate_config', {
    triggers: [{ trigger: 'state', entity_id: 'switch.coffee_maker', to: 'on' }],
    conditions: [{ condition: 'state', entity_id: 'light.kitchen', state: 'on' }, "{{ is_state('sun.sun', 'above_horizon') }}"],
    actions: [{ action: 'light.turn_on', target: { entity_id: 'light.kitchen' } }, { delay: 5 }],
  });
  t.same(plural.result, {
    triggers: { valid: true, error: null },
    conditions: { valid: true, error: null },
    actions: { valid: true, error: null },
  });
  const singular = await ws.command('validate_config', {
    trigger: { platform: 'numeric_state', entity_id: 'sensor.x' },
    condition: { condition: 'sometimes' },
    action: [{ delay: 1 }, { action: 'light.turn_on', target: { entity_id: 'not an id' } }],
  });
  const result = singular.result as Record<string, { valid: boolean; error: string }>;
  t.same(Object.keys(result).sort(), ['action', 'condition', 'trigger']);
  t.match(result.trigger, { valid: false, error: /at least one of above, below @ data\['trigger'\]/ });
  t.match(result.condition, { valid: false, error: /"sometimes".* @ data\['condition'\]\['condition'\]/ });
  t.match(result.action, { valid: false, error: /@ data\['action'\]\[1\]\['target'\]\['entity_id'\]/ });
  t.same((await ws.command('validate_config', {})).result, {}, 'nothing given, nothing answered');
  t.equal([...th.hub.core.states.states()].length, states, 'no entity was added');
});

t.test('the official client: subscribeMessage on subscribe_trigger, and execute_script', async (t) => {
  const { th } = await hub(t);
  const conn = await withDeadline(createConnection({ auth: createLongLivedTokenAuth(th.url, th.token) }), 5000, 'createConnection');
  t.teardown(() => conn.close());
  let resolveFired: (event: TriggerEvent) => void = () => {};
  const fired = new Promise<TriggerEvent>((resolve) => {
    resolveFired = resolve;
  });
  const unsubscribe = await conn.subscribeMessage<TriggerEvent>((event) => resolveFired(event), {
    type: 'subscribe_trigger',
    trigger: { trigger: 'state', entity_id: 'light.kitchen', to: 'on' },
  });
  const ran = await conn.sendMessagePromise<{ context: { id: string }; response: unknown }>({
    type: 'execute_script',
    sequence: [{ action: 'light.turn_on', target: { entity_id: 'light.kitchen' } }],
  });
  t.same(ran.response, null);
  const event = await withDeadline(fired, 3000, 'the trigger event');
  t.match(event.variables.trigger, { entity_id: 'light.kitchen', to_state: { state: 'on' } });
  t.equal(event.context?.id, ran.context.id, 'fired by the script the client ran');
  await unsubscribe();
  const failed = await conn.sendMessagePromise({ type: 'execute_script', sequence: [{ action: 'nope.nothing' }] }).then(
    () => undefined,
    (err: unknown) => err,
  );
  t.match(failed, { code: 'home_assistant_error' });
});
