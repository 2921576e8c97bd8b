import type { Controller } from 'zigbee-herdsman';
import type { JsonValue } from '../../src/core/json.js';
import type { Scheduler } from '../../src/util/scheduler.js';
import type { DriverContext } from '../driver.js';
import type { Availability } from './availability.js';
import type { ZigbeeConfig } from './config.js';
import type { HubEntities } from './hub-entities.js';
import type { NameStore } from './names.js';
import type { DeviceEntities, ZigbeeDevice } from './types.js';

/** What the device set and the services see of the driver (drivers/zigbee/controller.ts implements it). */
export interface ZigbeeHost {
  readonly ctx: DriverContext;
  readonly config: ZigbeeConfig;
  readonly scheduler: Scheduler;
  readonly names: NameStore;
  readonly availability: Availability;
  readonly hub: HubEntities | undefined;
  readonly connected: boolean;
  /** What a call to a device's entity answers while the adapter is away. */
  readonly adapterGone: string;
  readonly devices: {
    get(ieee: string): DeviceEntities | undefined;
    nameOf(ieee: string): string;
    left(ieee: string, reason: 'left' | 'removed'): void;
    rename(ieee: string, name: string): void;
    configure(device: ZigbeeDevice): Promise<void>;
  };
  /** The running Controller, or undefined while the adapter is away. */
  readonly running: Controller | undefined;
  /** list_devices' entries from when the adapter was last there (each unavailable), for while it is away. */
  readonly offlineDevices: readonly JsonValue[];
  /** The running Controller; throws ZigbeeUnavailableError while the adapter is away. */
  requireController(): Controller;
  permitJoin(seconds: number, router?: ZigbeeDevice): Promise<void>;
  /** False when the adapter makes no coordinator backups. */
  backup(): Promise<boolean>;
}

export class ZigbeeUnavailableError extends Error {}
