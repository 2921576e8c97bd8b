import type { ZigbeeDevice } from './types.js';

/** The converters and herdsman's models, loaded when the first device needs them (never for a hub without `zigbee:`). */

export type Converters = typeof import('zigbee-herdsman-converters');
let converters: Promise<Converters> | undefined;

export function loadConverters(): Promise<Converters> {
  converters ??= import('zigbee-herdsman-converters');
  return converters;
}

type ZigbeeEndpoint = ZigbeeDevice['endpoints'][number];

/** herdsman's coordinator endpoint, which configure() binds devices to (zigbee2mqtt's firstCoordinatorEndpoint). */
export async function coordinatorEndpoint(): Promise<ZigbeeEndpoint | undefined> {
  const { Device } = await import('zigbee-herdsman/dist/controller/model/device.js');
  return Device.byType('Coordinator')[0]?.endpoints[0];
}
