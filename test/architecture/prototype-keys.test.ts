import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { access, addExternalDefinition, Numeric, removeExternalDefinitions } from 'zigbee-herdsman-converters';
import { ConfigFileError } from '../../src/config/format.js';
import { loadConfig, parseConfigText } from '../../src/config/load.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { jsonPost, recordEvents } from '../api/rest/helpers.js';
import { WsClient, type WsMessage } from '../api/ws/client.js';
import { StubDevice, zclMessage, zigbeeTestbed } from '../drivers/zigbee/devices-helpers.js';
import { startTestHub, type TestHub } from '../helpers/hub.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { startMqttHub, waitState } from '../mqtt/hubs.js';

/**
 * Issue 32: every object used as a map keyed by a string from outside is a Map or has no prototype. Each path
 * below is fed the names an object inherits (`__proto__`, `constructor`, `toString`, `hasOwnProperty`): the user
 * sees a clear error or the literal string, GET /api/states stays valid JSON, nothing crashes, and
 * Object.prototype is never written to.
 */

const HOSTILE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'] as const;

/** An object with the hostile names as own keys, as JSON.parse makes them (a client's JSON: `__proto__` included). */
function hostileObject(value: (key: string) => unknown): Record<string, unknown> {
  return JSON.parse(`{${HOSTILE_KEYS.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(value(k))}`).join(', ')}}`) as Record<
    string,
    unknown
  >;
}

/** JSON text with the hostile names as keys besides `extra`, `__proto__` holding what would pollute a prototype. */
function hostileJson(extra: Record<string, unknown> = {}): string {
  const hostile = JSON.stringify(hostileObject((k) => (k === '__proto__' ? { polluted: 'yes' } : k.charAt(0).toLowerCase())));
  const own = JSON.stringify(extra);
  return own === '{}' ? hostile : `${own.slice(0, -1)}, ${hostile.slice(1)}`;
}

function assertNotPolluted(t: Test): void {
  t.equal((Object.prototype as Record<string, unknown>).polluted, undefined, 'Object.prototype was not written to');
  t.equal(({} as Record<string, unknown>).polluted, undefined);
}

/** GET /api/states answers valid JSON with every state a string. */
async function assertStatesValid(t: Test, hub: TestHub): Promise<Record<string, unknown>[]> {
  const res = await hub.api('/api/states');
  t.equal(res.status, 200);
  const text = await res.text();
  let states: Record<string, unknown>[] = [];
  try {
    states = JSON.parse(text) as Record<string, unknown>[];
  } catch {
    t.fail(`GET /api/states is not JSON: ${text.slice(0, 200)}`);
  }
  t.ok(
    states.every((s) => typeof s.state === 'string'),
    'every state is a string',
  );
  return states;
}

async function post(hub: TestHub, path: string, body: string): Promise<{ status: number; text: string }> {
  const res = await hub.api(path, jsonPost(body));
  return { status: res.status, text: await res.text() };
}

t.test('HTTP: REST paths, query strings and JSON bodies', async (t) => {
  const hub = await startTestHub(t);
  for (const key of HOSTILE_KEYS) {
    const domain = key.replace(/_/g, '').toLowerCase();
    // Service domains and names from the path: not services.
    t.equal((await post(hub, `/api/services/${key}/turn_on`, '{}')).status, 400, `service ${key}.turn_on`);
    t.equal((await post(hub, `/api/services/light/${key}`, '{}')).status, 400, `service light.${key}`);
    // Entity ids from the path: not entities; a state for a domain named so is a state like any other.
    t.equal((await hub.api(`/api/states/${key}`)).status, 404, `GET /api/states/${key}`);
    t.equal((await hub.api(`/api/states/sensor.${domain}`)).status, 404);
    t.equal((await post(hub, `/api/states/${domain}.x`, '{"state": "on"}')).status, 201, `POST /api/states/${domain}.x`);
    // An event type is any name.
    t.equal((await post(hub, `/api/events/${key}`, hostileJson())).status, 200, `POST /api/events/${key}`);
    // Query strings: unknown keys are ignored, bad ids refused.
    t.equal((await hub.api(`/api/history/period?filter_entity_id=light.kitchen&${key}=1`)).status, 200);
    t.equal((await hub.api(`/api/history/period?filter_entity_id=${key}`)).status, 400);
    t.equal((await hub.api(`/api/logbook?entity=${key}&${key}=x`)).status, 400);
    t.equal((await hub.api(`/api/camera_proxy/camera.${domain}?${key}=1&width=${key}`)).status, 404);
  }
  // States and attributes named like inherited properties are literal.
  t.equal((await post(hub, '/api/states/sensor.raw', `{"state": "__proto__", "attributes": ${hostileJson()}}`)).status, 201);
  t.equal(
    (
      await post(
        hub,
        '/api/states/sensor.ctor',
        '{"state": "constructor", "attributes": {"device_class": "constructor", "state_class": "measurement"}}',
      )
    ).status,
    201,
  );
  // Service data keys are unknown keys, named in the error, and never applied through a prototype.
  for (const key of HOSTILE_KEYS) {
    const one =
      key === '__proto__'
        ? '{"entity_id": "light.kitchen", "__proto__": {"brightness": 3}}'
        : `{"entity_id": "light.kitchen", "${key}": 3}`;
    for (const service of ['light/turn_on', 'homeassistant/turn_on']) {
      const r = await post(hub, `/api/services/${service}`, one);
      t.equal(r.status, 400, `${service} with ${key}`);
      t.match(r.text, `extra keys not allowed @ data['${key}']`);
    }
  }
  t.not(hub.hub.core.states.get('light.kitchen')?.attributes.brightness, 3);
  const colour = await post(hub, '/api/services/light/turn_on', '{"entity_id": "light.kitchen", "color_name": "constructor"}');
  t.equal(colour.status, 400);
  t.match(colour.text, 'value must be one of aliceblue, ');
  const scene = await post(hub, '/api/services/scene/apply', '{"entities": {"light.kitchen": {"state": "toString"}}}');
  t.equal(scene.status, 200, 'a scene state named toString is a state the light does not have: nothing to do');
  const template = await post(
    hub,
    '/api/template',
    "{\"template\": \"{{ state_attr('sensor.raw', 'constructor') }}|{{ state_attr('sensor.raw', 'hasOwnProperty') }}|{{ states('sensor.ctor') }}\"}",
  );
  t.same([template.status, template.text], [200, 'c|h|constructor']);
  const missing = await post(hub, '/api/template', '{"template": "{{ state_attr(\'light.kitchen\', \'constructor\') }}"}');
  t.same([missing.status, missing.text], [200, 'None'], 'an attribute the state does not hold is None');

  const states = await assertStatesValid(t, hub);
  const raw = states.find((s) => s.entity_id === 'sensor.raw');
  t.equal(raw?.state, '__proto__', 'a state named __proto__ is the literal string');
  t.same(Object.keys((raw?.attributes ?? {}) as object).sort(), ['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
  assertNotPolluted(t);
});

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

t.test('MQTT: discovery payload keys, state payloads, attributes, topics and commands', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['hearth/#']);
  const hub = await startMqttHub(
    t,
    broker,
    'Test Home',
    'virtual:\n  - {platform: light, id: kitchen, name: Kitchen, color_modes: [brightness]}\n  - {platform: cover, id: blinds, name: Blinds, travel_time: 1}\n',
  );
  const core = hub.hub.core;
  const discover = (component: string, id: string, config: string) =>
    w.publish(`homeassistant/${component}/${id}/config`, config, { retain: true, qos: 1 });
  // Discovery configs whose keys are the inherited names, and components named so.
  await discover(
    'cover',
    'x_cover',
    hostileJson({ name: 'X Cover', state_topic: 'x/cover', command_topic: 'x/cover/set', unique_id: 'x_cover' }),
  );
  await discover('lock', 'x_lock', hostileJson({ name: 'X Lock', stat_t: 'x/lock', cmd_t: 'x/lock/set', uniq_id: 'x_lock' }));
  await discover(
    'sensor',
    'x_sensor',
    hostileJson({ name: 'X Sensor', state_topic: 'x/sensor', json_attributes_topic: 'x/sensor/attributes', unique_id: 'x_sensor' }),
  );
  for (const key of HOSTILE_KEYS) await discover(key, 'x', '{"name": "odd", "state_topic": "x/odd"}');
  await discover(
    'sensor',
    'x_topics',
    JSON.stringify({ name: 'X Topics', state_topic: 'constructor', unique_id: 'x_topics', '~': '__proto__' }),
  );
  await waitState(core, 'cover.x_cover', () => true);
  await waitState(core, 'lock.x_lock', () => true);
  await waitState(core, 'sensor.x_sensor', () => true);
  await waitState(core, 'sensor.x_topics', () => true);

  // State payloads named like inherited properties are states the device did not define: ignored, as Home
  // Assistant's cover and lock ignore a payload they do not know (the state stays what it was, a string).
  const seen: unknown[] = [];
  core.bus.on('test', 'state_changed', (e) => {
    const id = e.data.entity_id;
    if (id === 'cover.x_cover' || id === 'lock.x_lock') seen.push(e.data.new_state?.state);
  });
  for (const [topic, entityId, known, other, shown] of [
    ['x/cover', 'cover.x_cover', 'open', 'closed', 'closed'],
    ['x/lock', 'lock.x_lock', 'LOCKED', 'UNLOCKED', 'unlocked'],
  ] as const) {
    for (const key of HOSTILE_KEYS) {
      await w.publish(topic, known, { qos: 1 });
      await waitState(core, entityId, (s) => s.state !== 'unknown' && s.state !== shown);
      await w.publish(topic, key, { qos: 1 });
      await w.publish(topic, other, { qos: 1 });
      await waitState(core, entityId, (st) => st.state === shown);
    }
  }
  t.same(
    seen.filter((s) => !['open', 'closed', 'locked', 'unlocked', 'unknown', 'unavailable'].includes(s as string)),
    [],
    'no payload named like an inherited property became a state',
  );
  await w.publish('constructor', 'toString', { qos: 1 });
  await waitState(core, 'sensor.x_topics', (s) => s.state === 'toString');
  await w.publish('x/sensor', '__proto__', { qos: 1 });
  const literal = await waitState(core, 'sensor.x_sensor', (s) => s.state === '__proto__');
  t.equal(literal.state, '__proto__', 'a sensor shows the payload as it is');
  await w.publish('x/sensor/attributes', hostileJson({ plain: 1 }), { qos: 1 });
  const attributed = await waitState(core, 'sensor.x_sensor', (s) => s.attributes.plain === 1);
  t.same(
    Object.keys(attributed.attributes)
      .filter((k) => (HOSTILE_KEYS as readonly string[]).includes(k))
      .sort(),
    ['__proto__', 'constructor', 'hasOwnProperty', 'toString'],
    'json attributes keep the keys as keys',
  );

  // Commands to the hub's own entities.
  await w.publish(
    'hearth/test_home/light.kitchen/set',
    '{"state": "ON", "__proto__": {"brightness": 3}, "constructor": 1, "toString": 2}',
    { qos: 1 },
  );
  const lit = await waitState(core, 'light.kitchen', (s) => s.state === 'on');
  t.not(lit.attributes.brightness, 3, 'a brightness under __proto__ is not a brightness');
  for (const key of HOSTILE_KEYS) await w.publish('hearth/test_home/cover.blinds/set', key, { qos: 1 });
  await w.publish('hearth/test_home/cover.blinds/set', 'CLOSE', { qos: 1 });
  await waitState(core, 'cover.blinds', (s) => s.state === 'closing' || s.state === 'closed');
  t.ok(
    hub.logs.some((l) => l.level === 'warn' && /MQTT command refused/.test(l.msg)),
    'a command payload named like an inherited property is refused with a warning',
  );
  await assertStatesValid(t, hub);
  assertNotPolluted(t);
});

/** The problems a configuration text is refused with, one line each ("<line>: <message>"). */
function refusal(text: string, path: string | null = null): string[] {
  try {
    parseConfigText(text, path, SECTION_VALIDATORS);
  } catch (err) {
    if (err instanceof ConfigFileError) return err.issues.map((i) => `${i.line}: ${i.message}`);
    throw err;
  }
  return [];
}

const YAML_HEADER = 'hub:\n  name: Home\n  time_zone: Europe/Amsterdam\n';

t.test('YAML: section names, !secret names, keys and names in sections', async (t) => {
  for (const key of HOSTILE_KEYS) {
    t.match(refusal(`${YAML_HEADER}${key}:\n  a: 1\n`), [/^4: unknown section; allowed: /], `a section named ${key}`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'hearth-proto-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'secrets.yaml'), 'real: value\n');
  for (const key of HOSTILE_KEYS) {
    const file = join(dir, 'configuration.yaml');
    await writeFile(file, `${YAML_HEADER}mqtt:\n  broker: mqtt://127.0.0.1\n  password: !secret ${key}\n`);
    await t.rejects(loadConfig(file, SECTION_VALIDATORS), {
      message: new RegExp(`!secret ${key} is not defined in .*secrets\\.yaml; defined: real`),
    });
    t.match(refusal(`${YAML_HEADER}mqtt:\n  broker: mqtt://127.0.0.1\n  password: !env_var ${key}\n`), [
      `6: !env_var ${key}: the environment variable is not set, and no default follows its name`,
    ]);
  }

  const hub = await startTestHub(t, {
    yaml: `${YAML_HEADER}
virtual:
  - {platform: switch, id: constructor, name: constructor}
  - {platform: switch, name: __proto__}
  - {platform: switch, id: tostring, name: toString}
  - {platform: climate, id: hall, name: Hall, hvac_modes: ["off", heat], presets: [none, constructor, toString]}
input_boolean:
  constructor: {name: constructor}
  tostring: {name: toString}
  hasownproperty: {name: hasOwnProperty}
input_select:
  odd: {name: odd, options: [__proto__, constructor, toString, hasOwnProperty]}
areas:
  - {name: constructor}
  - {name: __proto__}
customize:
  switch.constructor: {name: __proto__}
script:
  constructor:
    fields:
      __proto__: {description: x}
      toString: {description: y}
    variables:
      __proto__: {polluted: yes}
      hasOwnProperty: 1
    sequence:
      - event: probe_script
        event_data:
          __proto__: {polluted: yes}
          constructor: c
automation:
  - id: constructor
    alias: toString
    triggers:
      - trigger: event
        event_type: __proto__
        event_data: {__proto__: {}}
    conditions:
      - condition: state
        entity_id: switch.constructor
        attribute: constructor
        state: "x"
    actions:
      - event: never
template:
  - sensor:
      - name: Odd Attributes
        state: "1"
        attributes:
          __proto__: "{{ 1 }}"
          constructor: "c"
          parsed: >-
            {{ "{'__pro" ~ "to__': {'polluted': 1}, 'b': 2}" }}
`,
  });
  const states = await assertStatesValid(t, hub);
  const byId = new Map(states.map((s) => [s.entity_id as string, s]));
  t.equal((byId.get('switch.constructor')?.attributes as { friendly_name?: unknown })?.friendly_name, '__proto__', 'a name is a name');
  t.ok(byId.has('switch.proto'), 'a switch named __proto__');
  t.equal(byId.get('input_select.odd')?.state, '__proto__', 'options named like inherited properties are options');
  const odd = (byId.get('sensor.odd_attributes')?.attributes ?? {}) as Record<string, unknown>;
  t.same(
    Object.keys(odd).filter((k) => k !== 'friendly_name'),
    ['__proto__', 'constructor', 'parsed'],
  );
  t.same(Object.keys((odd.parsed ?? {}) as object), ['__proto__', 'b'], 'a rendered dict keeps __proto__ as a key');
  // The climate accepts a preset named constructor as a preset (no temperature comes with it).
  const preset = await hub.api(
    '/api/services/climate/set_preset_mode',
    jsonPost({ entity_id: 'climate.hall', preset_mode: 'constructor' }),
  );
  t.equal(preset.status, 200);
  t.equal(hub.hub.core.states.get('climate.hall')?.attributes.preset_mode, 'constructor');
  t.equal(typeof hub.hub.core.states.get('climate.hall')?.attributes.temperature, 'number');
  // The script's variables and event data keep their keys; the automation does not fire for every event.
  const events: unknown[] = [];
  hub.hub.core.bus.on('test', 'probe_script', (e) => {
    events.push(e.data);
  });
  const automationRuns: unknown[] = [];
  hub.hub.core.bus.on('test', 'automation_triggered', (e) => {
    automationRuns.push(e.data);
  });
  const run = await hub.api('/api/services/script/constructor', jsonPost('{"__proto__": {"x": 1}, "toString": "v"}'));
  t.equal(run.status, 200, await run.text());
  t.same(
    events.map((e) => Object.keys(e as object).sort()),
    [['__proto__', 'constructor']],
  );
  await post(hub, '/api/events/__proto__', '{"a": 1}');
  t.same(automationRuns, [], 'event_data {__proto__: {}} matches no event without that key');
  await assertStatesValid(t, hub);
  assertNotPolluted(t);
});

