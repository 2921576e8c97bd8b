import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import { isJsonObject, type JsonValue } from '../../src/core/json.js';
import { lineSensor } from './line-sensor.js';
import type { SerialIdentity, SerialPlatform } from './platform.js';
import { pms5003 } from './pms5003.js';
import { sds011 } from './sds011.js';

export const SERIAL_PLATFORMS: Readonly<Record<string, SerialPlatform<unknown>>> = Object.fromEntries(
  ([pms5003, sds011, lineSensor] as SerialPlatform<unknown>[]).map((p) => [p.type, p]),
);
const TYPES = Object.keys(SERIAL_PLATFORMS).sort();

export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600];

/** Seconds without a good frame or line before the device counts as failed. */
export const DEFAULT_TIMEOUT_S = 60;

export interface SerialDeviceConfig {
  readonly platform: SerialPlatform<unknown>;
  readonly identity: SerialIdentity;
  readonly baudRate: number;
  readonly timeoutMs: number;
  /** Suggested area for the device in the registry. */
  readonly area: string | undefined;
  readonly options: unknown;
}

export interface SerialConfig {
  readonly devices: readonly SerialDeviceConfig[];
}

/**
 * Validates the `serial:` section: `{devices: [{type, port, name?, id?, baud_rate?, timeout?, area?, ...type
 * options}]}`. Problems are appended to `issues` with their paths.
 */
export function parseSerialSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): SerialConfig {
  if (section === undefined || section === null) return { devices: [] };
  if (!isJsonObject(section)) {
    ConfigReader.of(section, path, issues);
    return { devices: [] };
  }
  const r = new ConfigReader(section, path, issues);
  const items = r.list('devices');
  if (!r.has('devices')) {
    r.problem('devices', 'is required: expected a list of serial devices, e.g. [{type: pms5003, port: /dev/serial/by-id/...}]');
  }
  r.rejectUnknown();

  const devices: SerialDeviceConfig[] = [];
  const ports = new Map<string, ConfigPath>();
  const entityOwners = new Map<string, ConfigPath>();
  for (const item of items) {
    const d = ConfigReader.of(item.value, item.path, issues);
    const type = d.oneOf('type', TYPES);
    if (type === undefined) {
      if (!d.has('type')) d.problem('type', `is required: expected one of ${TYPES.join(', ')}`);
      continue;
    }
    const platform = SERIAL_PLATFORMS[type] as SerialPlatform<unknown>;
    const port = d.string('port') ?? '';
    if (!d.has('port'))
      d.problem('port', 'is required: expected the device path, preferably /dev/serial/by-id/... (ls -l /dev/serial/by-id/)');
    else if (port.trim() === '') d.problem('port', 'is empty: expected a device path such as /dev/serial/by-id/usb-...');
    const name = d.string('name') ?? platform.defaultName;
    const objectId = d.string('id') ?? slugify(name);
    if (!isValidEntityId(`sensor.${objectId}`)) {
      d.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
    }
    const baudValue = d.raw('baud_rate');
    let baudRate = platform.defaultBaudRate;
    if (baudValue !== undefined) {
      if (typeof baudValue === 'number' && BAUD_RATES.includes(baudValue)) baudRate = baudValue;
      else d.problem('baud_rate', `${JSON.stringify(baudValue)} is not allowed: expected one of ${BAUD_RATES.join(', ')}`);
    }
    const timeout = d.number('timeout', { min: 1, max: 86_400, default: DEFAULT_TIMEOUT_S });
    const area = d.string('area');
    const identity: SerialIdentity = { name, objectId, port, key: `serial-${objectId}` };
    const parsed = platform.parse(d, identity);
    d.rejectUnknown();
    if (port.trim() !== '') {
      const taken = ports.get(port);
      if (taken !== undefined) d.problem('port', `${port} is already used by ${formatPath(taken)}`);
      else ports.set(port, item.path);
    }
    for (const entityId of parsed.entityIds) {
      const other = entityOwners.get(entityId);
      if (other !== undefined) d.problem('id', `${entityId} is already an entity of ${formatPath(other)}; give this device another id`);
      else entityOwners.set(entityId, item.path);
    }
    devices.push({ platform, identity, baudRate, timeoutMs: Math.round(timeout * 1000), area, options: parsed.options });
  }
  return { devices };
}
