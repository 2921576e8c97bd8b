import t from 'tap';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import type { State } from '../../../src/core/state.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { otaClient, startOtaServer } from '../../fixtures/zigbee/ota.js';
import { waitForState } from '../../helpers/wait.js';

// Zigbee OTA through herdsman and the converters' OTA support: an index and its images on 127.0.0.1, the device's
// OTA client on the fake stick; checks on a schedule and on request, progress as an attribute, a refused image.

const bulb = CATALOGUE.bulb;
const IKEA = 4476;

t.test('a bulb: its update entity, checked on request and on schedule, a refused image, then an install', async (t) => {
  const server = await startOtaServer(t);
  server.publish([]);
  const z = await startZigbeeHub(t, {
    zigbee: [
      '  adapter: zstack',
      '  port: /dev/ttyACM0',
      `  ota: {index_url: '${server.indexUrl}', check_interval: 1, image_block_response_delay: 0}`,
      '  devices:',
      `    '${bulb.ieee}': {friendly_name: Lamp}`,
    ].join('\n'),
    factory: createDeviceEntities,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  const client = otaClient(z.stick, bulb.ieee, 1, { manufacturerCode: IKEA, imageType: 0x2101, fileVersion: 100 });
  await z.core.services.call('zigbee', 'permit_join', {});
  const interviewed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('bulb');
  await interviewed;
  await waitForState(z.core, 'update.lamp', (s) => s.state === 'unknown');
  t.match(z.core.states.get('update.lamp')?.attributes, {
    device_class: 'firmware',
    supported_features: 1 | 4 | 16,
    installed_version: null,
  });
  t.equal(z.core.entities.get('update.lamp')?.uniqueId, `${bulb.ieee}_update`);

  const checked = await z.core.services.call('zigbee', 'check_ota', { ieee_address: 'Lamp' }, { returnResponse: true });
  t.same(checked.response, { installed_version: '100', latest_version: '100', update_available: false }, 'no image for it: up to date');
  t.equal(z.core.states.get('update.lamp')?.state, 'off');
  t.equal(client.imageNotifies, 1, 'the device was asked its image');

  server.publish([{ manufacturerCode: IKEA, imageType: 0x2101, fileVersion: 200, releaseNotes: 'Fixes flicker' }]);
  z.scheduler.advance(3600_000);
  await waitForState(z.core, 'update.lamp', (s) => s.state === 'on');
  t.match(z.core.states.get('update.lamp')?.attributes, {
    installed_version: '100',
    latest_version: '200',
    release_summary: 'Fixes flicker',
    in_progress: false,
  });

  client.refuse = true;
  const refused = await z.core.services.call('update', 'install', { entity_id: 'update.lamp' }).catch((err: Error) => err);
  t.match(String(refused), /Firmware update of Lamp failed: .*INVALID_IMAGE.*; the device keeps its firmware/);
  t.match(z.core.states.get('update.lamp'), { state: 'on', attributes: { installed_version: '100', in_progress: false } });
  t.equal(client.fileVersion, 100);
  await z.core.services.call('light', 'turn_on', { entity_id: 'light.lamp' });
  await waitForState(z.core, 'light.lamp', (s) => s.state === 'on');
  t.pass('the device keeps working after refusing the image');

  client.refuse = false;
  const seen: State[] = [];
  z.core.bus.on('test-ota', 'state_changed', (e) => {
    const s = (e.data as { entity_id: string; new_state: State | null }).new_state;
    if (s?.entity_id === 'update.lamp') seen.push(s);
  });
  await z.core.services.call('update', 'install', { entity_id: 'update.lamp' });
  t.ok(
    seen.some((s) => s.attributes.in_progress === true && typeof s.attributes.update_percentage === 'number'),
    'in progress with a percentage while the image is served',
  );
  t.match(z.core.states.get('update.lamp'), {
    state: 'off',
    attributes: { installed_version: '200', latest_version: '200', in_progress: false },
  });
  t.equal(client.fileVersion, 200, 'the device runs the new image');
  t.ok(server.requests.includes('/images/0.ota'), 'the image came from the index server');
});
