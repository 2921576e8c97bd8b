import { slugify } from '../../src/core/entity-id.js';
import type { EntitySpec } from './exposes.js';
import type { ZigbeeDevice } from './types.js';

/** Entity ids and names from the device's friendly name, as Home Assistant names a device's entities. */
export function entityIdFor(spec: EntitySpec, deviceName: string): string {
  return `${spec.kind}.${slugify(spec.label === undefined ? deviceName : `${deviceName} ${spec.label}`)}`;
}

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
