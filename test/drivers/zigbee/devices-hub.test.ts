import t from 'tap';
import { WsClient, type WsMessage } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startTestHub } from '../../helpers/hub.js';
import { startZigbeeNetwork } from './devices-network.js';

// End to end through a hub: a device joins the fake stick and is interviewed by herdsman's Controller, its entities
// appear over the API, its report reaches a WebSocket client, and a service call from that client becomes a ZCL command.

function stateEvent(m: WsMessage, entityId: string): Record<string, unknown> | undefined {
  const event = m.event as { event_type?: string; data?: { entity_id?: string; new_state?: Record<string, unknown> } } | undefined;
  return event?.event_type === 'state_changed' && event.data?.entity_id === entityId ? event.data.new_state : undefined;
}

t.test('join, interview, entities, a report to a WebSocket client, a service call to a command', async (t) => {
  const th = await startTestHub(t);
  const core = th.hub.core;
  const net = await startZigbeeNetwork(t, core);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());

  const weather = await net.pair('weather', 'Living Room');
  const bulb = await net.pair('bulb', 'Living Room Lamp');
  t.ok(weather.supported && bulb.supported);

  const states = (await (await th.api('/api/states')).json()) as { entity_id: string; attributes: Record<string, unknown> }[];
  const temperature = states.find((s) => s.entity_id === 'sensor.living_room_temperature');
  t.match(temperature?.attributes, { device_class: 'temperature', unit_of_measurement: '°C', state_class: 'measurement' });
  t.ok(
    states.some((s) => s.entity_id === 'light.living_room_lamp'),
    'the bulb is a light',
  );

  const registry = await client.command('config/device_registry/list');
  const devices = registry.result as { id: string; identifiers: [string, string][]; model: string; via_device_id: string | null }[];
  const entry = devices.find((d) => d.identifiers.some(([i, id]) => i === 'zigbee' && id === CATALOGUE.weather.ieee));
  t.match(entry, { model: 'Temperature and humidity sensor (WSDCGQ11LM)' });
  t.ok(entry?.via_device_id, 'reached through the coordinator');

  const lqi = await client.command('config/entity_registry/get', { entity_id: 'sensor.living_room_linkquality' });
  t.match(lqi.result, { entity_category: 'diagnostic', unique_id: `${CATALOGUE.weather.ieee}_linkquality`, device_id: entry?.id });
  const temp = await client.command('config/entity_registry/get', { entity_id: 'sensor.living_room_temperature' });
  t.match(temp.result, { entity_category: null, unique_id: `${CATALOGUE.weather.ieee}_temperature` });

  const subscribed = await client.command('subscribe_events', { event_type: 'state_changed' });
  t.equal(subscribed.success, true);
  net.stick.report(CATALOGUE.weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2345 });
  const reported = await client.waitFor((m) => stateEvent(m, 'sensor.living_room_temperature') !== undefined);
  t.equal(stateEvent(reported, 'sensor.living_room_temperature')?.state, '23.45');

  const sent = net.stick.waitForSent((s) => s.cluster === 'genLevelCtrl');
  const reply = await client.command('call_service', {
    domain: 'light',
    service: 'turn_on',
    target: { entity_id: 'light.living_room_lamp' },
    service_data: { brightness_pct: 50 },
  });
  t.equal(reply.success, true);
  t.match(await sent, { ieee: CATALOGUE.bulb.ieee, command: 'moveToLevelWithOnOff', payload: { level: 127 } });
  const on = await client.waitFor((m) => stateEvent(m, 'light.living_room_lamp')?.state === 'on');
  t.match(stateEvent(on, 'light.living_room_lamp')?.attributes, { brightness: 128 });

  net.stick.setReachable(CATALOGUE.bulb.ieee, false);
  const failed = await client.command('call_service', {
    domain: 'light',
    service: 'turn_off',
    target: { entity_id: 'light.living_room_lamp' },
  });
  t.equal(failed.success, false);
  t.match(failed.error, { code: 'home_assistant_error', message: /Living Room Lamp .* did not accept state/ });
  t.equal(core.states.get('light.living_room_lamp')?.state, 'on');
});
