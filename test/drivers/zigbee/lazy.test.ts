import { createRequire } from 'node:module';
import t from 'tap';
import { startTestHub } from '../../helpers/hub.js';
import { waitForState } from '../../helpers/wait.js';

// herdsman and the converters (about 80 MB) load only for a hub with a `zigbee:` section. This file imports nothing
// of them at the top, so the process's module cache shows what a hub loads by itself.

const require = createRequire(import.meta.url);
const zigbeeModules = (): string[] => Object.keys(require.cache).filter((p) => /zigbee-herdsman/.test(p));

t.test('a hub without zigbee: never loads herdsman or the converters; one with it does', async (t) => {
  const plain = await startTestHub(t);
  await waitForState(plain.hub.core, 'light.kitchen', () => true);
  t.same(zigbeeModules(), [], 'nothing of zigbee-herdsman(-converters) loaded');
  await plain.hub.stop();

  const { startZigbeeHub } = await import('../../fixtures/zigbee/harness.js');
  const z = await startZigbeeHub(t);
  await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
  const loaded = zigbeeModules();
  t.ok(
    loaded.some((p) => p.includes('/zigbee-herdsman/dist/controller/controller.js')),
    'herdsman loaded',
  );
  t.ok(
    loaded.some((p) => p.includes('/zigbee-herdsman-converters/dist/index.js')),
    'the converters loaded',
  );
});
