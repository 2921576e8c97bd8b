import type { ConfigReader } from '../../src/config/reader.js';
import type { Core } from '../../src/core/core.js';
import { addSensor, type SensorDeviceClass, type SensorHandle } from '../../src/domains/sensor.js';
import type { BusQueue } from './bus-queue.js';

/** Who a configured chip is: where it sits and what its entities are called. */
export interface ChipIdentity {
  /** The device name, e.g. "Greenhouse"; entity names start with it. */
  readonly name: string;
  /** Prefix of the entities' object ids, e.g. "greenhouse" -> sensor.greenhouse_temperature. */
  readonly objectId: string;
  readonly busNumber: number;
  readonly address: number;
  /** "i2c-1-0x76": the device identifier, and the prefix of the entities' unique ids. */
  readonly key: string;
}

/** What a chip driver gets to talk to its chip and register its entities. */
export interface ChipContext {
  readonly core: Core;
  readonly owner: string;
  readonly identity: ChipIdentity;
  /** For logs and errors: "PCA9685 at i2c-1 0x40". */
  readonly label: string;
  /** The device registry id its entities belong to. */
  readonly deviceId: string;
  /** The chip's bus: transfers are serialized with the other chips on it. */
  readonly bus: BusQueue;
  /** Waits out a conversion time without holding the bus. */
  readonly delay: (ms: number) => Promise<void>;
  /**
   * Reads the chip now. Output chips call it when a write fails, so that the chip is marked unavailable
   * (logged once) and retried with backoff, as a failed poll would be.
   */
  readonly recheck: () => void;
}

/** One configured chip at run time. */
export interface Chip {
  /** Probes the chip with a real read and configures it; runs before the first read and again after a failure. */
  init(): Promise<void>;
  /** One poll: reads the chip and reports its entities; throws when the chip does not answer properly. */
  read(): Promise<void>;
  markUnavailable(): void;
}

export interface ParsedChip<O> {
  readonly options: O;
  /** Every entity id the chip will register, for the duplicate check across the section. */
  readonly entityIds: readonly string[];
}

/** A kind of chip: its config options, who makes it, and how to drive it. */
export interface ChipType<O> {
  /** The `chip:` value in the config. */
  readonly chip: string;
  readonly manufacturer: string;
  readonly model: string;
  /** Addresses the chip can be strapped to. */
  readonly addresses: readonly number[];
  /** Seconds between polls unless `poll_interval` says otherwise. */
  readonly defaultPollInterval: number;
  /** Reads the chip's own options from its config item, reporting problems through the reader. */
  parse(r: ConfigReader, identity: ChipIdentity): ParsedChip<O>;
  create(ctx: ChipContext, options: O): Chip;
}

/** A measurement a sensor chip reports, as Home Assistant describes it. */
export interface MeasurementSpec {
  /** Object id suffix and unique id suffix: "temperature". */
  readonly key: string;
  /** Entity name after the device name: "Temperature". */
  readonly label: string;
  readonly unit: string;
  readonly deviceClass: SensorDeviceClass;
  /** Decimals: what the chip measures meaningfully, so that noise below it fires no state_changed. */
  readonly precision: number;
}

export function measurementEntityId(identity: ChipIdentity, spec: Pick<MeasurementSpec, 'key'>): string {
  return `sensor.${identity.objectId}_${spec.key}`;
}

/** Registers one measurement of a chip as a sensor belonging to the chip's device; it starts `unknown`. */
export function addMeasurement(ctx: ChipContext, spec: MeasurementSpec): SensorHandle {
  const { identity } = ctx;
  const handle = addSensor(ctx.core, {
    entityId: measurementEntityId(identity, spec),
    owner: ctx.owner,
    name: `${identity.name} ${spec.label}`,
    uniqueId: `${identity.key}-${spec.key}`,
    deviceId: ctx.deviceId,
    deviceClass: spec.deviceClass,
    unit: spec.unit,
    stateClass: 'measurement',
    precision: spec.precision,
  });
  handle.report(null);
  return handle;
}

/** A chip answered, but not as the datasheet says (wrong id, bad CRC, no data): a failed read. */
export function chipError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}
