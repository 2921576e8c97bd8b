import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { zigbeeCommand } from '../../src/cli/zigbee.js';
import { CATALOGUE } from '../fixtures/zigbee/catalogue.js';
import { FakeStick } from '../fixtures/zigbee/fake-stick.js';
import { startZigbeeHub, waitForEvent } from '../fixtures/zigbee/harness.js';
import type { Teardown } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';
import { runCli } from './cli-process.js';

// `hearth zigbee import`: a zigbee2mqtt data dir written here becomes hearth's network on the same (fake) stick.

const { bulb, weather, plug } = CATALOGUE;
const KEY = [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13];

async function tempDir(t: Teardown, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await zigbeeCommand(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join(''), err: err.join('') };
}

/**
 * zigbee2mqtt's data dir with three paired devices. Its database.db and coordinator_backup.json are herdsman's own
 * files (zigbee2mqtt writes them through herdsman), made here by pairing the devices on the fake stick.
 */
async function zigbee2mqttDir(t: Teardown, stick: FakeStick): Promise<string> {
  const pairedOn = await tempDir(t, 'hearth-z2m-pairing-');
  const z = await startZigbeeHub(t, {
    dataDir: pairedOn,
    stick,
    zigbee: `  pan_id: 6754\n  ext_pan_id: [221, 221, 221, 221, 221, 221, 221, 1]\n  network_key: [${KEY.join(', ')}]\n  channel: 11`,
  });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const key of ['bulb', 'weather', 'plug'] as const) {
    const done = waitForEvent(
      z.core,
      'zigbee_device_interviewed',
      (d) => d.ieee_address === CATALOGUE[key].ieee && d.status === 'successful',
    );
    z.stick.join(key);
    await done;
  }
  await z.th.hub.stop();
  const dir = await tempDir(t, 'hearth-z2m-');
  await copyFile(join(pairedOn, 'zigbee', 'database.db'), join(dir, 'database.db'));
  await copyFile(join(pairedOn, 'zigbee', 'coordinator_backup.json'), join(dir, 'coordinator_backup.json'));
  await writeFile(
    join(dir, 'configuration.yaml'),
    [
      'homeassistant: true',
      'mqtt:',
      '  server: mqtt://localhost',
      'serial:',
      '  port: /dev/serial/by-id/usb-Texas_Instruments_TI_CC2652R1-if00',
      '  adapter: zstack',
      'advanced:',
      '  pan_id: 6754',
      '  ext_pan_id: [221, 221, 221, 221, 221, 221, 221, 1]',
      '  network_key: !secret network_key',
      '  channel: 11',
      'devices:',
      `  '${bulb.ieee}':`,
      '    friendly_name: Living room lamp',
      `  '${weather.ieee}':`,
      '    friendly_name: Balcony',
      `  '${plug.ieee}':`,
      `    friendly_name: '${plug.ieee}'`,
      '',
    ].join('\n'),
  );
  await writeFile(join(dir, 'secret.yaml'), `network_key: [${KEY.join(', ')}]\n`);
  return dir;
}

