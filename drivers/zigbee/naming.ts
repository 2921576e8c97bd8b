import { slugify } from '../../src/core/entity-id.js';
import { type EntitySpec, objectIdSuffix } from './exposes.js';
import type { ZigbeeDevice } from './types.js';

/** Entity ids from the device's friendly name and zigbee2mqtt's object id (its default_entity_id rule). */
export function entityIdFor(spec: EntitySpec, deviceName: string): string {
  const suffix = objectIdSuffix(spec.kind, spec.key);
  return `${spec.kind}.${slugify(suffix === '' ? deviceName : `${deviceName}_${suffix}`)}`;
}

/** Names as Home Assistant shows a device's entities: the device's name, then the entity's own. */

export function entityName(spec: EntitySpec, deviceName: string): string {
  return spec.label === undefined ? deviceName : `${deviceName} ${spec.label}`;
}

/** The firmware as the device's basic cluster gives it: build id, with the date code when there is one. */
export function firmwareOf(device: ZigbeeDevice): string | undefined {
  const build = device.softwareBuildID?.trim();
  const date = device.dateCode?.trim();
  if (build && date) return `${build} (${date})`;
  return build || date || undefined;
}
