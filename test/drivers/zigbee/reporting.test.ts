import t from 'tap';
import { Zcl } from 'zigbee-herdsman';
import { WsClient } from '../../api/ws/client.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// zigbee/configure_reporting (zigbee2mqtt's bridge/request/device/configure_reporting) over WebSocket: the cluster
// bound to the coordinator, the configReport the device gets, its answer; and each bad input named.

const { weather } = CATALOGUE;

t.test('configure reporting: the request the device gets, its answer, its refusal, bad input', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${weather.ieee}': {friendly_name: Balcony}`,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === weather.ieee && d.status === 'successful');
  z.stick.join('weather');
  await done;
  const ws = await WsClient.authenticated(z.th.wsUrl, z.th.token);
  t.teardown(() => ws.close());

  const request = {
    ieee: weather.ieee,
    endpoint: 1,
    cluster: 'msTemperatureMeasurement',
    attribute: 'measuredValue',
    minimum_report_interval: 10,
    maximum_report_interval: 300,
    reportable_change: 50,
  };
  z.stick.zdoSent.length = 0;
  const sent = z.stick.waitForSent((s) => s.command === 'configReport');
  const reply = await ws.command('zigbee/configure_reporting', request);
  t.equal(reply.success, true, JSON.stringify(reply.error ?? ''));
  t.same(reply.result, request, 'the answer repeats what the device took');
  t.match((await sent).payload, [{ attrId: 0, minRepIntval: 10, maxRepIntval: 300, repChange: 50 }]);
  t.equal(
    z.stick.zdoSent.filter((s) => s.ieee === weather.ieee).length,
    1,
    'the cluster bound to the coordinator first (one ZDO bind request)',
  );

  // By number and by friendly name, as zigbee2mqtt takes them; no reportable_change.
  const numeric = await ws.command('zigbee/configure_reporting', {
    ieee: 'balcony',
    endpoint: 1,
    cluster: '1029',
    attribute: '0',
    minimum_report_interval: 0,
    maximum_report_interval: 65535,
  });
  t.match(numeric.result, { ieee: weather.ieee, cluster: 'msRelativeHumidity', attribute: 'measuredValue', reportable_change: null });

  // The device refuses: its status is the error.
  const off = z.stick.onZcl((r) => (r.command === 'configReport' ? { status: Zcl.Status.UNSUPPORTED_ATTRIBUTE } : undefined));
  const refused = await ws.command('zigbee/configure_reporting', request);
  off();
  t.match(refused.error, {
    code: 'home_assistant_error',
    message: /configuring reporting of msTemperatureMeasurement\.measuredValue on Balcony \(endpoint 1\) failed: .*UNSUPPORTED_ATTRIBUTE/,
  });

  const cases: Array<[Record<string, unknown>, string, RegExp]> = [
    [{ ieee: '0x0000000000000001' }, 'service_validation_error', /"0x0000000000000001" is not a paired Zigbee device/],
    [{ endpoint: 3 }, 'service_validation_error', /Device 'Balcony' does not have endpoint '3': it has 1/],
    [{ cluster: 'noSuchCluster' }, 'service_validation_error', /cluster "noSuchCluster" is not a Zigbee cluster/],
    [
      { attribute: 'colour' },
      'service_validation_error',
      /attribute "colour" is not one of cluster msTemperatureMeasurement's: measuredValue/,
    ],
    [
      { minimum_report_interval: 600 },
      'service_validation_error',
      /maximum_report_interval \(300\) must not be below minimum_report_interval \(600\)/,
    ],
    [{ maximum_report_interval: 70000 }, 'invalid_format', /maximum_report_interval/],
    [{ attribute: undefined }, 'invalid_format', /required key not provided @ data\['attribute'\]/],
    [{ reportable_change: 'lots' }, 'invalid_format', /reportable_change/],
  ];
  for (const [change, code, message] of cases) {
    const r = await ws.command('zigbee/configure_reporting', { ...request, ...change });
    t.match(r.error, { code, message }, JSON.stringify(change));
  }
  z.stick.setReachable(weather.ieee, false);
  const away = await ws.command('zigbee/configure_reporting', request, 30_000);
  t.match(away.error, { code: 'home_assistant_error', message: /failed: .*a battery device may need a button press/ });
});
