import t from 'tap';
import { Device } from 'zigbee-herdsman/dist/controller/model/device.js';
import { WsClient, type WsMessage } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { FakeStick, quietZigbeeLogs } from '../../fixtures/zigbee/fake-stick.js';
import { startTestHub } from '../../helpers/hub.js';
import { waitForState } from '../../helpers/wait.js';

// The hub as a user runs it: a `zigbee:` section, the real driver and controller on the fake stick, and the
// converters' entities for what pairs. Everything is seen and done over the WebSocket API.

const weather = CATALOGUE.weather;
const bulb = CATALOGUE.bulb;
const dimmer = CATALOGUE.dimmer;

function eventOf(m: WsMessage): { event_type?: string; data?: Record<string, unknown> } {
  return (m.event ?? {}) as { event_type?: string; data?: Record<string, unknown> };
}

t.test('pair from the API, entities under their friendly names, a report, a command, a button press', async (t) => {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  t.teardown(stick.install());
  const th = await startTestHub(t, {
    yaml: `hub:
  name: Test Home
  time_zone: Europe/Amsterdam
zigbee:
  devices:
    '${weather.ieee}': {friendly_name: Living Room, area: Living Room}
    '${bulb.ieee}': {friendly_name: Reading Lamp}
    '${dimmer.ieee}': {friendly_name: Hall Dimmer}
`,
  });
  const core = th.hub.core;
  await waitForState(core, 'switch.zigbee_permit_join', (s) => s.state === 'off', 10_000);
  const client = await WsClient.authenticated(th.wsUrl, th.token);
  t.teardown(() => client.close());
  t.equal((await client.command('subscribe_events', { event_type: 'zigbee_device_interviewed' })).success, true);
  t.equal((await client.command('subscribe_events', { event_type: 'zigbee_action' })).success, true);
  t.equal((await client.command('subscribe_events', { event_type: 'state_changed' })).success, true);
  t.equal(
    (await client.command('call_service', { domain: 'zigbee', service: 'permit_join', service_data: { duration: 60 } })).success,
    true,
  );

  // After its interview a device is configured by its definition: the dimmer's battery reporting.
  const configured = stick.waitForSent((s) => s.ieee === dimmer.ieee && s.command === 'configReport', 10_000);
  for (const key of ['weather', 'bulb', 'dimmer'] as const) {
    stick.join(key);
    const done = await client.waitFor(
      (m) =>
        eventOf(m).event_type === 'zigbee_device_interviewed' &&
        eventOf(m).data?.ieee_address === CATALOGUE[key].ieee &&
        eventOf(m).data?.status !== 'started',
      10_000,
    );
    t.match(eventOf(done).data, { status: 'successful', supported: true }, `${key} interviewed and supported`);
  }
  t.match(await configured, { cluster: 'genPowerCfg' }, "the dimmer's definition configured its reporting");
  t.match(core.states.get('sensor.living_room_temperature')?.attributes, { device_class: 'temperature', unit_of_measurement: '°C' });
  t.ok(core.states.get('light.reading_lamp'));
  const devices = (await client.command('config/device_registry/list')).result as { identifiers: string[][]; area_id: string | null }[];
  t.ok(devices.find((d) => d.identifiers.some((i) => i[1] === weather.ieee))?.area_id, "the config's area is the device's");

  stick.report(weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2345 });
  const report = await client.waitFor((m) => {
    const d = eventOf(m).data as { entity_id?: string; new_state?: { state: string } } | undefined;
    return d?.entity_id === 'sensor.living_room_temperature' && d.new_state?.state === '23.45';
  });
  t.ok(report, 'the report reached the client');

  const sent = stick.waitForSent((s) => s.ieee === bulb.ieee && s.cluster === 'genLevelCtrl');
  const reply = await client.command('call_service', {
    domain: 'light',
    service: 'turn_on',
    target: { entity_id: 'light.reading_lamp' },
    service_data: { brightness: 100 },
  });
  t.equal(reply.success, true);
  t.match(await sent, { command: 'moveToLevelWithOnOff', payload: { level: 100 } });
  t.match(core.states.get('light.reading_lamp'), { state: 'on', attributes: { brightness: 100 } });

  // The Philips definition gave the dimmer its manufacturer cluster when its entities were made (onEvent start).
  const customClusters = Device.byIeeeAddr(dimmer.ieee)?.customClusters;
  t.ok(customClusters?.manuSpecificPhilips, "the definition's custom cluster is on the device");
  stick.sendCommand(
    dimmer.ieee,
    2,
    'manuSpecificPhilips',
    'hueNotification',
    { button: 4, unknown1: 3145728, type: 2, unknown2: 0, time: 1, unknown3: 0 },
    { direction: 'server_to_client', manufacturerCode: 0x100b, customClusters },
  );
  const action = await client.waitFor((m) => eventOf(m).event_type === 'zigbee_action');
  t.match(eventOf(action).data, { device_ieee: dimmer.ieee, device_name: 'Hall Dimmer', action: 'off_press_release' });
});
