import type { Controller } from 'zigbee-herdsman';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { ZigbeeHost } from './host.js';

/**
 * The network map (zigbee2mqtt's `bridge/request/networkmap`, raw form): every node, and the links the coordinator's
 * and each router's neighbour table (ZDO LQI table) reports. Asked one device at a time; a router that does not
 * answer is listed under `failed` and the map is drawn from the others. End devices keep no neighbour table.
 */

/** ZDO neighbour relationship values. */
const RELATIONSHIPS = ['parent', 'child', 'sibling', 'none', 'previous_child'] as const;

export async function networkMap(driver: ZigbeeHost, controller: Controller): Promise<JsonObject> {
  const nodes: JsonValue[] = [];
  const links: JsonValue[] = [];
  const failed: JsonValue[] = [];
  for (const device of controller.getDevicesIterator()) {
    const ieee = device.ieeeAddr;
    const coordinator = device.type === 'Coordinator';
    nodes.push({
      ieee_address: ieee,
      friendly_name: coordinator ? 'Coordinator' : driver.devices.nameOf(ieee),
      type: device.type,
      network_address: device.networkAddress,
      model: coordinator ? null : (driver.devices.get(ieee)?.model ?? null),
      link_quality: device.linkquality ?? null,
      available: coordinator ? true : driver.availability.isAvailable(ieee),
    });
    if (device.type === 'EndDevice') continue;
    try {
      const table = await device.lqi();
      // A table is bounded by the stack (a few dozen entries); keep no more than that from a confused device.
      for (const n of table.slice(0, 256)) {
        links.push({
          source: n.eui64,
          source_network_address: n.nwkAddress,
          target: ieee,
          lqi: n.lqi,
          depth: n.depth,
          relationship: RELATIONSHIPS[n.relationship] ?? 'none',
        });
      }
    } catch (err) {
      failed.push({
        ieee_address: ieee,
        friendly_name: driver.devices.nameOf(ieee),
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return { nodes, links, failed };
}
