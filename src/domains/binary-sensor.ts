import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Domain } from './domain.js';

/** Home Assistant's BinarySensorDeviceClass values; they change how a frontend words on/off, not the state. */
export const BINARY_SENSOR_DEVICE_CLASSES = [
  'battery',
  'battery_charging',
  'carbon_monoxide',
  'cold',
  'connectivity',
  'door',
  'garage_door',
  'gas',
  'heat',
  'light',
  'lock',
  'moisture',
  'motion',
  'moving',
  'occupancy',
  'opening',
  'plug',
  'power',
  'presence',
  'problem',
  'running',
  'safety',
  'smoke',
  'sound',
  'tamper',
  'update',
  'vibration',
  'window',
] as const;
export type BinarySensorDeviceClass = (typeof BINARY_SENSOR_DEVICE_CLASSES)[number];

export interface BinarySensorOptions extends Omit<EntityInit<null>, 'fixed' | 'platform'> {
  readonly deviceClass?: BinarySensorDeviceClass;
  readonly icon?: string;
}

export interface BinarySensorHandle {
  readonly entity: Entity<null>;
  /** The state is `on` or `off` only (a door that is open is `on`); null is `unknown`. */
  report(on: boolean | null): void;
}

export function addBinarySensor(core: Core, options: BinarySensorOptions): BinarySensorHandle {
  const { deviceClass, icon, ...init } = options;
  const fixed: Record<string, JsonValue> = {};
  if (deviceClass !== undefined) fixed.device_class = deviceClass;
  if (icon !== undefined) fixed.icon = icon;
  const entity = core.entities.add({ ...init, platform: null, fixed });
  return {
    entity,
    report(on) {
      entity.report(on === null ? null : on ? 'on' : 'off');
    },
  };
}

/** Binary sensors only report; they have no services. */
export const binarySensorDomain: Domain = {
  name: 'binary_sensor',
  published: true,
  adopted: true,
  registerServices() {},
};
