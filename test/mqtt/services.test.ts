import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { ConfigIssue } from '../../src/config/reader.js';
import { parseMqttSection } from '../../src/mqtt/config.js';
import { fallbackRenderer } from '../../src/mqtt/template.js';
import { WsClient } from '../api/ws/client.js';
import { writeGuestAuth } from '../helpers/guest.js';
import { startTestHub } from '../helpers/hub.js';
import { startBroker } from '../helpers/mosquitto.js';
import { watch } from '../helpers/mqtt-watch.js';
import { mqttYaml, startMqttHub, waitState } from './hubs.js';

const AUTOMATIONS = `
virtual:
  - {platform: switch, id: hall_light, name: Hall Light}
  - {platform: switch, id: porch, name: Porch}
automation:
  - alias: Button press
    triggers:
      - trigger: mqtt
        topic: home/+/button
        payload: press
        value_template: "{{ value_json.action }}"
    actions:
      - action: switch.turn_on
        target: {entity_id: switch.hall_light}
  - alias: Anything on porch
    triggers:
      - {trigger: mqtt, topic: "porch/#"}
    actions:
      - action: switch.toggle
        target: {entity_id: switch.porch}
`;

t.test('the mqtt trigger: wildcards, a payload after a value template', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['none']);
  const hub = await startMqttHub(t, broker, 'Home', AUTOMATIONS);
  const core = hub.hub.core;
  await hub.hub.mqtt?.settled();
  await w.publish('home/hall/button', JSON.stringify({ action: 'hold' }));
  await w.publish('porch/motion/one', 'x');
  await waitState(core, 'switch.porch', (s) => s.state === 'on');
  t.equal(core.states.get('switch.hall_light')?.state, 'off', 'another payload does not trigger');
  await w.publish('home/hall/button', JSON.stringify({ action: 'press' }));
  await waitState(core, 'switch.hall_light', (s) => s.state === 'on');
  t.pass('home/+/button with {{ value_json.action }} == press');
});

t.test('mqtt.publish: topic, payload, qos and retain; refusals name the field', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['out/#']);
  const hub = await startMqttHub(t, broker, 'Home', '');
  await hub.hub.mqtt?.settled();
  const res = await hub.api('/api/services/mqtt/publish', {
    method: 'POST',
    body: JSON.stringify({ topic: 'out/one', payload: 'hello', qos: 1, retain: true }),
  });
  t.equal(res.status, 200);
  t.equal(await w.waitFor('out/one'), 'hello');
  const retained = await watch(t, broker, ['out/one']);
  t.equal(await retained.waitFor('out/one'), 'hello', 'retained');
  const bad = await hub.api('/api/services/mqtt/publish', { method: 'POST', body: JSON.stringify({ topic: 'out/#', payload: 'x' }) });
  t.equal(bad.status, 400);
  t.match(((await bad.json()) as { message: string }).message, /topic "out\/#" is not allowed/);
  const badQos = await hub.api('/api/services/mqtt/publish', { method: 'POST', body: JSON.stringify({ topic: 'out/x', qos: 3 }) });
  t.equal(badQos.status, 400);
  t.match(await badQos.text(), /qos/);
  const template = await hub.api('/api/services/mqtt/publish', {
    method: 'POST',
    body: JSON.stringify({ topic: 'out/x', payload: "{{ states('sensor.x') }} {{ 2 * 21 }}" }),
  });
  t.equal(template.status, 200);
  t.equal(await w.waitFor('out/x'), 'unknown 42', 'the payload is rendered through the template engine');
  const broken = await hub.api('/api/services/mqtt/publish', {
    method: 'POST',
    body: JSON.stringify({ topic: 'out/x', payload: '{{ states( }}' }),
  });
  t.equal(broken.status, 400);
  t.match(await broken.text(), /TemplateSyntaxError/, 'a template that does not parse is refused, naming the error');
});

t.test('WebSocket mqtt/subscribe: admins get each message as an event', async (t) => {
  const broker = await startBroker(t);
  const w = await watch(t, broker, ['none']);
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-mqtt-ws-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { yaml: mqttYaml(broker, 'Home', ''), dataDir });
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  const sub = await ws.command('mqtt/subscribe', { topic: 'sensors/#' });
  t.equal(sub.success, true);
  await th.hub.mqtt?.settled();
  await w.publish('sensors/kitchen/temperature', '21.5');
  const event = await ws.waitFor((m) => m.type === 'event' && m.id === sub.id, 3000, 'the mqtt event');
  t.match(event.event, { topic: 'sensors/kitchen/temperature', payload: '21.5', qos: 0, retain: false });
  const off = await ws.command('unsubscribe_events', { subscription: sub.id });
  t.equal(off.success, true, 'unsubscribe_events ends it');
  const invalid = await ws.command('mqtt/subscribe', { topic: 'a/#/b' });
  t.match(invalid.error, { code: 'invalid_format' }, 'an invalid filter is refused');

  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  const denied = await guest.command('mqtt/subscribe', { topic: '#' });
  t.match(denied.error, { code: 'unauthorized' }, 'a non-admin may not');
});

t.test('without an mqtt: section, mqtt/subscribe is an unknown command and mqtt.publish does not exist', async (t) => {
  const th = await startTestHub(t);
  const ws = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => ws.close());
  const reply = await ws.command('mqtt/subscribe', { topic: '#' });
  t.match(reply.error, { code: 'unknown_command' });
  const res = await th.api('/api/services/mqtt/publish', { method: 'POST', body: '{"topic":"x"}' });
  t.equal(res.status, 400);
});

t.test('the mqtt: section: every problem with its path', async (t) => {
  const issues: ConfigIssue[] = [];
  parseMqttSection({ broker: 'http://x', protocol: '4', keepalive: 1, client_cert: 'c.pem', bogus: 1 }, ['mqtt'], issues);
  t.same(
    issues.map((i) => i.path.join('.')),
    ['mqtt.broker', 'mqtt.protocol', 'mqtt.keepalive', 'mqtt.client_key', 'mqtt.bogus'],
  );
  const ok: ConfigIssue[] = [];
  const config = parseMqttSection({ broker: 'mqtts://broker.lan:8883', include: { areas: ['garage'] } }, ['mqtt'], ok, 'My Home');
  t.same(ok, []);
  t.equal(config.baseTopic, 'hearth/my_home', 'the base topic from the hub name');
  t.equal(config.nodeId, 'my_home');
  t.equal(config.discoveryPrefix, 'homeassistant');
  t.same(config.include.areas, ['garage']);
});

t.test('the built-in template renderer', async (t) => {
  const v = { value: '{"a":{"b":[1,{"c":"x"}]},"on":true}', value_json: { a: { b: [1, { c: 'x' }] }, on: true } };
  t.equal(fallbackRenderer('{{ value }}', v), v.value);
  t.equal(fallbackRenderer('{{value_json.a.b[1].c}}', v), 'x');
  t.equal(fallbackRenderer("{{ value_json['a']['b'][0] }}", v), '1');
  t.equal(fallbackRenderer('{{ value_json.on }}', v), 'True', 'booleans as Home Assistant prints them');
  t.equal(fallbackRenderer('{{ value_json.missing }}', v), '');
  t.equal(fallbackRenderer('plain', v), 'plain');
  t.throws(() => fallbackRenderer('{{ value | int }}', v), /not supported here/);
  t.equal(fallbackRenderer('{{ value_json.constructor }}', v), '', "only a payload's own keys are read");
});
