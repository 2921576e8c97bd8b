import t from 'tap';
import { parseConfigText, readConfigText } from '../../src/config/load.js';
import type { HubConfig } from '../../src/config/types.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { DOMAINS } from '../../src/domains/index.js';
import { Helpers, type HelperYaml } from '../../src/helpers/index.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { tempDir } from '../storage/helpers.js';

const config = (yaml: string): HubConfig => parseConfigText(`hub: {name: Test}\n${yaml}`, null, SECTION_VALIDATORS);

t.test('<helper>.reload: YAML helpers are added, changed (keeping their state) and removed; stored ones stay', async (t) => {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  for (const domain of DOMAINS) domain.registerServices(core);
  let next: () => HubConfig = () => config('');
  const helpers = new Helpers({
    core,
    yaml: Object.fromEntries(config('input_number:\n  level: {min: 0, max: 10}\n  gone: {min: 0, max: 1}\n').parsed) as HelperYaml,
    dataDir: await tempDir(t),
    log: silentLogger,
    reloadConfig: async () => next(),
  });
  await helpers.start();
  t.teardown(() => helpers.stop());
  helpers.collection('input_number')?.create({ name: 'Stored', min: 0, max: 5 });
  await core.services.call('input_number', 'set_value', { entity_id: 'input_number.level', value: 7 });

  next = () => config('input_number:\n  level: {name: Level, min: 5, max: 20, step: 5}\n  fresh: {min: 1, max: 2}\n');
  await core.services.call('input_number', 'reload', {});
  const level = core.states.get('input_number.level');
  t.equal(level?.state, '7.0', 'a changed helper keeps its value');
  t.same([level?.attributes.friendly_name, level?.attributes.min, level?.attributes.step], ['Level', 5, 5]);
  t.equal(core.states.get('input_number.gone'), undefined, 'a helper no longer in the file is removed');
  t.equal(core.states.get('input_number.fresh')?.state, '1.0', 'a new one is added');
  t.ok(core.states.get('input_number.stored'), 'stored helpers are not touched');

  // A broken helper is left out alone and named; the others are reloaded (the file read as `serve` reads it).
  next = () =>
    readConfigText('hub: {name: Test}\ninput_number:\n  level: {min: 9, max: 1}\n  fresh: {min: 1, max: 3}\n', null, SECTION_VALIDATORS);
  await core.services.call('input_number', 'reload', {});
  t.equal(core.states.get('input_number.level'), undefined, 'the broken helper is left out');
  t.equal(core.states.get('input_number.fresh')?.attributes.max, 3, 'the others are reloaded');
  t.match(
    core.notifications.get('input_number_reload_invalid_config')?.message,
    /input_number\.level: <config>:3:24: .*Maximum \(1\) is not greater than minimum \(9\)/,
  );
  next = () => config('input_number:\n  fresh: {min: 1, max: 2}\n');
  await core.services.call('input_number', 'reload', {});
  t.equal(core.notifications.get('input_number_reload_invalid_config'), undefined, 'a clean reload dismisses it');
  next = () => {
    throw new Error('configuration.yaml:3: YAML syntax error');
  };
  await t.rejects(core.services.call('input_number', 'reload', {}), { message: /Cannot reload input_number: .*YAML syntax error/ });
});
