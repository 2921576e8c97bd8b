import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { CATALOGUE } from '../../fixtures/zigbee/catalogue.js';
import { FakeStick } from '../../fixtures/zigbee/fake-stick.js';
import { startZigbeeHub, until, waitForEvent, type ZigbeeHub } from '../../fixtures/zigbee/harness.js';
import type { Teardown } from '../../helpers/hub.js';
import { waitForState } from '../../helpers/wait.js';

// Network settings generated once and kept; recovered from the coordinator backup; a corrupt database.db.

async function dataDir(t: Teardown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function started(z: ZigbeeHub): Promise<void> {
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
}

async function pairAll(z: ZigbeeHub, keys: readonly ('bulb' | 'weather' | 'plug')[]): Promise<void> {
  await z.core.services.call('zigbee', 'permit_join', {});
  for (const key of keys) {
    const done = waitForEvent(
      z.core,
      'zigbee_device_interviewed',
      (d) => d.ieee_address === CATALOGUE[key].ieee && d.status === 'successful',
    );
    z.stick.join(key);
    await done;
  }
}

t.test('generated on the first start with crypto randomness, kept on the next', async (t) => {
  const dir = await dataDir(t);
  const stick = new FakeStick();
  const z1 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z1);
  const first = JSON.parse(await readFile(join(dir, 'zigbee', 'network.json'), 'utf8')) as {
    pan_id: number;
    ext_pan_id: number[];
    network_key: number[];
  };
  t.equal(first.network_key.length, 16);
  t.equal(first.ext_pan_id.length, 8);
  t.ok(first.pan_id >= 1 && first.pan_id <= 0xfffe);
  t.notSame(first.network_key, [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13], "not herdsman's well-known default key");
  t.match(
    z1.logs.find((l) => /generated a new Zigbee network/.test(l.msg)),
    { level: 'info' },
  );
  await pairAll(z1, ['bulb']);
  await z1.th.hub.stop();

  const z2 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z2);
  t.same(JSON.parse(await readFile(join(dir, 'zigbee', 'network.json'), 'utf8')), first, 'the same settings');
  t.notOk(
    z2.logs.some((l) => /generated/.test(l.msg)),
    'nothing generated',
  );
  t.same(
    z2.recorded.calls.map((c) => c.ieee),
    [CATALOGUE.bulb.ieee],
    "the paired bulb's entities are made at start",
  );
  await until(() => z2.recorded.calls.length === 1, 'the bulb');
  await z2.th.hub.stop();

  // network.json lost: recovered from coordinator_backup.json, never regenerated.
  await rm(join(dir, 'zigbee', 'network.json'));
  const z3 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z3);
  t.same(
    JSON.parse(await readFile(join(dir, 'zigbee', 'network.json'), 'utf8')),
    { ...first, channel: 11 },
    'recovered from the coordinator backup',
  );
  await z3.th.hub.stop();

  // Both lost while the database exists: an error, nothing generated, the hub runs on.
  await rm(join(dir, 'zigbee', 'network.json'));
  await rm(join(dir, 'zigbee', 'coordinator_backup.json'));
  const z4 = await startZigbeeHub(t, { dataDir: dir, stick });
  await until(() => z4.logs.some((l) => l.level === 'error'), 'the error');
  t.match(
    z4.logs.find((l) => l.level === 'error')?.msg,
    /network settings .*network\.json are missing but the network database .*database\.db exists/,
  );
  t.notOk((await readdir(join(dir, 'zigbee'))).includes('network.json'), 'no new keys written');
  t.equal(z4.core.states.get('switch.zigbee_permit_join')?.state, 'unavailable');
});

t.test('settings given in the config win; the adapter gets them', async (t) => {
  const z = await startZigbeeHub(t, {
    zigbee:
      '  channel: 15\n  pan_id: 0x1a62\n  ext_pan_id: "dd:dd:dd:dd:dd:dd:dd:01"\n  network_key: [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14]',
  });
  await started(z);
  const backup = JSON.parse(await readFile(join(z.th.dataDir, 'zigbee', 'coordinator_backup.json'), 'utf8')) as Record<string, unknown>;
  t.match(backup, {
    pan_id: '1a62',
    extended_pan_id: 'dddddddddddddd01',
    channel: 15,
    network_key: { key: '01030507090b0d0f00020406080a0c0e' },
  });
});

t.test('a corrupt database.db: moved aside, one error, the readable devices kept, the network starts', async (t) => {
  const dir = await dataDir(t);
  const stick = new FakeStick();
  const z1 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z1);
  await pairAll(z1, ['bulb', 'weather']);
  await z1.th.hub.stop();

  const database = join(dir, 'zigbee', 'database.db');
  const lines = (await readFile(database, 'utf8')).split('\n').filter((l) => l !== '');
  const weatherLine = lines.findIndex((l) => l.includes(CATALOGUE.weather.ieee));
  lines[weatherLine] = `${lines[weatherLine]?.slice(0, 40)}\u0000\u0000`;
  await writeFile(database, `${lines.join('\n')}\n`);
  const z2 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z2);
  const errors = z2.logs.filter((l) => l.level === 'error');
  t.equal(errors.length, 1, 'one error');
  t.match(
    errors[0]?.msg,
    /Zigbee network database .*database\.db was corrupt \(1 unreadable line\); moved aside to .*database\.db\.corrupt-/,
  );
  t.ok((await readdir(join(dir, 'zigbee'))).some((n) => n.startsWith('database.db.corrupt-')));
  await until(() => z2.recorded.calls.length === 1, 'the bulb');
  t.same(
    z2.recorded.calls.map((c) => c.ieee),
    [CATALOGUE.bulb.ieee],
  );
  await z2.th.hub.stop();

  await writeFile(database, 'garbage\n\u0000\u0000\u0000');
  await appendFile(database, '{"not":"a row"}\n');
  const z3 = await startZigbeeHub(t, { dataDir: dir, stick });
  await started(z3);
  t.match(z3.logs.find((l) => l.level === 'error')?.msg, /starting with an empty database/);
  t.equal(z3.recorded.calls.length, 0);
});
