import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { writeGuestAuth } from '../../helpers/guest.js';
import { startTestHub } from '../../helpers/hub.js';
import { waitForState } from '../../helpers/wait.js';
import { WsClient, type WsMessage } from './client.js';

// `zigbee/device/info`: the per-device Zigbee page's read of one device, on the real driver over the fake stick.

const { bulb, dimmer } = CATALOGUE;

function result<T>(m: WsMessage): T {
  if (m.success !== true) throw new Error(`command failed: ${JSON.stringify(m)}`);
  return m.result as T;
}

interface Info {
  ieee_address: string;
  friendly_name: string;
  model: string;
  vendor: string;
  interview: string;
  power_source: string;
  firmware: { software_build_id: string | null; date_code: string | null };
  ota: boolean;
  entities: { entity_id: string; domain: string }[];
  endpoints: { id: number; input_clusters: string[]; output_clusters: string[]; bindings: { cluster: string; target?: string }[] }[];
}

t.test('zigbee/device/info: identity, firmware, interview, entities, endpoints and bindings; errors named', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  devices:\n    '${bulb.ieee}': {friendly_name: Lamp}\n    '${dimmer.ieee}': {friendly_name: Remote}`,
    factory: createDeviceEntities,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const key of ['bulb', 'dimmer'] as const) {
    const done = waitForEvent(
      z.core,
      'zigbee_device_interviewed',
      (d) => d.ieee_address === CATALOGUE[key].ieee && d.status === 'successful',
    );
    z.stick.join(key);
    await done;
  }
  const ws = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => ws.close());

  const info = result<Info>(await ws.command('zigbee/device/info', { ieee_address: bulb.ieee }));
  t.match(info, {
    ieee_address: bulb.ieee,
    friendly_name: 'Lamp',
    model: 'LED1545G12',
    vendor: 'IKEA',
    interview: 'successful',
    power_source: 'Mains (single phase)',
    firmware: { software_build_id: '2.0.029', date_code: '20170905' },
    ota: true,
  });
  const domains = new Set(info.entities.map((e) => e.domain));
  for (const d of ['light', 'update', 'select'])
    t.ok(domains.has(d), `an entity of domain ${d}: ${info.entities.map((e) => e.entity_id).join(', ')}`);
  t.ok(
    info.entities.every((e) => z.core.states.get(e.entity_id) !== undefined),
    'every entity named has a state to follow',
  );
  t.match(info.endpoints, [{ id: 1 }]);
  t.ok(info.endpoints[0]?.input_clusters.includes('genOnOff'), 'the clusters by name');

  // By friendly name too; a binding shows on the source's endpoint.
  await z.core.services.call('zigbee', 'bind', { source: 'Remote', target: 'Lamp', clusters: ['genOnOff'] }, { returnResponse: true });
  const remote = result<Info>(await ws.command('zigbee/device/info', { ieee_address: 'Remote' }));
  t.equal(remote.ieee_address, dimmer.ieee);
  const toLamp = remote.endpoints.flatMap((e) => e.bindings).filter((b) => b.target === bulb.ieee);
  t.same(toLamp, [{ cluster: 'genOnOff', target_type: 'endpoint', target: bulb.ieee, target_endpoint: 1 }], 'the binding made');
  t.equal(remote.power_source, 'Battery');

  const unknown = await ws.command('zigbee/device/info', { ieee_address: '0x0000000000000001' });
  t.match(unknown, { success: false, error: { code: 'service_validation', message: /is not a paired Zigbee device/ } });
  const missing = await ws.command('zigbee/device/info', {});
  t.match(missing, { success: false, error: { code: 'invalid_format', message: /ieee_address/ } });

  // The stick unplugged: an error that says so, not a stack.
  z.stick.unplug();
  await waitForState(z.core, 'light.lamp', (s) => s.state === 'unavailable');
  const gone = await ws.command('zigbee/device/info', { ieee_address: bulb.ieee });
  t.match(gone, { success: false, error: { code: 'home_assistant_error', message: /is not connected/ } });
});

t.test('zigbee/device/info: admins only, and named as unknown without a zigbee: section', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'hearth-ws-zigbee-'));
  const guestToken = await writeGuestAuth(dataDir);
  const th = await startTestHub(t, { dataDir });
  t.teardown(async () => {
    await th.hub.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const guest = await WsClient.authenticated(th.wsUrl, guestToken);
  t.teardown(() => guest.close());
  t.match(await guest.command('zigbee/device/info', { ieee_address: bulb.ieee }), { success: false, error: { code: 'unauthorized' } });
  const owner = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => owner.close());
  t.match(await owner.command('zigbee/device/info', { ieee_address: bulb.ieee }), {
    success: false,
    error: { code: 'unknown_command', message: /no zigbee: section/ },
  });
});
