import t from 'tap';
import type { TestHub } from '../../helpers/hub.js';
import type { WsClient } from './client.js';
import { deviceIdOf, error, result, setup } from './registry-setup.js';

/** call_service's targets by area, device, floor and label, following registry changes. */

/** Turns every light off, then calls light.turn_on over WebSocket with `target`; the ids it turned on. */
async function turnedOnBy(th: TestHub, client: WsClient, target: Record<string, unknown>): Promise<string[]> {
  result(await client.command('call_service', { domain: 'light', service: 'turn_off', target: { entity_id: 'all' } }));
  result(await client.command('call_service', { domain: 'light', service: 'turn_on', target }));
  return [...th.hub.core.states.states()]
    .filter((s) => s.entity_id.startsWith('light.') && s.state === 'on')
    .map((s) => s.entity_id)
    .sort();
}

t.test('call_service targets over WebSocket: area_id, device_id, floor_id, label_id as a string or a list', async (t) => {
  const { th, client } = await setup(t);
  t.same(await turnedOnBy(th, client, { area_id: 'kitchen' }), ['light.kitchen_ceiling']);
  t.same(await turnedOnBy(th, client, { area_id: ['living_room'] }), ['light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { device_id: deviceIdOf(th.hub, 'Kitchen Lights') }), [
    'light.kitchen_ceiling',
    'light.kitchen_counter',
  ]);
  t.same(await turnedOnBy(th, client, { device_id: [deviceIdOf(th.hub, 'Sofa Lamp'), deviceIdOf(th.hub, 'Bedside')] }), [
    'light.bedside',
    'light.sofa',
  ]);
  t.same(await turnedOnBy(th, client, { floor_id: 'ground_floor' }), ['light.kitchen_ceiling', 'light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { floor_id: ['upstairs'] }), ['light.bedside']);
  t.same(await turnedOnBy(th, client, { label_id: 'christmas' }), ['light.bedside', 'light.kitchen_counter', 'light.sofa']);
  t.same(await turnedOnBy(th, client, { label_id: ['christmas'], entity_id: 'light.kitchen_ceiling' }), [
    'light.bedside',
    'light.kitchen_ceiling',
    'light.kitchen_counter',
    'light.sofa',
  ]);
  t.same(await turnedOnBy(th, client, { area_id: 'garage' }), [], 'a missing area is not an error');

  // Targets follow registry changes made over WebSocket.
  result(await client.command('config/area_registry/create', { name: 'Garage' }));
  result(await client.command('config/device_registry/update', { device_id: deviceIdOf(th.hub, 'Kitchen Lights'), area_id: 'garage' }));
  t.same(
    await turnedOnBy(th, client, { area_id: 'garage' }),
    ['light.kitchen_ceiling'],
    "the ceiling follows its device's area; the counter has one of its own",
  );
  result(await client.command('config/entity_registry/update', { entity_id: 'light.kitchen_ceiling', area_id: 'bedroom' }));
  t.same(await turnedOnBy(th, client, { area_id: 'garage' }), []);
  t.same(await turnedOnBy(th, client, { floor_id: 'upstairs' }), ['light.bedside', 'light.kitchen_ceiling']);

  const bad = await client.command('call_service', { domain: 'light', service: 'turn_on', target: { area_id: 42 } });
  t.equal(error(bad).code, 'invalid_format');
});
