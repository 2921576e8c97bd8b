import t from 'tap';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import { WsClient } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// While the stick is unplugged, a call naming a Zigbee entity fails with Home Assistant's home_assistant_error over
// WebSocket and REST (it is not skipped as if it had worked); once the stick is back, the same call works.

const plug = CATALOGUE.plug;

t.test('switch.turn_on while the adapter is gone: an error over WebSocket and REST, then works when it is back', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${plug.ieee}': {friendly_name: Kettle}`,
    factory: createDeviceEntities,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  const interviewed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('plug');
  await interviewed;
  await waitForState(z.core, 'switch.kettle', (s) => s.state === 'on' || s.state === 'off' || s.state === 'unknown');
  const client = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => client.close());

  z.stick.unplug();
  await waitForState(z.core, 'switch.kettle', (s) => s.state === 'unavailable');
  const ws = await client.command('call_service', { domain: 'switch', service: 'turn_on', target: { entity_id: 'switch.kettle' } });
  t.equal(ws.success, false, 'not a success');
  t.match(ws.error, { code: 'home_assistant_error', message: /the Zigbee adapter \(zstack on \/dev\/ttyACM0\) is not connected/ });
  const rest = await z.th.api('/api/services/switch/turn_on', { method: 'POST', body: JSON.stringify({ entity_id: 'switch.kettle' }) });
  t.not(rest.status, 200, 'REST fails too');
  t.match(await rest.text(), /is not connected/);

  z.stick.plugIn();
  z.scheduler.advance(1000);
  await waitForState(z.core, 'switch.kettle', (s) => s.state !== 'unavailable');
  const again = await client.command('call_service', { domain: 'switch', service: 'turn_off', target: { entity_id: 'switch.kettle' } });
  t.equal(again.success, true, 'works once the stick is back');
});
