import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { parseConfigText } from '../../src/config/load.js';
import type { HubConfig } from '../../src/config/types.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DOMAINS } from '../../src/domains/index.js';
import { Helpers, type HelperYaml } from '../../src/helpers/index.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { FlakyDisk, tempDir, watchedLogger } from '../storage/helpers.js';

/** The helpers' YAML items and reload of a loaded configuration, as the hub hands them over. */
function yamlOf(config: HubConfig): { yaml: HelperYaml; reloadConfig: () => Promise<HubConfig> } {
  return { yaml: Object.fromEntries(config.parsed) as HelperYaml, reloadConfig: async () => config };
}

t.test('a full disk: the helper is made and works, one error is logged, and the file is written when the disk recovers', async (t) => {
  const log = watchedLogger();
  const core = new Core({ log, clock: new ManualClock() });
  for (const domain of DOMAINS) domain.registerServices(core);
  const dataDir = await tempDir(t);
  const disk = new FlakyDisk();
  const config = parseConfigText('hub: {name: Test}\n', null, SECTION_VALIDATORS);
  const helpers = new Helpers({ core, ...yamlOf(config), dataDir, log, writeFile: disk.writeFile });
  await helpers.start();
  const counters = helpers.collection('counter');
  if (counters === undefined) throw new Error('no counter collection');

  disk.failWith = 'ENOSPC';
  counters.create({ name: 'Coffees' });
  await disk.until(() => disk.failed === 1, 'the first failed write');
  await log.until('error', /ENOSPC|disk is full/i);
  await core.services.call('counter', 'increment', { entity_id: 'counter.coffees' });
  t.equal(core.states.get('counter.coffees')?.state, '1', 'the helper works from memory');
  counters.create({ name: 'Teas' });
  t.same(
    counters.list().map((i) => i.id),
    ['coffees', 'teas'],
  );
  t.equal(log.matching('error', /ENOSPC|disk is full/i).length, 1, 'logged once');

  disk.failWith = undefined;
  await helpers.stop();
  const saved = JSON.parse(await readFile(join(dataDir, 'helpers', 'counter.json'), 'utf8'));
  t.same(
    saved.data.items.map((i: { id: string }) => i.id),
    ['coffees', 'teas'],
    'the latest content is written, once the disk takes it',
  );
});

t.test('an unreadable helpers file is left alone: its helpers are missing and changes are refused, the rest works', async (t) => {
  const log = watchedLogger();
  const core = new Core({ log, clock: new ManualClock() });
  for (const domain of DOMAINS) domain.registerServices(core);
  const dataDir = await tempDir(t);
  // A directory where the file should be: reading it fails (EISDIR) as an unreadable disk would.
  await mkdir(join(dataDir, 'helpers', 'counter.json'), { recursive: true });
  const config = parseConfigText('hub: {name: Test}\ncounter:\n  from_yaml: {}\n', null, SECTION_VALIDATORS);
  const helpers = new Helpers({ core, ...yamlOf(config), dataDir, log });
  await helpers.start();
  t.teardown(() => helpers.stop());
  await log.until('error', /counter\.json could not be read \(EISDIR\)/);
  t.ok(core.states.get('counter.from_yaml'), 'YAML counters are there');
  t.throws(() => helpers.collection('counter')?.create({ name: 'New' }), {
    message: /could not be read \(EISDIR\); fix it and restart before changing counter helpers/,
  });
  helpers.collection('timer')?.create({ name: 'Tea' });
  t.ok(core.states.get('timer.tea'), 'other helpers can still be made');
});

t.test('a Home Assistant .storage file copied in loads (its null keys are absent ones)', async (t) => {
  const core = new Core({ log: watchedLogger(), clock: new ManualClock() });
  for (const domain of DOMAINS) domain.registerServices(core);
  const dataDir = await tempDir(t);
  await mkdir(join(dataDir, 'helpers'), { recursive: true });
  const ha = {
    version: 1,
    minor_version: 1,
    key: 'counter',
    data: {
      items: [
        { id: 'laundry', name: 'Laundry', icon: 'mdi:washing-machine', initial: 0, step: 1, minimum: null, maximum: null, restore: true },
      ],
    },
  };
  await writeFile(join(dataDir, 'helpers', 'counter.json'), JSON.stringify(ha));
  const helpers = new Helpers({
    core,
    ...yamlOf(parseConfigText('hub: {name: Test}\n', null, SECTION_VALIDATORS)),
    dataDir,
    log: silentLogger,
  });
  await helpers.start();
  t.teardown(() => helpers.stop());
  t.same(core.states.get('counter.laundry')?.attributes, {
    icon: 'mdi:washing-machine',
    friendly_name: 'Laundry',
    editable: true,
    initial: 0,
    step: 1,
  });
});
