import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { ParsedConfigCache } from '../../src/cli/config-cache.js';
import { readConfigOrReport } from '../../src/cli/config-problems.js';
import { REQUIRED_SECTIONS, SECTION_VALIDATORS } from '../../src/sections.js';
import type { Teardown } from '../helpers/hub.js';

/**
 * serve keeps the configuration's YAML, parsed, for the next start (src/cli/config-cache.ts): a start with the same
 * text reads what was kept; any other text, a text with tags, a kept file that is damaged or that does not validate
 * is read from the YAML as before, with every problem where it is in the file.
 */

async function setup(t: Teardown): Promise<{ dataDir: string; configFile: string; kept: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-config-cache-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return {
    dataDir: join(dir, 'data'),
    configFile: join(dir, 'configuration.yaml'),
    kept: join(dir, 'data', 'code-cache', 'parsed-config.json'),
  };
}

const out = { write: () => true };

/** One serve start's read of the configuration, then the write serve does once it serves. */
async function start(dataDir: string, configFile: string) {
  const cache = ParsedConfigCache.in(dataDir);
  const config = await readConfigOrReport(configFile, SECTION_VALIDATORS, out, REQUIRED_SECTIONS, cache);
  await cache.save();
  return config;
}

const TEXT = 'hub:\n  name: Cottage\nvirtual:\n  - platform: light\n    id: porch\n    name: Porch\n';

t.test('a start with the same text reads what the previous one kept, and validates it', async (t) => {
  const { dataDir, configFile, kept } = await setup(t);
  await writeFile(configFile, TEXT);
  const first = await start(dataDir, configFile);
  t.equal(first?.hub.name, 'Cottage');
  t.same(first?.problems, []);
  t.ok(existsSync(kept), 'the parsed configuration is kept in the data directory');
  const again = await start(dataDir, configFile);
  t.same(again, first, 'the same configuration as from the YAML');

  // What is read is the kept JSON: changed behind the hub's back, the change shows.
  const file = JSON.parse(await readFile(kept, 'utf8'));
  file.root.hub.name = 'Kept';
  await writeFile(kept, JSON.stringify(file));
  t.equal((await start(dataDir, configFile))?.hub.name, 'Kept');
});

t.test('another text is parsed anew, and kept instead', async (t) => {
  const { dataDir, configFile } = await setup(t);
  await writeFile(configFile, TEXT);
  await start(dataDir, configFile);
  await writeFile(configFile, TEXT.replace('Cottage', 'Barn'));
  t.equal((await start(dataDir, configFile))?.hub.name, 'Barn');
  t.equal((await start(dataDir, configFile))?.hub.name, 'Barn');
});

t.test('a text with an exclamation mark that is no tag is kept', async (t) => {
  const { dataDir, configFile, kept } = await setup(t);
  await writeFile(configFile, TEXT.replace('Cottage', '"{{ 1 != 2 }}!"'));
  t.equal((await start(dataDir, configFile))?.hub.name, '{{ 1 != 2 }}!');
  t.ok(existsSync(kept));
});

t.test('a text with tags is never kept: what they read may change without the text', async (t) => {
  const { dataDir, configFile, kept } = await setup(t);
  await writeFile(configFile, 'hub:\n  name: !env_var HEARTH_TEST_HUB_NAME Tagged\n');
  t.equal((await start(dataDir, configFile))?.hub.name, 'Tagged');
  t.notOk(existsSync(kept));
  await writeFile(join(dataDir, '..', 'secrets.yaml'), 'hub_name: Secret\n');
  await writeFile(configFile, 'hub:\n  name: !secret hub_name\n');
  t.equal((await start(dataDir, configFile))?.hub.name, 'Secret');
  t.notOk(existsSync(kept), 'no secret is written to the data directory');
});

t.test('a kept file that is damaged, or whose content does not validate, costs only itself', async (t) => {
  const { dataDir, configFile, kept } = await setup(t);
  await writeFile(configFile, TEXT);
  await start(dataDir, configFile);
  const file = JSON.parse(await readFile(kept, 'utf8'));
  file.root.hub = { port: 'not a port' };
  await writeFile(kept, JSON.stringify(file));
  t.equal((await start(dataDir, configFile))?.hub.name, 'Cottage', 'read from the YAML, which is sound');
  t.equal((await start(dataDir, configFile))?.hub.name, 'Cottage', 'and kept anew');
  await writeFile(kept, '{"key": "torn');
  t.equal((await start(dataDir, configFile))?.hub.name, 'Cottage');
});

t.test('a problem is reported with its place in the file, as without the cache', async (t) => {
  const { dataDir, configFile, kept } = await setup(t);
  await writeFile(configFile, 'hub:\n  name: Cottage\nautomation:\n  - alias: broken\n    trigger: []\n    action: nope\n');
  const first = await start(dataDir, configFile);
  const again = await start(dataDir, configFile);
  t.notOk(existsSync(kept), 'a text with problems is not kept');
  t.ok((first?.problems.length ?? 0) > 0, 'the broken automation is a problem');
  t.same(again?.problems, first?.problems);
  t.ok(again?.problems.every((p) => p.line > 1));
});
