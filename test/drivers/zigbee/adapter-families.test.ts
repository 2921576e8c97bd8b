import t from 'tap';
import { ZIGBEE_ADAPTERS } from '../../../drivers/zigbee/config.js';
import { createDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import { CATALOGUE, type CatalogueKey } from '../../fixtures/zigbee/catalogue.js';
import { startZigbeeHub, waitForEvent } from '../../fixtures/zigbee/harness.js';
import { waitForState } from '../../helpers/wait.js';
import { checkDevice } from './ha-mapping-check.js';
import { CATALOGUE_PLUG, MAPPED_DEVICES, type MappedDevice } from './ha-mapping-table.js';

// For each adapter family hearth drives, every fixture device pairs through herdsman's Controller (the fake stick at
// the bus boundary, the real interview) and its entities match the table derived from zigbee2mqtt's mapping.

const byModel = (model: string): MappedDevice => {
  const d = model === CATALOGUE_PLUG.model ? CATALOGUE_PLUG : MAPPED_DEVICES.find((m) => m.model === model);
  if (d === undefined) throw new Error(`no table entry for ${model}`);
  return d;
};

for (const adapter of ZIGBEE_ADAPTERS) {
  t.test(`${adapter}: the fixture devices pair and map as zigbee2mqtt maps them`, async (t) => {
    const keys = Object.keys(CATALOGUE) as CatalogueKey[];
    const names = keys.map((k) => `    '${CATALOGUE[k].ieee}': {friendly_name: ${byModel(CATALOGUE[k].expectedModel).name}}`);
    const z = await startZigbeeHub(t, {
      zigbee: [`  adapter: ${adapter}`, '  port: /dev/ttyACM0', '  ota: {check_interval: 0}', '  devices:', ...names].join('\n'),
      factory: createDeviceEntities,
    });
    await waitForState(z.core, 'switch.zigbee_permit_join', (s) => s.state === 'off');
    await z.core.services.call('zigbee', 'permit_join', {});
    for (const key of keys) {
      const sim = CATALOGUE[key];
      const done = waitForEvent(z.core, 'zigbee_device_interviewed', (d) => d.ieee_address === sim.ieee && d.status === 'successful');
      z.stick.join(key);
      const event = await done;
      t.equal(event.data.model, sim.expectedModel, `${key} resolves to ${sim.expectedModel}`);
      const registry = z.th.hub.registries.entities;
      // Disabled ones too (enabled_by_default false): the registry lists them, the state table does not.
      const entities = [...registry.entries()]
        .filter((e) => e.unique_id.startsWith(`${sim.ieee}_`))
        .map((e) => z.core.entities.find(e.entity_id))
        .filter((e) => e !== undefined);
      checkDevice(t, byModel(sim.expectedModel), sim.ieee, entities, (id) => z.core.entities.find(id), registry, `${adapter} ${key}`);
    }
  });
}
