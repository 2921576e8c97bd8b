// The bridge's storage driver over matter.js's own file driver: a bridged endpoint's behaviour values stay in memory,
// everything else (the endpoint's number, the node's own state) goes to files, and the attribute files an earlier
// version wrote are removed when it opens.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { silentLogger } from '../../src/core/log.js';
import { bridgeStorageDriver, isBridgedValues, type KvDriver } from '../../src/matter/bridge-storage.js';
import { loadMatter } from '../../src/matter/lib.js';
import { filesUnder } from './data-files.js';

// Through a string, as src/matter/lib.ts does: matter.js's declarations need the DOM's types.
const MATTER_NODEJS: string = '@matter/nodejs';
type FileDriverClass = (new (pathOrNamespace: unknown) => KvDriver) & { create(pathOrNamespace: unknown): Promise<KvDriver> };

const ENDPOINT = ['root', 'parts', 'aggregator', 'parts', 'light-kitchen'];
const ON_OFF = [...ENDPOINT, 'onOff'];

await loadMatter(silentLogger); // matter.js's process-wide configuration first, as the bridge sets it
const { FileStorageDriver } = (await import(MATTER_NODEJS)) as { FileStorageDriver: FileDriverClass };
const BridgeDriver = bridgeStorageDriver(FileStorageDriver);

async function tempDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-matter-storage-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

t.test('which contexts hold bridged values', async (t) => {
  t.ok(isBridgedValues(ON_OFF), "a bridged endpoint's behaviour");
  t.ok(isBridgedValues([...ENDPOINT, 'parts', 'child', 'levelControl']), "a child part's behaviour");
  t.notOk(isBridgedValues(ENDPOINT), "the endpoint's own keys (its __number__)");
  t.notOk(isBridgedValues([...ENDPOINT, 'parts', 'child']), "a child part's own keys");
  t.notOk(isBridgedValues(['root', 'parts', 'aggregator', 'descriptor']), "the aggregator's behaviours");
  t.notOk(isBridgedValues(['root', 'operationalCredentials']), "the node's own state (fabrics)");
  t.notOk(isBridgedValues(['root', 'parts', 'other', 'parts', 'x', 'onOff']), 'an endpoint outside the aggregator');
});

t.test('bridged values stay in memory, the rest goes to files', async (t) => {
  const dir = await tempDir(t);
  const driver = await BridgeDriver.create(dir);
  await driver.set(ON_OFF, 'onOff', true);
  await driver.set(ON_OFF, { startUpOnOff: null, globalSceneControl: true });
  await driver.set(ENDPOINT, '__number__', 7);
  await driver.set(['root', 'operationalCredentials'], 'fabrics', [{ index: 1 }]);
  t.same(
    [...(await filesUnder(dir)).keys()].sort(),
    ['root.operationalCredentials.fabrics', 'root.parts.aggregator.parts.light-kitchen.__number__'],
    'files only for the endpoint number and the fabrics',
  );
  t.equal(await driver.get(ON_OFF, 'onOff'), true);
  t.ok(await driver.has(ON_OFF, 'globalSceneControl'));
  t.same((await driver.keys(ON_OFF)).sort(), ['globalSceneControl', 'onOff', 'startUpOnOff']);
  t.same({ ...(await driver.values(ON_OFF)) }, { onOff: true, startUpOnOff: null, globalSceneControl: true });
  t.same(await driver.contexts(ENDPOINT), ['onOff'], "the behaviour is among the endpoint's contexts");
  await driver.delete(ON_OFF, 'onOff');
  t.notOk(await driver.has(ON_OFF, 'onOff'), 'deleted');

  const reopened = await BridgeDriver.create(dir);
  t.equal(await reopened.get(ENDPOINT, '__number__'), 7, 'the endpoint number survives a restart');
  t.same(await reopened.get(['root', 'operationalCredentials'], 'fabrics'), [{ index: 1 }], 'so do the fabrics');
  t.equal(await reopened.get(ON_OFF, 'globalSceneControl'), undefined, 'the attribute values do not: the bridge sets them');
});

t.test('clearing an endpoint clears its values in memory and its files', async (t) => {
  const dir = await tempDir(t);
  const driver = await BridgeDriver.create(dir);
  await driver.set(ON_OFF, 'onOff', true);
  await driver.set(ENDPOINT, '__number__', 7);
  await driver.clearAll(ENDPOINT);
  t.equal(await driver.get(ON_OFF, 'onOff'), undefined);
  t.equal(await driver.get(ENDPOINT, '__number__'), undefined);
  t.same([...(await filesUnder(dir)).keys()], [], 'no file left');
});

t.test('attribute files an earlier version wrote are removed when the storage opens', async (t) => {
  const dir = await tempDir(t);
  const plain = await FileStorageDriver.create(dir);
  await plain.set(ON_OFF, 'onOff', true);
  await plain.set([...ENDPOINT, 'parts', 'child', 'levelControl'], 'currentLevel', 3);
  await plain.set(ENDPOINT, '__number__', 7);
  await BridgeDriver.create(dir);
  t.same([...(await filesUnder(dir)).keys()], ['root.parts.aggregator.parts.light-kitchen.__number__'], 'only the endpoint number is left');
});
