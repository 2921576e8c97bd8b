import t from 'tap';
import { Zdo } from 'zigbee-herdsman';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// zigbee.bind / zigbee.unbind: a Hue dimmer's clusters bound straight to a bulb (ZDO bind requests at the stick).

const { bulb, dimmer } = CATALOGUE;

t.test('bind a remote to a bulb: the default clusters it sends and the bulb takes; then unbind; bad input named', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${bulb.ieee}': {friendly_name: Lamp}\n    '${dimmer.ieee}': {friendly_name: Remote}`,
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
  z.stick.zdoSent.length = 0;
  const bound = await z.core.services.call('zigbee', 'bind', { source: 'Remote', target: 'Lamp' }, { returnResponse: true });
  t.same((bound.response as { clusters: string[] }).clusters, ['genScenes', 'genOnOff', 'genLevelCtrl']);
  t.match((bound.response as { bindings: unknown[] }).bindings, [
    { cluster: 'genScenes', target: `${bulb.ieee}/1` },
    { cluster: 'genOnOff', target: `${bulb.ieee}/1` },
    { cluster: 'genLevelCtrl', target: `${bulb.ieee}/1` },
  ]);
  t.equal(
    z.stick.zdoSent.filter((s) => s.clusterId === Zdo.ClusterId.BIND_REQUEST && s.ieee === dimmer.ieee).length,
    3,
    'three bind requests',
  );
  const unbound = await z.core.services.call('zigbee', 'unbind', { source: 'Remote', target: 'Lamp' }, { returnResponse: true });
  t.same((unbound.response as { bindings: unknown[] }).bindings, []);
  const bad = await z.core.services.call('zigbee', 'bind', { source: 'Remote', target: 'Lamp', source_endpoint: 9 }).catch((e: Error) => e);
  t.match(String(bad), /source endpoint 9 does not exist on 0x0017880108a1b2c3: it has 1, 2/);
});
