import t from 'tap';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, until, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// A plug whose configure step fails keeps unscaled readings; the configure is retried as zigbee2mqtt retries it
// (on the next message or announcement, here after a backoff, with a limit), and once configured it scales.

const plug = CATALOGUE.plug;

t.test('a plug whose configure fails: unscaled, retried after the backoff, then scaled; the retries are bounded', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${plug.ieee}': {friendly_name: Kettle}`,
    factory: createDeviceEntities,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  let failing = true;
  let configReports = 0;
  z.stick.onZcl((request) => {
    if (request.ieee !== plug.ieee || request.command !== 'configReport') return undefined;
    configReports += 1;
    return failing ? 'timeout' : undefined;
  });
  await z.core.services.call('zigbee', 'permit_join', {});
  const interviewed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('plug');
  await interviewed;
  await until(() => z.logs.some((l) => l.level === 'warn' && /could not be configured/.test(l.msg)), 'the first failure logged');
  t.match(
    z.logs.find((l) => /could not be configured/.test(l.msg)),
    {
      level: 'warn',
      msg: /Zigbee device Kettle could not be configured \(ZCL command .*seMetering.configReport.*\); retrying on its next message, no sooner than 30 s/,
    },
  );

  z.stick.report(plug.ieee, 1, 'haElectricalMeasurement', { rmsCurrent: 120 });
  await waitForState(z.core, 'sensor.kettle_current', (s) => s.state === '120');
  t.pass('unscaled while not configured');
  const attempts = configReports;
  z.stick.report(plug.ieee, 1, 'haElectricalMeasurement', { rmsCurrent: 121 });
  await waitForState(z.core, 'sensor.kettle_current', (s) => s.state === '121');
  t.equal(configReports, attempts, 'no new attempt before the backoff');

  failing = false;
  await until(() => z.scheduler.waiting.includes(30_000), 'a retry in 30 s (a router may stay silent)');
  z.scheduler.advance(30_000);
  await until(() => z.logs.some((l) => /configured after 1 failed attempt/.test(l.msg)), 'configured on the retry');
  z.stick.report(plug.ieee, 1, 'haElectricalMeasurement', { rmsCurrent: 1250 });
  await waitForState(z.core, 'sensor.kettle_current', (s) => s.state === '1.25');
  t.pass('scaled once configured');

  const device = z.driver().running?.getDeviceByIeeeAddr(plug.ieee);
  t.ok(device?.meta.configured !== undefined, 'kept in the device meta: not configured again at the next start');
  const after = configReports;
  z.stick.report(plug.ieee, 1, 'haElectricalMeasurement', { rmsCurrent: 1750 });
  await waitForState(z.core, 'sensor.kettle_current', (s) => s.state === '1.75');
  t.equal(configReports, after, 'a configured device is not configured again');
});

t.test('a plug that never takes its configure: three attempts, one warning, one error, then only on request', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee: `  adapter: zstack\n  port: /dev/ttyACM0\n  devices:\n    '${plug.ieee}': {friendly_name: Kettle}`,
    factory: createDeviceEntities,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  let failing = true;
  z.stick.onZcl((r) => (r.ieee === plug.ieee && r.command === 'configReport' && failing ? 'timeout' : undefined));
  await z.core.services.call('zigbee', 'permit_join', {});
  const interviewed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('plug');
  await interviewed;
  for (const delay of [30_000, 60_000]) {
    await until(() => z.scheduler.waiting.includes(delay), `a retry in ${delay} ms`);
    z.scheduler.advance(delay);
  }
  await until(() => z.logs.some((l) => l.level === 'error' && /after 3 attempts/.test(l.msg)), 'gave up');
  t.equal(z.logs.filter((l) => /could not be configured/.test(l.msg)).length, 2, 'one warning and one error');
  t.notOk(z.scheduler.waiting.includes(120_000), 'no more automatic attempts');
  failing = false;
  await z.core.services.call('zigbee', 'reconfigure_device', { ieee_address: 'Kettle' });
  z.stick.report(plug.ieee, 1, 'haElectricalMeasurement', { rmsCurrent: 500 });
  await waitForState(z.core, 'sensor.kettle_current', (s) => s.state === '0.5');
});
