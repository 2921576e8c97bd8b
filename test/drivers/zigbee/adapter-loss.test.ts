import t from 'tap';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { FakeStick } from '../../fixtures/zigbee/fake-stick.js';
import { startZigbeeHub, until, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';

// The stick unplugged and back, a port that is busy or missing, firmware that is not supported.

const bulb = CATALOGUE.bulb;
const bulbSensor = `sensor.zigbee_${bulb.ieee.slice(2)}_messages`;
const PORT = '/dev/serial/by-id/usb-Texas_Instruments_TI_CC2652R1_0123-if00';

t.test('unplugged: every entity unavailable, reconnects with backoff, logged once each way, devices back', async (t) => {
  const z = await startZigbeeHub(t, { zigbee: `  adapter: zstack\n  port: ${PORT}` });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  const interviewed = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.status === 'successful');
  z.stick.join('bulb');
  await interviewed;
  await waitForState(z.core, bulbSensor, (s) => s.state === '0');

  const delaysBefore = z.scheduler.delays.length;
  z.stick.unplug();
  await waitForState(z.core, bulbSensor, (s) => s.state === 'unavailable');
  t.equal(z.core.states.get('switch.zigbee_permit_join')?.state, 'unavailable');
  t.equal(z.core.states.get('sensor.zigbee_coordinator_backup')?.state, 'unavailable');
  const listed = await z.core.services.call('zigbee', 'list_devices', {}, { returnResponse: true });
  t.match(
    listed.response,
    { adapter_connected: false, devices: [{ ieee_address: bulb.ieee, available: false, model_id: bulb.modelID }] },
    'the devices as last seen',
  );
  const rename = await z.core.services
    .call('zigbee', 'rename_device', { ieee_address: bulb.ieee, name: 'Lamp' })
    .catch((err: Error) => err);
  t.match(String(rename), /the Zigbee adapter \(zstack on \/dev\/serial\/by-id\/usb-Texas.*\) is not connected; try again when it is back/);

  // Three failed attempts while the port is missing: 1 s, 2 s, 4 s.
  for (const delay of [1000, 2000, 4000]) {
    await until(() => z.scheduler.waiting.includes(delay), `a retry in ${delay} ms`);
    z.scheduler.advance(delay);
  }
  await until(() => z.scheduler.waiting.includes(8000), 'a retry in 8 s');
  t.same(
    z.scheduler.delays.slice(delaysBefore).filter((d) => d <= 8000),
    [1000, 2000, 4000, 8000],
    'backoff doubles from 1 s',
  );
  t.equal(z.stick.opens, 4, 'the first start and three attempts');
  const errors = z.logs.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one error for the loss, not one per attempt');
  t.match(errors[0]?.msg, /Zigbee adapter zstack on \/dev\/serial\/by-id\/usb-Texas.* disconnected/);

  z.stick.plugIn();
  z.scheduler.advance(8000);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await waitForState(z.core, bulbSensor, (s) => s.state === '0');
  t.equal(z.logs.filter((l) => l.level === 'error').length, 1, 'still one error');
  t.match(
    z.logs.filter((l) => /is back after/.test(l.msg)),
    [{ level: 'info', msg: /Zigbee adapter zstack on \/dev\/serial.* is back after 4 failed attempts/ }],
  );
  t.equal(z.recorded.calls.length, 1, 'the device entities survive the reconnect');
  z.stick.report(bulb.ieee, 1, 'genOnOff', { onOff: 1 });
  await waitForState(z.core, bulbSensor, (s) => s.state === '1');
  const { response } = await z.core.services.call('zigbee', 'list_devices', {}, { returnResponse: true });
  t.same(
    (response as { devices: { available: boolean }[] }).devices.map((d) => d.available),
    [true],
  );
});

t.test('pulled during a backup: still one error, no backup time while away, the caller told to retry', async (t) => {
  const z = await startZigbeeHub(t, { zigbee: `  adapter: zstack\n  port: ${PORT}` });
  const backupSensor = 'sensor.zigbee_coordinator_backup';
  await waitForState(z.core, backupSensor, (s) => s.state === '2026-11-25T09:00:00+00:00');
  await until(() => z.scheduler.waiting.includes(24 * 3600_000), 'the daily backup scheduled');
  const release = z.stick.holdBackups();
  z.scheduler.advance(24 * 3600_000);
  const asked = z.core.services.call('zigbee', 'backup', {}).catch((err: Error) => err);
  await until(() => z.stick.backupsWaiting === 2, 'both backups reach the stick');
  z.stick.unplug();
  await waitForState(z.core, backupSensor, (s) => s.state === 'unavailable');
  release();
  t.match(String(await asked), /went away during the backup; try again when it is back/);
  await until(() => z.logs.some((l) => /backup stopped: the adapter .* went away/.test(l.msg)), 'the daily backup gives up');
  t.equal(z.core.states.get(backupSensor)?.state, 'unavailable', 'no backup time while the stick is away');
  const errors = z.logs.filter((l) => l.level === 'error');
  t.match(
    errors.map((l) => l.msg),
    [/disconnected; every Zigbee entity is unavailable/],
    'the loss is the only error',
  );
  t.equal(errors.length, 1);
});

t.test('the backoff is capped at 5 minutes and never gives up', async (t) => {
  const stick = new FakeStick();
  stick.failure = 'missing';
  const z = await startZigbeeHub(t, { stick, zigbee: `  adapter: ember\n  port: /dev/ttyUSB0` });
  const seen: number[] = [];
  for (let i = 0; i < 12; i++) {
    await until(() => z.scheduler.waiting.length > 0 && z.stick.opens === i + 1, `attempt ${i + 1}`);
    const next = Math.min(...z.scheduler.waiting);
    seen.push(next);
    z.scheduler.advance(next);
  }
  t.same(seen, [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 300000, 300000, 300000]);
  const errors = z.logs.filter((l) => l.level === 'error');
  t.equal(errors.length, 1);
  t.match(errors[0]?.msg, /^Zigbee adapter ember on \/dev\/ttyUSB0: the port is missing \(is the stick plugged in\?/);
  const api = await z.th.api('/api/');
  t.equal(api.status, 200, 'the hub serves on');
});

t.test('a busy port and unsupported firmware: errors naming the adapter, port and firmware', async (t) => {
  const busy = new FakeStick();
  busy.failure = 'busy';
  const z1 = await startZigbeeHub(t, { stick: busy, zigbee: `  adapter: zstack\n  port: ${PORT}` });
  await until(() => z1.logs.some((l) => l.level === 'error'), 'the busy error');
  t.match(
    z1.logs.find((l) => l.level === 'error')?.msg,
    `Zigbee adapter zstack on ${PORT}: the port is busy (another program, such as zigbee2mqtt, has it open)`,
  );
  t.equal(z1.core.states.get('switch.zigbee_permit_join')?.state, 'unavailable');
  await z1.th.hub.stop();

  const old = new FakeStick();
  old.failure = 'firmware';
  const z2 = await startZigbeeHub(t, { stick: old, zigbee: '  adapter: ember\n  port: /dev/ttyACM0' });
  await until(() => z2.logs.some((l) => l.level === 'error'), 'the firmware error');
  t.match(
    z2.logs.find((l) => l.level === 'error')?.msg,
    'Zigbee adapter ember on /dev/ttyACM0: the firmware is not supported (Adapter EZSP protocol version (12) is not supported by Host [13-18].); flash a firmware herdsman supports for ember',
  );
});
