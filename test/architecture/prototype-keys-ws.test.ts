import t, { type Test } from 'tap';
import { recordEvents } from '../api/rest/helpers.js';
import { WsClient, type WsMessage } from '../api/ws/client.js';
import { startTestHub, type TestHub } from '../helpers/hub.js';
import { assertNotPolluted, assertStatesValid, HOSTILE_KEYS, hostileJson } from './hostile-keys.js';

/** Names an object inherits, over the WebSocket API (hostile-keys.ts). */

async function ws(t: Test, hub: TestHub): Promise<WsClient> {
  const client = await WsClient.authenticated(hub.wsUrl, hub.token);
  t.teardown(() => client.close());
  return client;
}

function brief(m: WsMessage): string {
  const error = m.error as { code?: string; message?: string } | undefined;
  return m.success === true ? 'ok' : `${error?.code}: ${error?.message}`;
}

t.test('WebSocket: message types, service data, triggers, template variables, registries, helpers', async (t) => {
  const hub = await startTestHub(t);
  const client = await ws(t, hub);
  const send = async (text: string): Promise<{ id: number; outcome: string }> => {
    const id = client.takeId();
    client.send(text.replace('"ID"', String(id)));
    const reply = await client.waitFor((m) => m.id === id && m.type === 'result', 3000, text.slice(0, 80));
    return { id, outcome: brief(reply) };
  };
  const expect = async (text: string, outcome: RegExp | string, what: string) => t.match((await send(text)).outcome, outcome, what);
  for (const key of HOSTILE_KEYS) {
    await expect(`{"id": "ID", "type": "${key}"}`, 'unknown_command: Unknown command.', `type ${key}`);
    await expect(
      `{"id": "ID", "type": "call_service", "domain": "${key}", "service": "turn_on"}`,
      `not_found: Service ${key}.turn_on not found.`,
      'domain',
    );
    await expect(
      `{"id": "ID", "type": "call_service", "domain": "light", "service": "${key}"}`,
      `not_found: Service light.${key} not found.`,
      'service',
    );
    await expect(`{"id": "ID", "type": "subscribe_events", "event_type": "${key}"}`, 'ok', `subscribe_events ${key}`);
    await expect(`{"id": "ID", "type": "fire_event", "event_type": "${key}", "event_data": ${hostileJson()}}`, 'ok', `fire_event ${key}`);
    await expect(
      `{"id": "ID", "type": "recorder/statistics_during_period", "start_time": "2026-01-01T00:00:00Z", "statistic_ids": ["sensor.x"], "period": "${key}"}`,
      `invalid_format: expected one of '5minute', 'hour', 'day', 'week', 'month' for dictionary value @ data['period']. Got '${key}'`,
      'statistics period',
    );
    await expect(
      `{"id": "ID", "type": "config/entity_registry/get_entries", "entity_ids": ["${key}"]}`,
      `Entity ID ${key} is an invalid entity ID`,
      'registry',
    );
    for (const registry of ['area', 'label', 'floor']) {
      await expect(`{"id": "ID", "type": "config/${registry}_registry/create", "name": "${key}"}`, 'ok', `${registry} named ${key}`);
    }
    await expect(
      `{"id": "ID", "type": "subscribe_trigger", "trigger": {"platform": "${key}"}}`,
      `unknown trigger type "${key}"`,
      'trigger platform',
    );
    await expect(`{"id": "ID", "type": "validate_config", "${key}": []}`, `extra keys not allowed @ data['${key}']`, 'validate_config');
    await expect(`{"id": "ID", "type": "input_select/create", "name": "${key}", "options": ["${key}", "b"]}`, 'ok', 'input_select options');
    await expect(
      `{"id": "ID", "type": "input_boolean/create", "name": "x", "${key}": 1}`,
      `invalid_format: extra keys not allowed; allowed: name, icon, initial @ data['${key}']`,
      `input_boolean key ${key}`,
    );
    await expect(
      `{"id": "ID", "type": "subscribe_trigger", "trigger": {"platform": "state", "entity_id": "light.kitchen", "for": {"${key}": 1}}}`,
      `unknown unit; allowed: days, hours, minutes, seconds, milliseconds @ data['trigger']['for']['${key}']`,
      `duration unit ${key}`,
    );
  }
  const call = `{"id": "ID", "type": "call_service", "domain": "light", "service": "turn_on", "target": {"entity_id": "light.kitchen"}, "service_data": ${hostileJson()}}`;
  await expect(call, "invalid_format: extra keys not allowed @ data['__proto__']", 'service data');
  await expect(
    `{"id": "ID", "type": "call_service", "domain": "light", "service": "turn_on", "target": ${hostileJson({ entity_id: 'light.kitchen' })}}`,
    "invalid_format: extra keys not allowed @ data['target']['__proto__']",
    'target',
  );
  // A script's variables named like inherited properties are variables (the sandbox refuses to read them by name).
  const probe = recordEvents(t, hub.hub.core.bus, 'probe');
  await expect(
    `{"id": "ID", "type": "execute_script", "sequence": [{"variables": ${hostileJson({ x: 1 })}}, {"event": "probe", "event_data": {"x": "{{ x }}"}}], "variables": ${hostileJson()}}`,
    'ok',
    'execute_script',
  );
  t.same(
    probe.map((e) => e.data),
    [{ x: 1 }],
  );
  await expect(
    `{"id": "ID", "type": "render_template", "template": "{{ constructor }}"}`,
    /^template_error: SecurityError: access to 'constructor' is not allowed/,
    'a clear template error',
  );
  const rendered = await send(
    `{"id": "ID", "type": "render_template", "template": "{{ x }}|{{ x is defined }}", "variables": ${hostileJson({ x: 'y' })}}`,
  );
  const event = await client.waitFor((m) => m.type === 'event' && m.id === rendered.id, 3000, 'the rendered template');
  t.equal((event.event as { result?: string }).result, 'y|True');
  await expect('{"id": "ID", "type": "get_states"}', 'ok', 'get_states');
  await assertStatesValid(t, hub);
  assertNotPolluted(t);
});
