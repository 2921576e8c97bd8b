// mobile_app as the Companion apps drive it: registration, the webhook with and without encryption (libsodium's
// secretbox, here through tweetnacl as a phone's libsodium would), the phone's sensors and tracker, and a
// notification over the local push channel. Cases after home-assistant/core tests/components/mobile_app.
import { createRequire } from 'node:module';
import t from 'tap';
import { startTestHub, type TestHub } from '../../helpers/hub.js';
import { WsClient } from '../ws/client.js';

const nacl = createRequire(import.meta.url)('tweetnacl') as {
  secretbox: ((m: Uint8Array, n: Uint8Array, k: Uint8Array) => Uint8Array) & {
    open(b: Uint8Array, n: Uint8Array, k: Uint8Array): Uint8Array | null;
  };
  randomBytes(n: number): Uint8Array;
};

const REGISTRATION = {
  app_id: 'io.homeassistant.companion.android',
  app_name: 'Home Assistant',
  app_version: '2024.11.1',
  device_name: 'Pixel 8',
  manufacturer: 'Google',
  model: 'Pixel 8',
  os_name: 'Android',
  os_version: '14',
  device_id: 'abc123',
  app_data: { push_websocket_channel: true },
};

async function register(
  hub: TestHub,
  extra: Record<string, unknown> = {},
): Promise<{ webhook_id: string; secret: string | null; cloudhook_url: null; remote_ui_url: null }> {
  const res = await hub.api('/api/mobile_app/registrations', { method: 'POST', body: JSON.stringify({ ...REGISTRATION, ...extra }) });
  if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { webhook_id: string; secret: string | null; cloudhook_url: null; remote_ui_url: null };
}

