import type { Controller } from 'zigbee-herdsman';
import { createDeviceEntities, type ZigbeeDeviceEntities } from '../../../drivers/zigbee/device-entities.js';
import type { DeviceEntitiesHost } from '../../../drivers/zigbee/types.js';
import type { Core } from '../../../src/core/core.js';
import type { JsonObject } from '../../../src/core/json.js';
import { type Logger, silentLogger } from '../../../src/core/log.js';
import { CATALOGUE, type CatalogueKey } from '../../fixtures/zigbee/catalogue.js';
import { fakeStickController, interviewed } from '../../fixtures/zigbee/controller.js';
import { FakeStick, quietZigbeeLogs } from '../../fixtures/zigbee/fake-stick.js';
import type { Teardown } from '../../helpers/hub.js';

/**
 * herdsman's real Controller on the fake stick, with just enough glue to hand each interviewed device to the
 * device-entities factory and its messages to handleMessage, as drivers/zigbee's controller does. The tests of
 * the entities then see real Device and Endpoint objects and real ZCL frames at the stick.
 */
export interface ZigbeeNetwork {
  readonly controller: Controller;
  readonly stick: FakeStick;
  readonly host: DeviceEntitiesHost;
  /** Per-device options, as the `zigbee: devices:` config would give them. */
  readonly options: Record<string, JsonObject>;
  /** Joins a catalogue device, waits for its interview and makes its entities. */
  pair(key: CatalogueKey, name: string): Promise<ZigbeeDeviceEntities>;
}

export async function startZigbeeNetwork(t: Teardown, core: Core, log: Logger = silentLogger): Promise<ZigbeeNetwork> {
  await quietZigbeeLogs();
  const stick = new FakeStick();
  const { controller, dir } = await fakeStickController(t, stick, 'hearth-zigbee-devices-');
  await controller.start();
  await controller.permitJoin(254);
  core.devices.register({ identifiers: [['zigbee', stick.coordinatorIeee]], name: 'Zigbee coordinator', owner: 'zigbee' });
  const options: Record<string, JsonObject> = {};
  const host: DeviceEntitiesHost = {
    ctx: { core, log, owner: 'zigbee', dataDir: dir },
    coordinator: ['zigbee', stick.coordinatorIeee],
    deviceOptions: (ieee) => options[ieee] ?? {},
  };
  const byIeee = new Map<string, ZigbeeDeviceEntities>();
  controller.on('message', (m) => byIeee.get(m.device.ieeeAddr)?.handleMessage(m));
  return {
    controller,
    stick,
    host,
    options,
    async pair(key, name) {
      const sim = CATALOGUE[key];
      const done = interviewed(controller, sim.ieee);
      stick.join(key);
      const event = await done;
      if (event.status !== 'successful') throw new Error(`interview of ${key} failed`);
      const entities = (await createDeviceEntities(host, event.device, name)) as ZigbeeDeviceEntities;
      byIeee.set(sim.ieee, entities);
      return entities;
    },
  };
}
