import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import { isJsonObject, type JsonValue } from '../../src/core/json.js';
import { ads1115 } from './ads1115.js';
import { bh1750 } from './bh1750.js';
import { bme280, bmp280 } from './bme280.js';
import { hex } from './bus.js';
import type { ChipIdentity, ChipType } from './chip.js';
import { pca9685 } from './pca9685.js';
import { sht30, sht31, sht35 } from './sht3x.js';

/** Every supported chip, by its `chip:` name. */
export const CHIP_TYPES: Readonly<Record<string, ChipType<unknown>>> = Object.fromEntries(
  ([bme280, bmp280, sht30, sht31, sht35, bh1750, ads1115, pca9685] as ChipType<unknown>[]).map((c) => [c.chip, c]),
);
const CHIP_NAMES = Object.keys(CHIP_TYPES).sort();

export interface I2cDeviceConfig {
  readonly type: ChipType<unknown>;
  readonly identity: ChipIdentity;
  readonly pollIntervalMs: number;
  /** Suggested area for the device in the registry. */
  readonly area: string | undefined;
  readonly options: unknown;
}

export interface I2cConfig {
  /** Per transfer; longer than the kernel's own adapter timeout (1 s on the Pi) so that one reports first. */
  readonly timeoutMs: number;
  readonly retries: number;
  readonly devices: readonly I2cDeviceConfig[];
}

export const DEFAULT_TIMEOUT_MS = 1500;
export const DEFAULT_RETRIES = 2;

/** "0x76, 0x77", or "0x40 to 0x7f" for a long contiguous range. */
function describeAddresses(addresses: readonly number[]): string {
  const first = addresses[0] ?? 0;
  const last = addresses[addresses.length - 1] ?? 0;
  if (addresses.length > 4 && last - first === addresses.length - 1) return `${hex(first)} to ${hex(last)}`;
  return `one of ${addresses.map(hex).join(', ')}`;
}

/** An address as a number: YAML's 0x76 arrives as 118, a quoted "0x76" as a string. */
function readAddress(r: ConfigReader, type: ChipType<unknown>): number | undefined {
  const v = r.raw('address');
  if (v === undefined) return type.addresses[0];
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^(0x[\da-f]+|\d+)$/i.test(v.trim()) ? Number(v.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 0x7f) {
    r.problem('address', `${JSON.stringify(v)} is not allowed: expected a 7-bit I²C address (0x00 to 0x7f), e.g. 0x76`);
    return undefined;
  }
  if (!type.addresses.includes(n)) {
    r.problem('address', `${hex(n)} is not an address a ${type.model} can have: expected ${describeAddresses(type.addresses)}`);
    return undefined;
  }
  return n;
}

/**
 * Validates the `i2c:` section: `{timeout_ms?, retries?, devices: [{chip, bus?, address?, name?, id?,
 * poll_interval?, area?, ...chip options}]}`. Problems are appended to `issues` with their paths.
 */
export function parseI2cSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): I2cConfig {
  const empty: I2cConfig = { timeoutMs: DEFAULT_TIMEOUT_MS, retries: DEFAULT_RETRIES, devices: [] };
  if (section === undefined || section === null) return empty;
  if (!isJsonObject(section)) {
    ConfigReader.of(section, path, issues);
    return empty;
  }
  const r = new ConfigReader(section, path, issues);
  const timeoutMs = r.number('timeout_ms', { min: 10, max: 60_000, integer: true, default: DEFAULT_TIMEOUT_MS });
  const retries = r.number('retries', { min: 0, max: 5, integer: true, default: DEFAULT_RETRIES });
  const items = r.list('devices');
  if (!r.has('devices')) r.problem('devices', 'is required: expected a list of chips, e.g. [{chip: bme280, address: 0x76}]');
  r.rejectUnknown();

  const devices: I2cDeviceConfig[] = [];
  const byAddress = new Map<string, { path: ConfigPath; chip: string }>();
  const entityOwners = new Map<string, ConfigPath>();
  for (const item of items) {
    const d = ConfigReader.of(item.value, item.path, issues);
    const chip = d.oneOf('chip', CHIP_NAMES);
    if (chip === undefined) {
      if (!d.has('chip')) d.problem('chip', `is required: expected one of ${CHIP_NAMES.join(', ')}`);
      continue;
    }
    const type = CHIP_TYPES[chip] as ChipType<unknown>;
    const busNumber = d.number('bus', { min: 0, max: 255, integer: true, default: 1 });
    const address = readAddress(d, type);
    const name = d.string('name') ?? `${type.model} ${hex(address ?? 0)}`;
    const objectId = d.string('id') ?? slugify(name);
    if (!isValidEntityId(`sensor.${objectId}`)) {
      d.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
    }
    const pollInterval = d.number('poll_interval', { min: 0.1, max: 86_400, default: type.defaultPollInterval });
    const area = d.string('area');
    const at = address ?? type.addresses[0] ?? 0;
    const identity: ChipIdentity = { name, objectId, busNumber, address: at, key: `i2c-${busNumber}-${hex(at)}` };
    // Parsed even when the address is wrong, so that every problem of the item is listed at once.
    const parsed = type.parse(d, identity);
    d.rejectUnknown();
    if (address === undefined) continue;
    const where = `${busNumber}:${address}`;
    const taken = byAddress.get(where);
    if (taken !== undefined) {
      d.problem('address', `${hex(address)} on bus ${busNumber} is already used by ${formatPath(taken.path)} (${taken.chip})`);
    } else byAddress.set(where, { path: item.path, chip });
    for (const entityId of parsed.entityIds) {
      const other = entityOwners.get(entityId);
      if (other !== undefined) d.problem('id', `${entityId} is already an entity of ${formatPath(other)}; give this device another id`);
      else entityOwners.set(entityId, item.path);
    }
    devices.push({ type, identity, pollIntervalMs: Math.round(pollInterval * 1000), area, options: parsed.options });
  }
  return { timeoutMs, retries, devices };
}