t.test('Zigbee: device model ids, converter keys and exposes named like inherited properties', async (t) => {
  for (const key of HOSTILE_KEYS) {
    addExternalDefinition({
      zigbeeModel: [key],
      model: key,
      vendor: key,
      description: 'exposes named like inherited properties',
      externalConverterName: `hearth-proto-${key}.mjs`,
      fromZigbee: [
        {
          cluster: 'genBasic',
          type: ['attributeReport'],
          convert: () => hostileObject((k) => (k === '__proto__' ? { polluted: 'yes' } : 7)) as Record<string, number>,
        },
      ],
      toZigbee: [],
      exposes: HOSTILE_KEYS.filter((k) => k !== '__proto__').map((k) => new Numeric(k, access.STATE).withUnit('W')),
    });
    t.teardown(() => removeExternalDefinitions(`hearth-proto-${key}.mjs`));
  }
  const bed = zigbeeTestbed();
  let n = 0;
  for (const key of HOSTILE_KEYS) {
    const device = new StubDevice({ ieee: `0x00000000000d1a0${n++}`, modelID: key, manufacturerName: key });
    const entities = await bed.add(device, `Meter ${n}`);
    entities.handleMessage(zclMessage(device, 'genBasic', 'attributeReport', { appVersion: 1 }));
    await entities.settled();
    const ids = entities.entities.map((e) => e.id).sort();
    if (key.toLowerCase() in Object.prototype) {
      // The converters' own index is a plain object: they fail to look such a model up (their error, logged), and
      // the device is shown as one they do not support.
      t.same(ids, [`sensor.meter_${n}_linkquality`], `model ${key}: unsupported, its link quality shown`);
      continue;
    }
    t.same(
      ids,
      [`sensor.meter_${n}_constructor`, `sensor.meter_${n}_hasownproperty`, `sensor.meter_${n}_linkquality`, `sensor.meter_${n}_tostring`],
      `model ${key}`,
    );
    for (const k of ['constructor', 'tostring', 'hasownproperty']) t.equal(bed.core.states.get(`sensor.meter_${n}_${k}`)?.state, '7');
  }
  const unknown = new StubDevice({ ieee: '0x00000000000d1aff', modelID: 'hasOwnProperty.unknown', manufacturerName: '__proto__' });
  const plain = await bed.add(unknown, 'Unknown');
  t.same(
    plain.entities.map((e) => e.id),
    ['sensor.unknown_linkquality'],
    'a model the converters do not know: its link quality',
  );
  t.doesNotThrow(() => JSON.parse(bed.core.states.statesJson()), 'the states are JSON');
  assertNotPolluted(t);
});

t.test('the dashboard: a domain or device class named like an inherited property is a name, not a table entry', async (t) => {
  // The browser modules are plain ES modules; test/web/browser.test.ts renders such cards in Chromium.
  const assets = (name: string) => import(new URL(`../../src/web/assets/${name}`, import.meta.url).href);
  const { domainTitle } = (await assets('grouping.js')) as { domainTitle(domain: string): string };
  const { stateText } = (await assets('format.js')) as {
    stateText(st: { entity_id: string; state: string; attributes: Record<string, unknown> }): string;
  };
  t.same(['constructor', 'tostring', 'hasownproperty'].map(domainTitle), ['Constructor', 'Tostring', 'Hasownproperty']);
  for (const key of HOSTILE_KEYS) {
    t.equal(stateText({ entity_id: 'binary_sensor.x', state: 'on', attributes: { device_class: key } }), 'On', `device class ${key}`);
  }
});
