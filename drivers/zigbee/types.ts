import type { Events, Models } from 'zigbee-herdsman';
import type { DeviceIdentifier } from '../../src/core/devices.js';
import type { JsonObject } from '../../src/core/json.js';
import type { DriverContext } from '../driver.js';
import type { ZigbeeOtaConfig } from './config.js';

/**
 * The seam between the Zigbee network (drivers/zigbee/controller.ts: herdsman's Controller, joins, availability,
 * adapter loss) and the entities of one paired device (drivers/zigbee/device-entities.ts: the converters'
 * definition, exposes to entities, fromZigbee to states, service calls to toZigbee). Type-only imports of
 * herdsman keep this file free of the packages at run time: they load only when a `zigbee:` section exists.
 */

export type ZigbeeDevice = Models.Device;
export type ZigbeeMessage = Events.MessagePayload;

/** Where a paired device's entities live and how they are named. */
export interface DeviceEntitiesHost {
  readonly ctx: DriverContext;
  /** The coordinator's device-registry identifier, the `via_device` of every paired device. */
  readonly coordinator: DeviceIdentifier;
  /** Per-device options from the config (`zigbee: devices: <ieee>: {...}`), e.g. friendly_name, optimistic. */
  readonly deviceOptions: (ieee: string) => JsonObject;
  /** Where firmware images are looked up and how they are served; the defaults when absent. */
  readonly ota?: ZigbeeOtaConfig;
}

/** The entities of one paired device, made from its converters definition (or its basic clusters when unsupported). */
export interface DeviceEntities {
  readonly ieee: string;
  /** The definition's model, or undefined for a device the converters do not know. */
  readonly model: string | undefined;
  readonly vendor: string | undefined;
  readonly description: string | undefined;
  readonly supported: boolean;
  /** A message from the device (attribute report, read response, command): states, and actions as events. */
  handleMessage(message: ZigbeeMessage): void;
  /** The network's view: false when the device timed out or the adapter is gone (every entity unavailable). */
  /** `refusal`: why a call to one of its entities fails meanwhile (the adapter is gone), rather than being skipped. */
  setAvailable(available: boolean, refusal?: string): void;
  /** The definition has a configure step (binds, reporting, reads of divisors). */
  readonly configurable: boolean;
  /** The definition's version, kept in the device's meta once configured (zigbee2mqtt's `configured`). */
  readonly definitionVersion: string | undefined;
  /** Runs the definition's configure once; throws its failure (drivers/zigbee/configurer.ts retries). */
  configure(): Promise<void>;
  /** The user renamed the device: entity names follow (entity ids stay, as Home Assistant keeps them). */
  rename(name: string): void;
  /** With OTA support (the converters' `ota`): asks the device and the index; the update entity shows the answer. */
  checkOta?(): Promise<{ installed: string | null; latest: string | null }>;
  /** A group command reached this endpoint: its state shows what was sent (zigbee2mqtt's groupOptimistic). */
  groupCommanded?(payload: Record<string, unknown>, endpoint: number): void;
  /** The device left or was removed: its entities and its registry entry go. */
  remove(): void;
  /** The driver stops: the definition's timers and polls end (the entities go with the driver's owner key). */
  stop(): Promise<void>;
}

/** Makes a paired device's entities; the controller calls it after an interview and for each known device at start. */
export type DeviceEntitiesFactory = (host: DeviceEntitiesHost, device: ZigbeeDevice, name: string) => Promise<DeviceEntities>;
