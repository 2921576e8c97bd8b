import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { WsClient, type WsMessage } from '../api/ws/client.js';
import { writeGuestAuth } from './guest.js';
import { MINIMAL_CONFIG, startTestHub, type Teardown } from './hub.js';
import { waitForState } from './wait.js';

const YAML = `${MINIMAL_CONFIG}
input_boolean:
  from_yaml: {name: From YAML}
`;

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-helpers-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function open(t: Teardown, dir: string, yaml = YAML) {
  const th = await startTestHub(t, { yaml, dataDir: dir });
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  return { th, client };
}

function error(reply: WsMessage): unknown {
  t.equal(reply.success, false, 'refused');
  return reply.error;
}

t.test('create, list, update and delete over the WebSocket, as Home Assistant answers', async (t) => {
  const { th, client } = await open(t, await dataDir(t));
  const created = await client.command('input_boolean/create', { name: 'Guest Mode', icon: 'mdi:account', initial: true });
  t.same(created.result, { id: 'guest_mode', name: 'Guest Mode', icon: 'mdi:account', initial: true });
  const state = th.hub.core.states.get('input_boolean.guest_mode');
  t.equal(state?.state, 'on');
  t.same(state?.attributes, { icon: 'mdi:account', friendly_name: 'Guest Mode', editable: true });

  const again = await client.command('input_boolean/create', { name: 'Guest mode' });
  t.equal((again.result as { id: string }).id, 'guest_mode_2', 'a taken id gets a suffix');
  const yamlClash = await client.command('input_boolean/create', { name: 'From YAML' });
  t.equal((yamlClash.result as { id: string }).id, 'from_yaml_2', 'YAML ids are taken too');

  const list = await client.command('input_boolean/list');
  t.same(
    (list.result as { id: string }[]).map((i) => i.id),
    ['guest_mode', 'guest_mode_2', 'from_yaml_2'],
    'the stored items only, as Home Assistant lists them',
  );

  const updated = await client.command('input_boolean/update', { input_boolean_id: 'guest_mode', name: 'Visitors', icon: 'mdi:human' });
  t.same(updated.result, { id: 'guest_mode', name: 'Visitors', icon: 'mdi:human', initial: true });
  t.same(th.hub.core.states.get('input_boolean.guest_mode')?.attributes, { icon: 'mdi:human', friendly_name: 'Visitors', editable: true });
  t.equal(th.hub.core.states.get('input_boolean.guest_mode')?.state, 'on', 'an update keeps the state');

  const entry = await client.command('config/entity_registry/get', { entity_id: 'input_boolean.guest_mode_2' });
  t.match(entry.result, { platform: 'input_boolean', unique_id: 'guest_mode_2' }, "the registry entry has Home Assistant's platform");
  const deleted = await client.command('input_boolean/delete', { input_boolean_id: 'guest_mode_2' });
  t.equal(deleted.success, true);
  t.equal(deleted.result, null);
  t.equal(th.hub.core.states.get('input_boolean.guest_mode_2'), undefined, 'its entity is gone');
  const gone = await client.command('config/entity_registry/get', { entity_id: 'input_boolean.guest_mode_2' });
  t.equal(gone.success, false, 'and its registry entry');

  const number = await client.command('input_number/create', { name: 'Target', min: 10, max: 30, step: 0.5 });
  t.same(number.result, { id: 'target', name: 'Target', min: 10, max: 30, step: 0.5, mode: 'slider' });
  t.equal(th.hub.core.states.get('input_number.target')?.state, '10.0');
  const timer = await client.command('timer/create', { name: 'Laundry', duration: { minutes: 90 } });
  t.same(timer.result, { id: 'laundry', name: 'Laundry', duration: '1:30:00', restore: false });
  const select = await client.command('input_select/create', { name: 'Scene', options: ['Day', 'Night'] });
  t.equal(th.hub.core.states.get('input_select.scene')?.state, 'Day');
  t.equal(select.success, true);
  const upd = await client.command('input_select/update', { input_select_id: 'scene', options: ['Night', 'Movie'] });
  t.same((upd.result as { options: string[] }).options, ['Night', 'Movie']);
  t.equal(th.hub.core.states.get('input_select.scene')?.state, 'Night', 'the option changes only when no longer offered');
});

