import type { ConfigReader } from '../../src/config/reader.js';
import type { Core } from '../../src/core/core.js';
import { addSensor, type SensorDeviceClass, type SensorHandle } from '../../src/domains/sensor.js';

/** Who a configured serial device is. */
export interface SerialIdentity {
  readonly name: string;
  /** Prefix of the entities' object ids. */
  readonly objectId: string;
  readonly port: string;
  /** Device identifier and unique-id prefix: "serial-<object id>". */
  readonly key: string;
}

/** What a decoder gets: where to register entities, and how to tell the connection what it saw. */
export interface SerialContext {
  readonly core: Core;
  readonly owner: string;
  readonly identity: SerialIdentity;
  readonly deviceId: string;
  /** A good frame or line was decoded and reported: the device is alive. */
  readonly alive: () => void;
  /** A frame or line was corrupt and dropped (bad checksum, not a number). */
  readonly corrupt: (reason: string) => void;
}

/** Turns bytes from the port into entity states. */
export interface SerialDecoder {
  push(chunk: Buffer): void;
  /** Forget a partial frame or line (the port was reopened). */
  reset(): void;
  markUnavailable(): void;
}

export interface ParsedSerial<O> {
  readonly options: O;
  readonly entityIds: readonly string[];
}

/** A kind of serial device (`type:` in the config). */
export interface SerialPlatform<O> {
  readonly type: string;
  /** The device name when the config gives none. */
  readonly defaultName: string;
  readonly defaultBaudRate: number;
  /** For the device registry; a generic device may take them from its config. */
  manufacturer(options: O): string;
  model(options: O): string;
  /**
   * Checksummed frames only: this many corrupt frames in a row, with no good one between, make the
   * entities unavailable at once instead of after `timeout` (a sensor that only sends broken frames is
   * not measuring). Undefined: only the timeout does (a text line that does not parse proves less).
   */
  readonly corruptFramesUnavailable?: number;
  parse(r: ConfigReader, identity: SerialIdentity): ParsedSerial<O>;
  create(ctx: SerialContext, options: O): SerialDecoder;
}

/** Home Assistant's CONCENTRATION_MICROGRAMS_PER_CUBIC_METER (with the micro sign, U+00B5, as in 2025.1). */
/**
 * The PMS5003 and SDS011 send about one frame a second: five bad ones in a row is some five seconds of
 * nothing but corrupt data (a loose wire, a failing fan or laser, a sagging 5 V supply), not line noise.
 */
export const CORRUPT_FRAMES_UNAVAILABLE = 5;

export const MICROGRAMS_PER_CUBIC_METER = '\u00b5g/m\u00b3';

export interface ParticulateSpec {
  readonly key: 'pm1' | 'pm25' | 'pm10';
  readonly label: string;
  readonly deviceClass: SensorDeviceClass;
}
export const PM1: ParticulateSpec = { key: 'pm1', label: 'PM1', deviceClass: 'pm1' };
export const PM25: ParticulateSpec = { key: 'pm25', label: 'PM2.5', deviceClass: 'pm25' };
export const PM10: ParticulateSpec = { key: 'pm10', label: 'PM10', deviceClass: 'pm10' };

export function particulateEntityId(identity: SerialIdentity, spec: ParticulateSpec): string {
  return `sensor.${identity.objectId}_${spec.key}`;
}

/** A particulate-matter sensor of a serial device, `unknown` until its first frame. */
export function addParticulate(ctx: SerialContext, spec: ParticulateSpec, precision: number): SensorHandle {
  const handle = addSensor(ctx.core, {
    entityId: particulateEntityId(ctx.identity, spec),
    owner: ctx.owner,
    name: `${ctx.identity.name} ${spec.label}`,
    uniqueId: `${ctx.identity.key}-${spec.key}`,
    deviceId: ctx.deviceId,
    deviceClass: spec.deviceClass,
    unit: MICROGRAMS_PER_CUBIC_METER,
    stateClass: 'measurement',
    precision,
  });
  handle.report(null);
  return handle;
}
