import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { writeGuestAuth } from '../../helpers/guest.js';
import { startTestHub } from '../../helpers/hub.js';
import { ENTITY_ENTRY_KEYS, REGISTRY_HOME_YAML } from '../../registry/helpers.js';
import { WsClient } from './client.js';
import { deviceIdOf, type Entry, error, result, setup } from './registry-setup.js';

/** Every registry over WebSocket: the list commands in Home Assistant's shape, and what a non-admin may do. */

t.test('the five list commands answer with the registries in Home Assistant shape', async (t) => {
  const { th, client } = await setup(t);
  const reg = th.hub.registries;

  const entities = result<Entry[]>(await client.command('config/entity_registry/list'));
  t.same(entities, reg.entities.list());
  const bedside = entities.find((e) => e.entity_id === 'light.bedside');
  t.same(Object.keys(bedside ?? {}).sort(), ENTITY_ENTRY_KEYS);
  t.match(bedside, { area_id: 'bedroom', labels: ['christmas'], platform: 'virtual', original_name: 'Bedside' });

  const devices = result<Entry[]>(await client.command('config/device_registry/list'));
  t.same(devices, reg.devices.list());
  t.match(
    devices.find((d) => d.name === 'Kitchen Lights'),
    { area_id: 'kitchen', manufacturer: 'IKEA', model: 'TRADFRI', name_by_user: null, labels: [], disabled_by: null },
  );

  const areas = result<Entry[]>(await client.command('config/area_registry/list'));
  t.same(
    areas.map((a) => [a.area_id, a.name, a.floor_id, a.labels]),
    [
      ['kitchen', 'Kitchen', 'ground_floor', []],
      ['living_room', 'Living Room', 'ground_floor', ['christmas']],
      ['bedroom', 'Bedroom', 'upstairs', []],
    ],
  );
  t.same(Object.keys(areas[0] ?? {}).sort(), [
    'aliases',
    'area_id',
    'created_at',
    'floor_id',
    'humidity_entity_id',
    'icon',
    'labels',
    'modified_at',
    'name',
    'picture',
    'temperature_entity_id',
  ]);

  const floors = result<Entry[]>(await client.command('config/floor_registry/list'));
  t.match(floors, [
    { floor_id: 'ground_floor', name: 'Ground Floor', level: 0, icon: null, aliases: [] },
    { floor_id: 'upstairs', name: 'Upstairs', level: 1 },
  ]);
  const labels = result<Entry[]>(await client.command('config/label_registry/list'));
  t.match(labels, [{ label_id: 'christmas', name: 'Christmas', color: 'red', icon: null, description: null }]);

  const extra = await client.command('config/area_registry/list', { verbose: true });
  t.same(error(extra), {
    code: 'invalid_format',
    message: "extra keys not allowed @ data['verbose']. Got true. This command takes only id and type.",
  });
});

t.test('a non-admin user may list the registries but not change them', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ws-registry-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { yaml: REGISTRY_HOME_YAML, dataDir });
  t.teardown(async () => {
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  for (const kind of ['entity', 'device', 'area', 'floor', 'label']) {
    t.equal((await guest.command(`config/${kind}_registry/list`)).success, true, `${kind} list`);
  }
  const refused = [
    await guest.command('config/entity_registry/update', { entity_id: 'light.sofa', name: 'x' }),
    await guest.command('config/entity_registry/remove', { entity_id: 'light.sofa' }),
    await guest.command('config/device_registry/update', { device_id: deviceIdOf(th.hub, 'Tree'), name_by_user: 'x' }),
    await guest.command('config/area_registry/create', { name: 'Garage' }),
    await guest.command('config/floor_registry/delete', { floor_id: 'upstairs' }),
    await guest.command('config/label_registry/update', { label_id: 'christmas', name: 'Xmas' }),
  ];
  for (const reply of refused) t.same(error(reply), { code: 'unauthorized', message: 'Unauthorized' });
  t.same(
    await guest.command('subscribe_events', { event_type: 'label_registry_updated' }),
    { id: 12, type: 'result', success: true },
    'registry events are allow-listed for non-admins',
  );
});
