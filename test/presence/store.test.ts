import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WsClient, type WsMessage } from '../api/ws/client.js';
import { startTestHub, type Teardown } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

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
person:
  - id: paulus1
    name: Paulus
    user_id: user-paulus
    device_trackers: [device_tracker.paulus_phone]
`;

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-presence-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(t: Teardown, dir: string) {
  const th = await startTestHub(t, { yaml: YAML, dataDir: dir });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { th, client };
}

const error = (m: WsMessage) => (m as { error?: { code: string; message: string } }).error;

t.test('zones made in the app: create, list, update, delete, kept in .storage/zone across a restart', async (t) => {
  const dir = await dataDir(t);
  const first = await open(t, dir);
  const { client, th } = first;
  const created = await client.command('zone/create', { name: 'Gym', latitude: 32.9, longitude: -117.2, icon: 'mdi:dumbbell' });
  t.same(created.result, { id: 'gym', name: 'Gym', latitude: 32.9, longitude: -117.2, radius: 100, passive: false, icon: 'mdi:dumbbell' });
  t.match(th.hub.core.states.get('zone.gym'), {
    state: '0',
    attributes: { latitude: 32.9, longitude: -117.2, radius: 100, passive: false, editable: true, friendly_name: 'Gym' },
  });
  t.equal(th.hub.core.states.get('zone.work')?.attributes.editable, false, 'the YAML zone is not editable');
  t.same(
    ((await client.command('zone/list')).result as { id: string }[]).map((z) => z.id),
    ['gym'],
    'zone/list: the stored zones only, as in Home Assistant',
  );

  const updated = await client.command('zone/update', { zone_id: 'gym', name: 'Big Gym', radius: 50 });
  t.match(updated.result, { id: 'gym', name: 'Big Gym', radius: 50, latitude: 32.9 });
  t.match(th.hub.core.states.get('zone.gym')?.attributes, { friendly_name: 'Big Gym', radius: 50 }, 'same entity, new settings');

  await th.hub.core.services.call('zone', 'reload', {});
  t.ok(th.hub.core.states.get('zone.gym'), 'zone.reload re-reads the YAML and leaves the stored zones');
  t.ok(th.hub.core.states.get('zone.work'));

  t.same(error(await client.command('zone/create', { name: 'Nowhere', latitude: 1 })), {
    code: 'invalid_format',
    message: "is required: expected a number from -180 to 180 @ data['longitude']",
  });
  t.match(error(await client.command('zone/create', { name: 'X', latitude: 1, longitude: 2, colour: 'red' })), {
    code: 'invalid_format',
    message: /colour/,
  });
  t.same(error(await client.command('zone/update', { zone_id: 'nope', name: 'N' })), {
    code: 'not_found',
    message: 'Unable to find zone_id nope',
  });

  client.close();
  await th.hub.stop();
  const saved = JSON.parse(await readFile(join(dir, '.storage', 'zone'), 'utf8'));
  t.same(saved, {
    version: 1,
    minor_version: 1,
    key: 'zone',
    data: { items: [{ id: 'gym', name: 'Big Gym', latitude: 32.9, longitude: -117.2, radius: 50, passive: false, icon: 'mdi:dumbbell' }] },
  });

  const second = await open(t, dir);
  t.match(second.th.hub.core.states.get('zone.gym')?.attributes, { friendly_name: 'Big Gym', radius: 50, editable: true });
  t.match(await second.client.command('zone/delete', { zone_id: 'gym' }), { success: true, result: null });
  t.equal(second.th.hub.core.states.get('zone.gym'), undefined, 'deleted: its entity is gone');
  t.same((await second.client.command('zone/list')).result, []);
});

t.test('persons made in the app follow their trackers; a user is one person; YAML persons stay read-only', async (t) => {
  const dir = await dataDir(t);
  const { client, th } = await open(t, dir);
  const created = await client.command('person/create', { name: 'Anne Therese', device_trackers: ['device_tracker.anne_phone'] });
  t.same(created.result, {
    id: 'anne_therese',
    name: 'Anne Therese',
    user_id: null,
    device_trackers: ['device_tracker.anne_phone'],
    picture: null,
  });
  t.match(th.hub.core.states.get('person.anne_therese')?.attributes, { editable: true, id: 'anne_therese' });
  await th.hub.core.services.call('device_tracker', 'see', { dev_id: 'anne_phone', location_name: 'home' });
  await waitForState(th.hub.core, 'person.anne_therese', (s) => s.state === 'home');

  const list = (await client.command('person/list')).result as { storage: { id: string }[]; config: { id: string }[] };
  t.same(
    list.storage.map((p) => p.id),
    ['anne_therese'],
  );
  t.same(
    list.config.map((p) => p.id),
    ['paulus1'],
  );

  t.same(error(await client.command('person/update', { person_id: 'anne_therese', user_id: 'no-such-user' })), {
    code: 'invalid_format',
    message: 'User does not exist',
  });
  const owner = th.hub.auth.ownerUser()?.id ?? '';
  t.match(await client.command('person/update', { person_id: 'anne_therese', user_id: owner }), { success: true });
  t.same(error(await client.command('person/create', { name: 'Twin', user_id: owner })), {
    code: 'invalid_format',
    message: 'User already taken',
  });
  t.match(error(await client.command('person/update', { person_id: 'paulus1', name: 'P' })), {
    code: 'not_found',
    message: /Unable to find person_id paulus1: it is configured in YAML/,
  });
  const renamed = await client.command('person/update', { person_id: 'anne_therese', device_trackers: [] });
  t.match(renamed.result, { id: 'anne_therese', device_trackers: [] });
  t.same(th.hub.core.states.get('person.anne_therese')?.attributes.device_trackers, []);

  await th.hub.core.services.call('person', 'reload', {});
  t.ok(th.hub.core.states.get('person.anne_therese'), 'person.reload keeps the stored persons');
  t.ok(th.hub.core.states.get('person.paulus'));

  t.match(await client.command('person/delete', { person_id: 'anne_therese' }), { success: true });
  t.equal(th.hub.core.states.get('person.anne_therese'), undefined);
  await th.hub.stop();
  const saved = JSON.parse(await readFile(join(dir, '.storage', 'person'), 'utf8'));
  t.same(saved, { version: 1, minor_version: 2, key: 'person', data: { items: [] } });
});

t.test('a stored person and the tracker it follows come back after a restart', async (t) => {
  const dir = await dataDir(t);
  const first = await open(t, dir);
  await first.client.command('person/create', { name: 'Anne', device_trackers: ['device_tracker.anne_phone'] });
  await first.th.hub.core.services.call('device_tracker', 'see', { dev_id: 'anne_phone', location_name: 'home' });
  await waitForState(first.th.hub.core, 'person.anne', (s) => s.state === 'home');
  first.client.close();
  await first.th.hub.stop();
  const second = await open(t, dir);
  t.equal(second.th.hub.core.states.get('device_tracker.anne_phone')?.state, 'home', 'the tracker, restored');
  t.match(second.th.hub.core.states.get('person.anne'), {
    state: 'home',
    attributes: { editable: true, source: 'device_tracker.anne_phone' },
  });
});
