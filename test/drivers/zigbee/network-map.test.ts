import t from 'tap';
import { WsClient } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// zigbee.network_map over WebSocket: the nodes, and the links from the coordinator's and each router's neighbour
// table; a router that does not answer is listed as failed and the rest of the map still comes.

const { bulb, plug, weather } = CATALOGUE;

t.test('network map: nodes, links from neighbour tables, an unreachable router listed as failed', async (t) => {
  const z = await startZigbeeHub(t, { zigbee: '  adapter: zstack\n  port: /dev/ttyACM0' });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const key of ['bulb', 'plug', 'weather'] as const) {
    const done = waitForEvent(
      z.core,
      'zigbee_device_interviewed',
      (d) => d.ieee_address === CATALOGUE[key].ieee && d.status === 'successful',
    );
    z.stick.join(key);
    await done;
  }
  const coordinator = z.stick.coordinatorIeee;
  z.stick.neighbours.set(coordinator, [
    { ieee: bulb.ieee, lqi: 200, relationship: 1, depth: 1 },
    { ieee: plug.ieee, lqi: 120, relationship: 1, depth: 1 },
  ]);
  z.stick.neighbours.set(bulb.ieee, [
    { ieee: coordinator, lqi: 210, relationship: 0, depth: 0 },
    { ieee: weather.ieee, lqi: 90, relationship: 1, depth: 2 },
  ]);
  z.stick.setReachable(plug.ieee, false);

  const client = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => client.close());
  const reply = await client.command('call_service', { domain: 'zigbee', service: 'network_map', service_data: {}, return_response: true });
  t.equal(reply.success, true);
  const map = (reply.result as { response: { nodes: { ieee_address: string; type: string }[]; links: unknown[]; failed: unknown[] } })
    .response;
  t.same(
    map.nodes.map((n) => [n.ieee_address, n.type]).sort(),
    [
      [coordinator, 'Coordinator'],
      [bulb.ieee, 'Router'],
      [plug.ieee, 'Router'],
      [weather.ieee, 'EndDevice'],
    ].sort(),
  );
  t.same(map.links, [
    { source: bulb.ieee, source_network_address: bulb.networkAddress, target: coordinator, lqi: 200, depth: 1, relationship: 'child' },
    { source: plug.ieee, source_network_address: plug.networkAddress, target: coordinator, lqi: 120, depth: 1, relationship: 'child' },
    { source: coordinator, source_network_address: 0, target: bulb.ieee, lqi: 210, depth: 0, relationship: 'parent' },
    { source: weather.ieee, source_network_address: weather.networkAddress, target: bulb.ieee, lqi: 90, depth: 2, relationship: 'child' },
  ]);
  t.match(map.failed, [{ ieee_address: plug.ieee }]);
});