t.test('import, then the same stick comes up with every device paired and named', async (t) => {
  const stick = new FakeStick();
  const z2m = await zigbee2mqttDir(t, stick);
  const data = await tempDir(t, 'hearth-import-data-');
  const result = await run(['import', z2m, '--data', data]);
  t.equal(result.code, 0, result.err);
  t.match(
    result.out,
    /^Imported the zigbee2mqtt network from .* PAN id 0x1a62, channel 11, 3 devices \(2 named\), stick zstack on \/dev\/serial\/by-id\/usb-Texas_Instruments_TI_CC2652R1-if00\.\n/,
  );
  t.same(JSON.parse(await readFile(join(data, 'zigbee', 'network.json'), 'utf8')), {
    pan_id: 6754,
    ext_pan_id: [221, 221, 221, 221, 221, 221, 221, 1],
    network_key: KEY,
    channel: 11,
    adapter: 'zstack',
    port: '/dev/serial/by-id/usb-Texas_Instruments_TI_CC2652R1-if00',
  });

  const z = await startZigbeeHub(t, { dataDir: data, stick });
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  t.match(
    z.logs.find((l) => /Zigbee network started/.test(l.msg))?.msg,
    'on zstack on /dev/serial/by-id/usb-Texas_Instruments_TI_CC2652R1-if00',
  );
  const listed = await z.core.services.call('zigbee', 'list_devices', {}, { returnResponse: true });
  const devices = (listed.response as { devices: { ieee_address: string; friendly_name: string; interview: string }[] }).devices;
  t.same(
    devices.map((d) => [d.friendly_name, d.ieee_address, d.interview]),
    [
      [plug.ieee, plug.ieee, 'successful'],
      ['Balcony', weather.ieee, 'successful'],
      ['Living room lamp', bulb.ieee, 'successful'],
    ],
  );
  // Each device's entities are made as it comes up, which on a loaded machine may be after permit_join.
  for (const d of [plug, weather, bulb]) await waitForState(z.core, `sensor.zigbee_${d.ieee.slice(2)}_messages`, () => true, 10_000);
  t.same(
    z.recorded.calls.map((c) => c.name).sort(),
    [plug.ieee, 'Balcony', 'Living room lamp'].sort(),
    "entity names from zigbee2mqtt's friendly names",
  );
  const backup = JSON.parse(await readFile(join(data, 'zigbee', 'coordinator_backup.json'), 'utf8')) as { network_key: { key: string } };
  t.equal(backup.network_key.key, Buffer.from(KEY).toString('hex'), 'the stick runs with the same network key');
  z.stick.report(weather.ieee, 1, 'msTemperatureMeasurement', { measuredValue: 1890 });
  await waitForState(z.core, `sensor.zigbee_${weather.ieee.slice(2)}_messages`, (s) => s.state === '1');
});

t.test('refusals: an existing network (unless --force), a directory without configuration.yaml, keys nowhere', async (t) => {
  const stick = new FakeStick();
  const z2m = await zigbee2mqttDir(t, stick);
  const data = await tempDir(t, 'hearth-import-data-');
  t.equal((await run(['import', z2m, '--data', data])).code, 0);
  const again = await run(['import', z2m, '--data', data]);
  t.equal(again.code, 1);
  t.match(
    again.err,
    /^hearth: a hearth Zigbee network already exists in .*zigbee; importing would replace it and orphan its devices \(use --force/,
  );
  const forced = await run(['import', z2m, '--data', data, '--force']);
  t.equal(forced.code, 0, forced.err);
  t.ok(
    (await readdir(data)).some((n) => n.startsWith('zigbee.replaced-')),
    'the replaced network is kept',
  );

  const empty = await tempDir(t, 'hearth-import-empty-');
  const none = await run(['import', empty, '--data', await tempDir(t, 'hearth-import-data-')]);
  t.equal(none.code, 1);
  t.match(none.err, `hearth: ${empty} has no configuration.yaml: give zigbee2mqtt's data directory`);

  // GENERATE: zigbee2mqtt's placeholders; the coordinator backup has the real values.
  const generated = await tempDir(t, 'hearth-import-generate-');
  await mkdir(generated, { recursive: true });
  await writeFile(
    join(generated, 'configuration.yaml'),
    'advanced:\n  network_key: GENERATE\n  pan_id: GENERATE\n  ext_pan_id: GENERATE\n',
  );
  const refused = await run(['import', generated, '--data', await tempDir(t, 'hearth-import-data-')]);
  t.equal(refused.code, 1);
  t.match(
    refused.err,
    /does not give the network's pan_id, ext_pan_id and network_key \(GENERATE or absent\) and there is no usable coordinator_backup\.json/,
  );
  await copyFile(join(z2m, 'coordinator_backup.json'), join(generated, 'coordinator_backup.json'));
  const fromBackup = await run(['import', generated, '--data', await tempDir(t, 'hearth-import-data-')]);
  t.equal(fromBackup.code, 0, fromBackup.err);
  t.match(fromBackup.out, /PAN id 0x1a62, channel 11, 0 devices .*\nNote: no database\.db: the devices must pair again\n/);
});

t.test('the hearth command: usage errors and help', async (t) => {
  const r = await runCli(['zigbee', 'import']);
  t.equal(r.code, 2);
  t.match(r.stderr, /hearth: missing zigbee2mqtt's data directory\n\nUsage: hearth zigbee import/);
  const help = await runCli(['zigbee', '--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, /^Usage: hearth zigbee import \[--data DIR\] \[--force\] Z2M_DATA_DIR/);
});
