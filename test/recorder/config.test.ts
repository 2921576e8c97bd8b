import t from 'tap';
import { parseRecorderSection } from '../../src/recorder/config.js';
import { tempDir } from '../storage/helpers.js';
import { HOUR, rig, START } from './recorder-rig.js';

/** The recorder's section: which entities it records, and the errors a bad key gets. */

t.test('include and exclude follow Home Assistant entity filters', async (t) => {
  const config = parseRecorderSection(
    {
      include: { domains: ['sensor'], entity_globs: ['switch.garden_*'] },
      exclude: { entities: ['sensor.noisy'], entity_globs: ['sensor.*_raw'] },
    },
    ['recorder'],
    [],
  );
  const r = await rig(t, await tempDir(t), { config });
  for (const id of ['sensor.temp', 'sensor.noisy', 'sensor.adc_raw', 'switch.garden_pump', 'switch.hall', 'light.x'])
    r.core.states.set(id, '1');
  t.same(r.recorder.entitiesDuring(START, START + HOUR).sort(), ['sensor.temp', 'switch.garden_pump']);
  t.equal(r.recorder.records('sensor.noisy'), false);
});

t.test('the config section names a bad key and what is allowed', async (t) => {
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  parseRecorderSection({ purge_keep_days: 0, commit_interval: 'soon', db_url: 'sqlite://' }, ['recorder'], issues);
  t.same(
    issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    [
      'recorder.purge_keep_days: 0 is not allowed: expected an integer from 1 to 3650',
      'recorder.commit_interval: "soon" is not allowed: expected an integer from 1 to 3600',
      // Home Assistant's database keys are accepted with a warning, never refused.
      'recorder.db_url: accepted and not honoured: hearth keeps history in its data folder, not in a database',
    ],
  );
});
