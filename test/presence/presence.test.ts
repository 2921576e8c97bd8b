import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Core } from '../../src/core/core.js';
import { distance } from '../../src/domains/zone.js';
import { WsClient } from '../api/ws/client.js';
import { startTestHub } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

/** The message of notification `id` once it exists (3 s deadline). */
export function waitForNotification(core: Core, id: string, ms = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no notification ${id} within ${ms} ms`));
    }, ms);
    const off = core.notifications.subscribe(() => {
      const n = core.notifications.get(id);
      if (n === undefined) return;
      clearTimeout(timer);
      queueMicrotask(() => off());
      resolve(n.message);
    });
  });
}

const YAML = `
hub:
  name: Test Home
  latitude: 32.87336
  longitude: -117.22743
  time_zone: America/Los_Angeles
zone:
  - name: Work
    latitude: 32.8773367
    longitude: -117.2494053
    radius: 250
    icon: mdi:briefcase
  - name: School
    latitude: 32.8
    longitude: -117.1
    passive: true
person:
  - id: paulus1
    name: Paulus
    device_trackers: [device_tracker.paulus_phone, device_tracker.paulus_router]
automation:
  - alias: Arrive at work
    triggers:
      - trigger: zone
        entity_id: person.paulus
        zone: zone.work
        event: enter
    conditions:
      - condition: zone
        entity_id: device_tracker.paulus_phone
        zone: zone.work
    actions:
      - action: persistent_notification.create
        data:
          notification_id: arrived
          message: "{{ trigger.description }} / {{ trigger.zone.attributes.radius }} / {{ trigger.event }}"
`;

t.test('distance: Vincenty on WGS-84, as util/location.py vincenty', async (t) => {
  // Vincenty's own example (Survey Review, 1975): Flinders Peak to Buninyong, 54 972.271 m.
  const dms = (d: number, m: number, s: number) => Math.sign(d) * (Math.abs(d) + m / 60 + s / 3600);
  const d = distance(dms(-37, 57, 3.7203), dms(144, 25, 29.5244), dms(-37, 39, 10.1561), dms(143, 55, 35.3839));
  t.ok(Math.abs((d ?? 0) - 54972.271) < 0.01, `${d} m`);
  t.equal(distance(1, 2, 1, 2), 0);
});

t.test('zone.home from the hub, YAML zones, persons from device_tracker.see, the zone trigger and condition', async (t) => {
  const { hub } = await startTestHub(t, { yaml: YAML });
  const core = hub.core;
  const home = core.states.get('zone.home');
  t.equal(home?.state, '0');
  t.match(home?.attributes, {
    latitude: 32.87336,
    longitude: -117.22743,
    radius: 100,
    passive: false,
    persons: [],
    editable: true,
    icon: 'mdi:home',
    friendly_name: 'Test Home',
  });
  t.match(core.states.get('zone.work')?.attributes, {
    radius: 250,
    passive: false,
    editable: false,
    icon: 'mdi:briefcase',
    friendly_name: 'Work',
  });
  t.equal(core.states.get('zone.school')?.attributes.passive, true);
  t.equal(core.states.get('person.paulus')?.state, 'unknown');
  t.match(core.states.get('person.paulus')?.attributes, {
    editable: false,
    id: 'paulus1',
    device_trackers: ['device_tracker.paulus_phone', 'device_tracker.paulus_router'],
  });

  await core.services.call('device_tracker', 'see', { dev_id: 'paulus_phone', gps: [32.87336, -117.22743], gps_accuracy: 10, battery: 80 });
  t.equal(core.states.get('device_tracker.paulus_phone')?.state, 'home');
  t.match(core.states.get('device_tracker.paulus_phone')?.attributes, {
    source_type: 'gps',
    latitude: 32.87336,
    longitude: -117.22743,
    gps_accuracy: 10,
    battery: 80,
  });
  await waitForState(core, 'person.paulus', (s) => s.state === 'home');
  t.match(core.states.get('person.paulus')?.attributes, { source: 'device_tracker.paulus_phone', latitude: 32.87336, gps_accuracy: 10 });
  await waitForState(core, 'zone.home', (s) => s.state === '1');
  t.same(core.states.get('zone.home')?.attributes.persons, ['person.paulus']);

  await core.services.call('device_tracker', 'see', { dev_id: 'paulus_phone', gps: [32.8773367, -117.2494053], gps_accuracy: 5 });
  t.equal(core.states.get('device_tracker.paulus_phone')?.state, 'Work');
  await waitForState(core, 'person.paulus', (s) => s.state === 'Work');
  await waitForState(core, 'zone.work', (s) => s.state === '1');
  t.equal(core.states.get('zone.home')?.state, '0');
  const note = await waitForNotification(core, 'arrived');
  t.equal(note, 'person.paulus entering Work / 250 / enter', "the zone trigger fired with HA's variables");

  // A passive zone is never a tracker's zone; outside every other zone is not_home.
  await core.services.call('device_tracker', 'see', { dev_id: 'paulus_phone', gps: [32.8, -117.1] });
  t.equal(core.states.get('device_tracker.paulus_phone')?.state, 'not_home');
  // A router tracker at home wins over a GPS one (person's _update_state).
  await core.services.call('device_tracker', 'see', { dev_id: 'paulus_router', source_type: 'router' });
  t.equal(core.states.get('device_tracker.paulus_router')?.state, 'home');
  await waitForState(core, 'person.paulus', (s) => s.state === 'home' && s.attributes.source === 'device_tracker.paulus_router');
  await core.services.call('device_tracker', 'see', { dev_id: 'paulus_phone', location_name: 'Gym' });
  t.equal(core.states.get('device_tracker.paulus_phone')?.state, 'Gym');

  await t.rejects(core.services.call('device_tracker', 'see', { battery: 5 }), { message: /mac, dev_id/ });
});

t.test('trackers and persons come back after a restart with their last state', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-presence-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await startTestHub(t, { yaml: YAML, dataDir });
  await first.hub.core.services.call('device_tracker', 'see', { dev_id: 'paulus_phone', gps: [32.8773367, -117.2494053], battery: 50 });
  await waitForState(first.hub.core, 'person.paulus', (s) => s.state === 'Work');
  await first.hub.stop();

  const second = await startTestHub(t, { yaml: YAML, dataDir });
  const core = second.hub.core;
  t.match(core.states.get('device_tracker.paulus_phone'), { state: 'Work', attributes: { battery: 50, source_type: 'gps' } });
  await waitForState(core, 'person.paulus', (s) => s.state === 'Work');
  await waitForState(core, 'zone.work', (s) => s.state === '1');
});

t.test("person/list and zone/list answer as Home Assistant's collections (test/presence/store.test.ts changes them)", async (t) => {
  const { wsUrl, token } = await startTestHub(t, { yaml: YAML });
  const ws = await WsClient.authenticated(wsUrl, token);
  t.teardown(() => ws.ws.close());
  const persons = await ws.command('person/list');
  t.same(persons.result, {
    storage: [],
    config: [{ id: 'paulus1', name: 'Paulus', device_trackers: ['device_tracker.paulus_phone', 'device_tracker.paulus_router'] }],
  });
  t.same((await ws.command('zone/list')).result, []);
});
