import t from 'tap';
import { startTestHub } from '../helpers/hub.js';
import { assertNotPolluted, assertStatesValid, HOSTILE_KEYS, hostileJson, post } from './hostile-keys.js';

/** Names an object inherits, over HTTP (REST paths, query strings, JSON bodies) and in the dashboard (hostile-keys.ts). */

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
