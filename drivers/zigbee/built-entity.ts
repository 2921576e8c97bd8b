import type { Entity } from '../../src/core/entities.js';
import type { EntitySpec } from './exposes.js';

/** What the entity builders share: the device state, the link to the device, an entity's identity and handle. */

/** A device's state as the converters keep it (zigbee2mqtt's state cache): property to value. */
export type DeviceState = Record<string, unknown>;

/** How an entity's platform reaches its device: key/value pairs for the toZigbee converters (publish.ts's message). */
export interface DeviceLink {
  send(message: Record<string, unknown>, endpoint: string | undefined): Promise<void>;
}

export interface EntityIdentity {
  readonly entityId: string;
  readonly name: string;
  readonly uniqueId: string;
  readonly deviceId: string;
  readonly owner: string;
}

/** A hearth entity made from an expose, rendered again from the device state whenever one of its properties changes. */
export interface BuiltEntity {
  readonly spec: EntitySpec;
  readonly entity: Entity;
  render(state: DeviceState): void;
}
