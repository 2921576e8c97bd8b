import t from 'tap';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, until, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// Availability on the hub's clock: a silent router is pinged and unavailable only when the ping fails; a battery
// device is unavailable after 25 hours of silence; either is back when it speaks.

const bulb = CATALOGUE.bulb;
const weather = CATALOGUE.weather;
const sensorOf = (ieee: string): string => `sensor.zigbee_${ieee.slice(2)}_messages`;
const MIN = 60_000;

t.test('mains: pinged after 10 silent minutes, unavailable when the ping fails, back when it speaks', async (t) => {
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const key of ['bulb', 'weather'] as const) {
    const done = waitForEvent(
      z.core,
      'zigbee_device_interviewed',
      (d) => d.ieee_address === CATALOGUE[key].ieee && d.status === 'successful',
    );
    z.stick.join(key);
    await done;
  }
  await waitForState(z.core, sensorOf(bulb.ieee), (s) => s.state === '0');

  // 9 minutes: nothing asked. Past 10: one ping (a genBasic read), answered, so the bulb stays.
  z.scheduler.advance(9 * MIN);
  const pingsBefore = z.stick.sent.filter((s) => s.ieee === bulb.ieee && s.cluster === 'genBasic' && s.command === 'read').length;
  const ping = z.stick.waitForSent((s) => s.ieee === bulb.ieee && s.cluster === 'genBasic' && s.command === 'read');
  z.scheduler.advance(2 * MIN);
  await ping;
  // The answer counts as a sign of life once herdsman hands it back.
  await until(() => z.driver().availability.lastSeen(bulb.ieee) === z.clock.now(), 'the ping answered');
  t.equal(
    z.stick.sent.filter((s) => s.ieee === bulb.ieee && s.cluster === 'genBasic' && s.command === 'read').length,
    pingsBefore + 1,
    'one ping',
  );
  t.equal(z.core.states.get(sensorOf(bulb.ieee))?.state, '0', 'a router that answers stays available');

  z.stick.setReachable(bulb.ieee, false);
  z.scheduler.advance(11 * MIN);
  await waitForState(z.core, sensorOf(bulb.ieee), (s) => s.state === 'unavailable');
  t.equal(z.core.states.get(sensorOf(weather.ieee))?.state, '0', 'the sleeping sensor is not due yet');
  const listed = await z.core.services.call('zigbee', 'list_devices', {}, { returnResponse: true });
  const devices = (listed.response as { devices: { ieee_address: string; available: boolean; last_seen: string }[] }).devices;
  t.match(
    devices.find((d) => d.ieee_address === bulb.ieee),
    { available: false, last_seen: '2026-11-25T09:11:00+00:00' },
  );

  z.stick.setReachable(bulb.ieee, true);
  z.stick.report(bulb.ieee, 1, 'genOnOff', { onOff: 1 });
  await waitForState(z.core, sensorOf(bulb.ieee), (s) => s.state === '1');
  t.same(z.recorded.byIeee.get(bulb.ieee)?.availability.slice(-2), [false, true]);
});

t.test('battery: unavailable after 25 hours of silence (configurable), back with its next report', async (t) => {
  const z = await startZigbeeHub(t, { zigbee: '  availability:\n    battery_timeout: 120' });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('weather');
  await done;
  await waitForState(z.core, sensorOf(weather.ieee), (s) => s.state === '0');
  z.scheduler.advance(119 * MIN);
  t.equal(z.core.states.get(sensorOf(weather.ieee))?.state, '0');
  const pingsToSleeper = z.stick.sent.filter((s) => s.ieee === weather.ieee).length;
  z.scheduler.advance(2 * MIN);
  await waitForState(z.core, sensorOf(weather.ieee), (s) => s.state === 'unavailable');
  t.equal(z.stick.sent.filter((s) => s.ieee === weather.ieee).length, pingsToSleeper, 'a sleeping device is never pinged');
  z.stick.report(weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 2010 });
  await waitForState(z.core, sensorOf(weather.ieee), (s) => s.state === '1');
});
