import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ImportRefused, importZigbee2mqtt } from '../../../drivers/zigbee/z2m-import.js';
import type { Teardown } from '../../helpers/hub.js';

// `hearth zigbee import` refuses a configuration whose network differs from the coordinator backup's, naming both,
// and reports a corrupt database.db line (its number, kept aside) rather than copying it silently.

const KEY = [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13];
const EXT = [221, 221, 221, 221, 221, 221, 221, 1];
const hex = (bytes: number[]) => Buffer.from(bytes).toString('hex');

async function tempDir(t: Teardown, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** herdsman's unified coordinator backup, as zigbee2mqtt keeps it beside its configuration. */
function backup(panId: number): string {
  return JSON.stringify({
    metadata: { format: 'zigpy/open-coordinator-backup', version: 1, source: 'zigbee-herdsman@10.9.5', internal: {} },
    stack_specific: {},
    coordinator_ieee: '00124b0000c0ffee',
    pan_id: panId.toString(16).padStart(4, '0'),
    extended_pan_id: hex(EXT),
    nwk_update_id: 0,
    security_level: 5,
    channel: 11,
    channel_mask: [11],
    network_key: { key: hex(KEY), sequence_number: 0, frame_counter: 1000 },
    devices: [],
  });
}

const DEVICE = (id: number, ieee: string) =>
  JSON.stringify({ id, type: 'Router', ieeeAddr: ieee, nwkAddr: 0x1000 + id, manufId: 4476, interviewCompleted: true, endpoints: {} });

async function z2mDir(t: Teardown, panId: number, backupPan: number, database: string): Promise<string> {
  const dir = await tempDir(t, 'hearth-z2m-');
  await writeFile(
    join(dir, 'configuration.yaml'),
    `serial:\n  port: /dev/ttyACM0\n  adapter: zstack\nadvanced:\n  pan_id: ${panId}\n  ext_pan_id: [${EXT.join(', ')}]\n  network_key: [${KEY.join(', ')}]\n  channel: 11\n`,
  );
  await writeFile(join(dir, 'coordinator_backup.json'), backup(backupPan));
  await writeFile(join(dir, 'database.db'), database);
  return dir;
}

const GOOD_DB = `${[
  JSON.stringify({ id: 1, type: 'Coordinator', ieeeAddr: '0x00124b0000c0ffee', nwkAddr: 0, endpoints: {} }),
  DEVICE(2, '0x000d6ffffe1a2b3c'),
  DEVICE(3, '0xa4c138f0e1d2c3b4'),
].join('\n')}\n`;

t.test('a configuration whose PAN id differs from the coordinator backup is refused, naming both', async (t) => {
  const z2m = await z2mDir(t, 6754, 6755, GOOD_DB);
  const data = await tempDir(t, 'hearth-import-data-');
  const err = await importZigbee2mqtt(z2m, data, false).catch((e: unknown) => e);
  t.ok(err instanceof ImportRefused, 'refused');
  t.match(
    String((err as Error).message),
    /configuration\.yaml advanced\.pan_id 6754 \(0x1a62\) differs from coordinator_backup\.json's pan_id 6755 \(0x1a63\)/,
  );
  await t.rejects(readFile(join(data, 'zigbee', 'network.json')), 'nothing written');
  const same = await importZigbee2mqtt(await z2mDir(t, 6754, 6754, GOOD_DB), data, false);
  t.equal(same.network.pan_id, 6754, 'the same PAN id imports');
  t.equal(same.devices, 2);
  t.same(same.notes, []);
});

t.test('a corrupt database.db line is reported by number and kept aside; the readable lines are imported', async (t) => {
  const lines = GOOD_DB.trimEnd().split('\n');
  const corrupt = [lines[0], lines[1], '{"id":3,"type":"Router","ieeeAddr":"0xa4c1', lines[2], 'not json at all'].join('\n');
  const z2m = await z2mDir(t, 6754, 6754, `${corrupt}\n`);
  const data = await tempDir(t, 'hearth-import-data-');
  const summary = await importZigbee2mqtt(z2m, data, false);
  const aside = join(data, 'zigbee', 'database.db.import-rejected');
  t.same(summary.notes, [
    `database.db lines 3, 5 are not readable herdsman records: not imported, kept aside in ${aside} (the 3 readable lines were imported)`,
  ]);
  t.equal(summary.devices, 2);
  t.equal(await readFile(join(data, 'zigbee', 'database.db'), 'utf8'), GOOD_DB, 'only the readable lines');
  t.equal(await readFile(aside, 'utf8'), '3\t{"id":3,"type":"Router","ieeeAddr":"0xa4c1\n5\tnot json at all\n');
});

t.test("zigbee2mqtt's group names come along, into each group's meta in database.db", async (t) => {
  const group = (id: number, groupID: number) =>
    JSON.stringify({ id, type: 'Group', groupID, members: [{ deviceIeeeAddr: '0x000d6ffffe1a2b3c', endpointID: 1 }], meta: {} });
  const z2m = await z2mDir(t, 6754, 6754, `${GOOD_DB}${group(4, 1)}\n${group(5, 7)}\n`);
  const config = await readFile(join(z2m, 'configuration.yaml'), 'utf8');
  await writeFile(join(z2m, 'configuration.yaml'), `${config}groups: groups.yaml\n`);
  await writeFile(join(z2m, 'groups.yaml'), `'1':\n  friendly_name: Living room\n'__proto__':\n  friendly_name: Odd\n`);
  const data = await tempDir(t, 'hearth-import-data-');
  await importZigbee2mqtt(z2m, data, false);
  const rows = (await readFile(join(data, 'zigbee', 'database.db'), 'utf8'))
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; groupID?: number; meta?: unknown; members?: unknown[] });
  t.same(
    rows.filter((r) => r.type === 'Group').map((r) => [r.groupID, r.meta, r.members?.length]),
    [
      [1, { friendly_name: 'Living room' }, 1],
      [7, {}, 1],
    ],
    'the named group has its name, the other is as it was',
  );
});