function webhook(hub: TestHub, id: string, body: unknown): Promise<Response> {
  return fetch(`${hub.url}/api/webhook/${id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function seal(data: unknown, key: Uint8Array): string {
  const nonce = nacl.randomBytes(24);
  const box = nacl.secretbox(Buffer.from(JSON.stringify(data)), nonce, key);
  return Buffer.concat([nonce, box]).toString('base64');
}

function unseal(text: string, key: Uint8Array): unknown {
  const bytes = Buffer.from(text, 'base64');
  const opened = nacl.secretbox.open(bytes.subarray(24), bytes.subarray(0, 24), key);
  if (opened === null) throw new Error('does not open');
  return JSON.parse(Buffer.from(opened).toString('utf8'));
}

t.test('a phone registers, registers sensors, updates them and its location, reads its config', async (t) => {
  const hub = await startTestHub(t);
  const reg = await register(hub);
  t.match(reg, { cloudhook_url: null, remote_ui_url: null, secret: null });
  t.match(reg.webhook_id, /^[0-9a-f]{64}$/);

  const sensor = await webhook(hub, reg.webhook_id, {
    type: 'register_sensor',
    data: {
      type: 'sensor',
      unique_id: 'battery_level',
      name: 'Battery Level',
      state: 87,
      unit_of_measurement: '%',
      device_class: 'battery',
      state_class: 'measurement',
      entity_category: 'diagnostic',
      icon: 'mdi:battery',
    },
  });
  t.equal(sensor.status, 201);
  t.same(await sensor.json(), { success: true });
  await webhook(hub, reg.webhook_id, {
    type: 'register_sensor',
    data: { type: 'binary_sensor', unique_id: 'charging', name: 'Is Charging', state: false },
  });
  const battery = hub.hub.core.states.get('sensor.pixel_8_battery_level');
  t.match(battery, {
    state: '87',
    attributes: { unit_of_measurement: '%', device_class: 'battery', friendly_name: 'Pixel 8 Battery Level' },
  });
  t.equal(hub.hub.core.states.get('binary_sensor.pixel_8_is_charging')?.state, 'off');

  const update = await webhook(hub, reg.webhook_id, {
    type: 'update_sensor_states',
    data: [
      { type: 'sensor', unique_id: 'battery_level', state: 86, attributes: { charger_type: 'none' } },
      { type: 'binary_sensor', unique_id: 'charging', state: true },
      { type: 'sensor', unique_id: 'never_registered', state: 1 },
    ],
  });
  t.same(await update.json(), {
    battery_level: { success: true },
    charging: { success: true },
    never_registered: { success: false, error: { code: 'not_registered', message: 'sensor never_registered is not registered' } },
  });
  t.match(hub.hub.core.states.get('sensor.pixel_8_battery_level'), { state: '86', attributes: { charger_type: 'none' } });
  t.equal(hub.hub.core.states.get('binary_sensor.pixel_8_is_charging')?.state, 'on');

  // At the hub's location (MINIMAL_CONFIG: 52.37, 4.89): home; 10 km away: not_home.
  await webhook(hub, reg.webhook_id, { type: 'update_location', data: { gps: [52.3701, 4.8901], gps_accuracy: 10, battery: 86 } });
  t.match(hub.hub.core.states.get('device_tracker.pixel_8'), {
    state: 'home',
    attributes: { source_type: 'gps', latitude: 52.3701, gps_accuracy: 10, battery_level: 86 },
  });
  await webhook(hub, reg.webhook_id, { type: 'update_location', data: { gps: [52.46, 4.89], gps_accuracy: 10 } });
  t.equal(hub.hub.core.states.get('device_tracker.pixel_8')?.state, 'not_home');

  const config = (await (await webhook(hub, reg.webhook_id, { type: 'get_config' })).json()) as Record<string, unknown>;
  t.match(config, {
    latitude: 52.37,
    longitude: 4.89,
    time_zone: 'Europe/Amsterdam',
    location_name: 'Test Home',
    entities: { battery_level: { disabled: false }, charging: { disabled: false } },
  });
  t.type(config.hass_device_id, 'string');
  const device = hub.hub.core.devices.get(config.hass_device_id as string);
  t.match(device, { name: 'Pixel 8', manufacturer: 'Google', model: 'Pixel 8', sw_version: '14' }, 'the phone is a device');

  const rendered = await (
    await webhook(hub, reg.webhook_id, {
      type: 'render_template',
      data: { one: { template: '{{ 1 + 1 }}' }, bad: { template: '{{ x | nope }}' } },
    })
  ).json();
  t.match(rendered, { one: '2', bad: { error: String } });
  const proto = await webhook(hub, reg.webhook_id, { type: 'render_template', data: JSON.parse('{"__proto__": {"template": "{{ 3 }}"}}') });
  t.equal(await proto.text(), '{"__proto__":"3"}', 'a template named __proto__ is answered like any other');

  const call = await webhook(hub, reg.webhook_id, {
    type: 'call_service',
    data: { domain: 'light', service: 'turn_on', service_data: { entity_id: 'light.kitchen' } },
  });
  t.equal(call.status, 200);
  t.equal(hub.hub.core.states.get('light.kitchen')?.state, 'on', 'call_service acts');
  const events: string[] = [];
  hub.hub.core.bus.on('test', 'mobile_app_test', (e) => events.push(JSON.stringify(e.data)));
  await webhook(hub, reg.webhook_id, { type: 'fire_event', data: { event_type: 'mobile_app_test', event_data: { a: 1 } } });
  t.same(events, ['{"a":1}']);
  const forged = await webhook(hub, reg.webhook_id, { type: 'fire_event', data: { event_type: 'state_changed', event_data: {} } });
  t.equal(forged.status, 400, "a phone cannot fire the hub's own events");

  const updated = await (
    await webhook(hub, reg.webhook_id, {
      type: 'update_registration',
      data: { app_version: '2024.12.0', device_name: 'Pixel 8', manufacturer: 'Google', model: 'Pixel 8', os_version: '15' },
    })
  ).json();
  t.match(updated, { app_version: '2024.12.0', os_version: '15', supports_encryption: false });
  t.notOk('webhook_id' in (updated as object) || 'secret' in (updated as object), 'no secrets in the answer');
});

t.test('encryption: a registration with a secret; payloads and answers sealed with it; enable_encryption later', async (t) => {
  const hub = await startTestHub(t);
  const reg = await register(hub, { supports_encryption: true });
  t.match(reg.secret, /^[0-9a-f]{64}$/);
  const key = Uint8Array.from(Buffer.from(reg.secret ?? '', 'hex'));
  const res = await webhook(hub, reg.webhook_id, {
    type: 'render_template',
    encrypted: true,
    encrypted_data: seal({ t: { template: '{{ 6 * 7 }}' } }, key),
  });
  const answer = (await res.json()) as { encrypted: boolean; encrypted_data: string };
  t.equal(answer.encrypted, true, 'the answer is sealed');
  t.same(unseal(answer.encrypted_data, key), { t: '42' }, 'with the key the phone used');

  const wrongKey = nacl.randomBytes(32);
  const ignored = await webhook(hub, reg.webhook_id, {
    type: 'register_sensor',
    encrypted: true,
    encrypted_data: seal({ type: 'sensor', unique_id: 'x', name: 'X', state: 1 }, wrongKey),
  });
  t.equal(ignored.status, 200, 'a payload that does not open is ignored, as HA does');
  t.notOk(hub.hub.core.states.get('sensor.pixel_8_x'));

  // An app from before encryption: registers without, asks for it later.
  const plain = await register(hub, { device_id: 'old-phone', device_name: 'Old Phone' });
  const enabled = (await (await webhook(hub, plain.webhook_id, { type: 'enable_encryption' })).json()) as { secret: string };
  t.match(enabled.secret, /^[0-9a-f]{64}$/);
  const again = await webhook(hub, plain.webhook_id, { type: 'enable_encryption' });
  t.same(await again.json(), { success: false, error: { code: 'encryption_already_enabled', message: 'Encryption already enabled' } });

  // Legacy apps use the secret's first 32 characters as the key.
  const legacy = await register(hub, { device_id: 'legacy-phone', device_name: 'Legacy Phone', supports_encryption: true });
  const legacyKey = Uint8Array.from(Buffer.from((legacy.secret ?? '').slice(0, 32), 'utf8'));
  const legacyRes = (await (
    await webhook(hub, legacy.webhook_id, {
      type: 'render_template',
      encrypted: true,
      encrypted_data: seal({ t: { template: 'ok' } }, legacyKey),
    })
  ).json()) as { encrypted_data: string };
  t.same(unseal(legacyRes.encrypted_data, legacyKey), { t: 'ok' }, 'the legacy key works both ways');
});

t.test('notifications reach the phone over the local push channel', async (t) => {
  const hub = await startTestHub(t);
  const reg = await register(hub);
  const ws = await WsClient.authenticated(hub.wsUrl, hub.token);
  t.teardown(() => ws.close());
  t.match(await ws.command('mobile_app/push_notification_channel', { webhook_id: 'nope' }), {
    success: false,
    error: { code: 'not_found' },
  });
  const sub = await ws.command('mobile_app/push_notification_channel', { webhook_id: reg.webhook_id, support_confirm: true });
  t.match(sub, { success: true });
  const call = await ws.command('call_service', {
    domain: 'notify',
    service: 'mobile_app_pixel_8',
    service_data: { message: 'Door open', title: 'Home', data: { tag: 'door' } },
  });
  t.match(call, { success: true });
  const event = await ws.waitFor((m) => m.type === 'event' && m.id === sub.id);
  t.match(event.event, { message: 'Door open', title: 'Home', data: { tag: 'door' }, hass_confirm_id: String });
  const confirmId = (event.event as { hass_confirm_id: string }).hass_confirm_id;
  t.match(await ws.command('mobile_app/push_notification_confirm', { webhook_id: reg.webhook_id, confirm_id: confirmId }), {
    success: true,
  });
  ws.send({ id: ws.takeId(), type: 'unsubscribe_events', subscription: sub.id });
  const offline = await ws.command('call_service', { domain: 'notify', service: 'mobile_app_pixel_8', service_data: { message: 'x' } });
  t.match(
    offline,
    { success: false, error: { message: /not connected to local push/ } },
    'a phone without a channel is an error, not silence',
  );
});

t.test('a phone and its sensors survive a restart', async (t) => {
  const first = await startTestHub(t);
  const reg = await register(first);
  await webhook(first, reg.webhook_id, {
    type: 'register_sensor',
    data: { type: 'sensor', unique_id: 'steps', name: 'Steps', state: 1200 },
  });
  await first.hub.stop();
  const second = await startTestHub(t, { dataDir: first.dataDir });
  t.equal(second.hub.core.states.get('sensor.pixel_8_steps')?.state, '1200');
  const res = await webhook(second, reg.webhook_id, {
    type: 'update_sensor_states',
    data: [{ type: 'sensor', unique_id: 'steps', state: 1300 }],
  });
  t.same(await res.json(), { steps: { success: true } });
});

t.test('bad input: HA status codes, nothing grows, no 5xx', async (t) => {
  const hub = await startTestHub(t);
  const missing = await hub.api('/api/mobile_app/registrations', { method: 'POST', body: JSON.stringify({ app_id: 'x' }) });
  t.equal(missing.status, 400);
  t.same(await missing.json(), { message: "Message format incorrect: required key not provided @ data['app_name']" });
  const noAuth = await fetch(`${hub.url}/api/mobile_app/registrations`, { method: 'POST', body: JSON.stringify(REGISTRATION) });
  t.equal(noAuth.status, 401);
  const unknown = await webhook(hub, 'f'.repeat(64), { type: 'get_config' });
  t.equal(unknown.status, 200, 'an unknown webhook tells nothing');
  t.equal(await unknown.text(), '');
  const reg = await register(hub);
  for (const body of [
    'not json',
    [],
    { type: 5 },
    { type: 'register_sensor', data: 'x' },
    { type: 'update_sensor_states', data: { a: 1 } },
    { type: 'update_location', data: { gps: 'here' } },
    { type: 'call_service', data: { domain: 'nope', service: 'nope' } },
    { type: 'render_template', data: { toString: { template: '{{ 1 }}' } } },
  ]) {
    const res = await fetch(`${hub.url}/api/webhook/${reg.webhook_id}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    t.ok(res.status < 500, `${JSON.stringify(body)} → ${res.status}`);
    await res.arrayBuffer();
  }
  const unknownType = await webhook(hub, reg.webhook_id, { type: 'launch_rockets' });
  t.equal(unknownType.status, 400);
  const states = await hub.api('/api/states');
  t.doesNotThrow(() => JSON.parse(JSON.stringify(states.json())), '/api/states stays valid JSON');
  t.equal(states.status, 200);
});