t.test("Home Assistant's error codes for a bad field, a bad id, a YAML item and a non-admin", async (t) => {
  const { client } = await open(t, await dataDir(t));
  t.same(error(await client.command('input_boolean/create', {})), {
    code: 'invalid_format',
    message: "required key not provided @ data['name']",
  });
  t.same(error(await client.command('input_boolean/create', { name: 'x', colour: 'red' })), {
    code: 'invalid_format',
    message: "extra keys not allowed; allowed: name, icon, initial @ data['colour']",
  });
  t.same(error(await client.command('input_number/create', { name: 'x', min: 5, max: 1 })), {
    code: 'invalid_format',
    message: "Maximum (1) is not greater than minimum (5) @ data['max']",
  });
  t.same(error(await client.command('input_number/create', { name: 'x', min: 'low', max: 1 })), {
    code: 'invalid_format',
    message: `expected a number, got string "low" @ data['min']`,
  });
  t.same(error(await client.command('input_select/create', { name: 'x', options: ['a', 'a'] })), {
    code: 'invalid_format',
    message: `Duplicate options are not allowed: "a" @ data['options']`,
  });
  t.same(error(await client.command('input_datetime/create', { name: 'x' })), {
    code: 'invalid_format',
    message: 'Entity has_date or has_time must be set (at least one of them true)',
  });
  t.same(error(await client.command('counter/update', { counter_id: 'nope', step: 2 })), {
    code: 'not_found',
    message: 'Unable to find counter_id nope',
  });
  t.same(error(await client.command('input_boolean/update', { input_boolean_id: 'from_yaml', name: 'x' })), {
    code: 'not_found',
    message: 'Unable to find input_boolean_id from_yaml: it is configured in YAML, so it can only be changed there',
  });
  t.same(error(await client.command('input_boolean/delete', { input_boolean_id: 'from_yaml' })), {
    code: 'not_found',
    message: 'Unable to find input_boolean_id from_yaml: it is configured in YAML, so it can only be changed there',
  });
  t.same(error(await client.command('input_boolean/delete', {})), {
    code: 'invalid_format',
    message: "required key not provided @ data['input_boolean_id']",
  });
  await client.command('counter/create', { name: 'Cups' });
  t.same(error(await client.command('counter/update', { counter_id: 'cups', step: 0 })), {
    code: 'invalid_format',
    message: "0 is not allowed: expected an integer above 0 @ data['step']",
  });
});

t.test('a non-admin user may list helpers but not change them', async (t) => {
  const dir = await dataDir(t);
  const guestToken = await writeGuestAuth(dir);
  const { th } = await open(t, dir);
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  t.equal((await guest.command('timer/list')).success, true);
  t.same(error(await guest.command('timer/create', { name: 'x' })), { code: 'unauthorized', message: 'Unauthorized' });
});

t.test('stored helpers survive a restart; a corrupt file is moved aside', async (t) => {
  const dir = await dataDir(t);
  const first = await open(t, dir);
  await first.client.command('counter/create', { name: 'Visits', step: 2, restore: true });
  await first.client.command('input_text/create', { name: 'Message', max: 20 });
  first.client.close();
  await first.th.hub.stop();
  const saved = JSON.parse(await readFile(join(dir, 'helpers', 'counter.json'), 'utf8'));
  t.same(saved, {
    version: 1,
    minor_version: 1,
    key: 'counter',
    data: { items: [{ id: 'visits', name: 'Visits', initial: 0, step: 2, restore: true }] },
  });

  const second = await open(t, dir);
  t.same(
    ((await second.client.command('counter/list')).result as { id: string }[]).map((i) => i.id),
    ['visits'],
  );
  t.equal(second.th.hub.core.states.get('counter.visits')?.attributes.step, 2);
  t.equal(second.th.hub.core.states.get('input_text.message')?.attributes.max, 20);
  second.client.close();
  await second.th.hub.stop();

  // A stored item that no longer loads (a key it may not have) is kept in the file, untouched.
  const withBad = JSON.parse(await readFile(join(dir, 'helpers', 'input_text.json'), 'utf8'));
  withBad.data.items.push({ id: 'broken', name: 'Broken', max: 'lots' });
  await writeFile(join(dir, 'helpers', 'input_text.json'), JSON.stringify(withBad));
  await writeFile(join(dir, 'helpers', 'counter.json'), '{"version": 1, "data": ');
  const third = await open(t, dir);
  t.equal(third.th.hub.core.states.get('counter.visits'), undefined, 'a corrupt file: its helpers are gone');
  t.ok(third.th.hub.core.states.get('input_text.message'), 'the other domains are not touched');
  const names = await readdir(join(dir, 'helpers'));
  t.ok(
    names.some((n) => n.startsWith('counter.json.corrupt-')),
    'moved aside',
  );
  await waitForState(third.th.hub.core, 'input_text.message', () => true);
  t.equal(third.th.hub.core.states.get('input_text.broken'), undefined, 'an item with a bad key is skipped');
  await third.client.command('input_text/create', { name: 'Broken' });
  t.ok(third.th.hub.core.states.get('input_text.broken_2'), "a new item does not take a skipped item's id");
  await third.th.hub.stop();
  const kept = JSON.parse(await readFile(join(dir, 'helpers', 'input_text.json'), 'utf8'));
  t.same(
    kept.data.items.map((i: { id: string }) => i.id),
    ['message', 'broken_2', 'broken'],
    'skipped items are written back as they were',
  );
});
