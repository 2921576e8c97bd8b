import type { Core } from '../../src/core/core.js';
import type { Logger } from '../../src/core/log.js';

/**
 * The one rule every driver kind follows for what it adds (GPIO, I2C, 1-Wire, serial, virtual, Zigbee), as Home
 * Assistant's entity platform: an entity id another entity holds gives the next free `_2`, `_3` (Entities.add, or
 * the entity registry); a unit whose unique id is already live, or that cannot be added for another reason, is
 * refused with one log line and leaves nothing behind (no entity, no device entry it registered, so no orphan
 * device), and the rest of the driver carries on. `make` adds one unit: an entity, a chip, a sensor with its
 * device. Returns what `make` returned, or undefined when the unit was refused.
 */
export function addOrRefuse<T>(env: { readonly core: Core; readonly log: Logger }, what: string, make: () => T): T | undefined {
  const { core } = env;
  return core.devices.createdWhile(make, (added, err) => {
    // Undo the devices this unit registered (and any entity it added to them before the failure).
    if (added.length > 0) {
      for (const e of [...core.entities.all()]) if (e.deviceId !== undefined && added.includes(e.deviceId)) core.entities.remove(e.id);
      for (const id of added) core.devices.remove(id);
    }
    env.log.error({ err, entity: what }, '%s not added: %s', what, err instanceof Error ? err.message : String(err));
    return undefined;
  });
}
