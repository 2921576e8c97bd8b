import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath } from '../../src/config/reader.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../src/core/json.js';

/** The adapters herdsman drives; absent means detect the stick over USB. */
export const ZIGBEE_ADAPTERS = ['zstack', 'ember', 'deconz', 'zigate', 'zboss'] as const;
export type ZigbeeAdapterType = (typeof ZIGBEE_ADAPTERS)[number];

export const ZIGBEE_BAUD_RATES = [38400, 57600, 115200, 230400, 460800, 921600];

/** Minutes without a sign of life before a device is unavailable (zigbee2mqtt's defaults for active and passive devices). */
export const DEFAULT_MAINS_TIMEOUT_MIN = 10;
export const DEFAULT_BATTERY_TIMEOUT_MIN = 25 * 60;

const IEEE = /^0x[0-9a-f]{16}$/;
/** Keys a device entry may have; `options` is passed to the converters as it is. */
const DEVICE_KEYS = ['friendly_name', 'optimistic', 'area', 'options'];

export interface ZigbeeConfig {
  readonly adapter: ZigbeeAdapterType | undefined;
  readonly port: string | undefined;
  readonly baudRate: number | undefined;
  readonly rtscts: boolean | undefined;
  /** The channel; undefined: the stored one (an imported network), else 11. */
  readonly channel: number | undefined;
  /** Network settings given in the config win over the stored ones; absent ones are generated once and kept. */
  readonly panId: number | undefined;
  readonly extPanId: readonly number[] | undefined;
  readonly networkKey: readonly number[] | undefined;
  readonly mainsTimeoutMs: number;
  readonly batteryTimeoutMs: number;
  /** Per-device options by lower-case IEEE address, as written (friendly_name, optimistic, area, options). */
  readonly devices: ReadonlyMap<string, JsonObject>;
  readonly ota: ZigbeeOtaConfig;
}

/** zigbee2mqtt's OTA index of firmware images (Koenkk/zigbee-OTA), what herdsman uses when none is given. */
export const DEFAULT_OTA_INDEX = 'https://raw.githubusercontent.com/Koenkk/zigbee-OTA/master/index.json';

/** `zigbee: ota:` — zigbee2mqtt's `ota:` settings under hearth's names. */
export interface ZigbeeOtaConfig {
  /** An http(s) URL or an absolute path of an OTA index (JSON list of image metadata). */
  readonly indexUrl: string;
  /** Hours between checks of mains-powered devices; 0: only on request. */
  readonly checkIntervalHours: number;
  /** herdsman's data settings: ms between image block responses, block size, ms a device may take per request. */
  readonly responseDelayMs: number;
  readonly blockSize: number;
  readonly requestTimeoutMs: number;
}

/** A byte list given as `[0x01, ...]` or as a hex string `"01:02:..."`/`"0x0102..."`; undefined when invalid. */
export function parseBytes(value: unknown, length: number): number[] | undefined {
  if (Array.isArray(value)) {
    const bytes = value.filter((b): b is number => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255);
    return bytes.length === length && value.length === length ? bytes : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const hex = value.replace(/^0x/i, '').replace(/[:\s-]/g, '');
  if (!/^[0-9a-f]*$/i.test(hex) || hex.length !== length * 2) return undefined;
  return Array.from({ length }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

function bytesOption(r: ConfigReader, key: string, length: number): number[] | undefined {
  const value = r.raw(key);
  if (value === undefined) return undefined;
  const bytes = parseBytes(value, length);
  if (bytes === undefined) {
    r.problem(
      key,
      `${JSON.stringify(value)} is not allowed: expected ${length} bytes, as a list of ${length} integers from 0 to 255 or a hex string of ${length * 2} digits`,
    );
  }
  return bytes;
}

/**
 * Validates the `zigbee:` section: `{adapter?, port?, baud_rate?, rtscts?, channel?, pan_id?, ext_pan_id?, network_key?,
 * availability?: {mains_timeout?, battery_timeout?} (minutes), devices?: {<ieee>: {friendly_name?, optimistic?, area?,
 * options?}}}`. An empty section (`zigbee:` or `zigbee: {}`) is a valid configuration: detect the stick, generate the network.
 */
export function parseZigbeeSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ZigbeeConfig {
  const r = section === undefined || section === null ? new ConfigReader({}, path, issues) : ConfigReader.of(section, path, issues);
  const adapter = r.oneOf('adapter', ZIGBEE_ADAPTERS);
  const port = r.string('port');
  if (port !== undefined && !port.startsWith('/') && !/^tcp:\/\/[^:]+:\d+$/.test(port)) {
    r.problem(
      'port',
      `${JSON.stringify(port)} is not allowed: expected a device path such as /dev/serial/by-id/usb-... or tcp://host:port`,
    );
  }
  const baudValue = r.raw('baud_rate');
  let baudRate: number | undefined;
  if (baudValue !== undefined) {
    if (typeof baudValue === 'number' && ZIGBEE_BAUD_RATES.includes(baudValue)) baudRate = baudValue;
    else r.problem('baud_rate', `${JSON.stringify(baudValue)} is not allowed: expected one of ${ZIGBEE_BAUD_RATES.join(', ')}`);
  }
  const rtscts = r.raw('rtscts') === undefined ? undefined : r.boolean('rtscts', false);
  const channel = r.number('channel', { min: 11, max: 26, integer: true });
  const panId = r.number('pan_id', { min: 1, max: 0xfffe, integer: true });
  const extPanId = bytesOption(r, 'ext_pan_id', 8);
  const networkKey = bytesOption(r, 'network_key', 16);

  let mainsTimeoutMs = DEFAULT_MAINS_TIMEOUT_MIN * 60_000;
  let batteryTimeoutMs = DEFAULT_BATTERY_TIMEOUT_MIN * 60_000;
  const availability = r.child('availability');
  if (availability !== undefined) {
    mainsTimeoutMs = availability.number('mains_timeout', { min: 1, max: 10_080, default: DEFAULT_MAINS_TIMEOUT_MIN }) * 60_000;
    batteryTimeoutMs = availability.number('battery_timeout', { min: 1, max: 10_080, default: DEFAULT_BATTERY_TIMEOUT_MIN }) * 60_000;
    availability.rejectUnknown();
  }

  const devices = new Map<string, JsonObject>();
  const devicesValue = r.raw('devices');
  if (devicesValue !== undefined) {
    if (!isJsonObject(devicesValue))
      r.problem(
        'devices',
        'expected a mapping of IEEE address to device options, e.g. {"0x00158d0001a2b3c4": {friendly_name: Hall sensor}}',
      );
    else readDevices(devicesValue, [...path, 'devices'], issues, devices);
  }
  const o = r.child('ota');
  const indexUrl = o?.string('index_url') ?? DEFAULT_OTA_INDEX;
  if (o !== undefined && !/^https?:\/\/\S+$/.test(indexUrl) && !indexUrl.startsWith('/'))
    o.problem('index_url', `${JSON.stringify(indexUrl)} is not allowed: expected an http(s) URL or an absolute path of an OTA index JSON`);
  const ota: ZigbeeOtaConfig = {
    indexUrl,
    checkIntervalHours: o?.number('check_interval', { min: 0, max: 24 * 30, default: 24 }) ?? 24,
    responseDelayMs: o?.number('image_block_response_delay', { min: 0, max: 10_000, integer: true, default: 250 }) ?? 250,
    blockSize: o?.number('default_maximum_data_size', { min: 10, max: 100, integer: true, default: 50 }) ?? 50,
    requestTimeoutMs: o?.number('image_block_request_timeout', { min: 10_000, max: 3_600_000, integer: true, default: 150_000 }) ?? 150_000,
  };
  o?.rejectUnknown();
  r.rejectUnknown();
  return { adapter, port, baudRate, rtscts, channel, panId, extPanId, networkKey, mainsTimeoutMs, batteryTimeoutMs, devices, ota };
}

function readDevices(value: JsonObject, path: ConfigPath, issues: ConfigIssue[], out: Map<string, JsonObject>): void {
  const names = new Map<string, ConfigPath>();
  for (const [key, options] of Object.entries(value)) {
    const ieee = key.toLowerCase();
    const devicePath = [...path, key];
    if (!IEEE.test(ieee)) {
      issues.push({
        path: devicePath,
        message: `${JSON.stringify(key)} is not an IEEE address: expected 0x and 16 hex digits, e.g. 0x00158d0001a2b3c4`,
      });
      continue;
    }
    const d = ConfigReader.of(options ?? {}, devicePath, issues);
    const name = d.string('friendly_name');
    if (name !== undefined && name.trim() === '') d.problem('friendly_name', 'is empty: expected a name such as Hall sensor');
    d.boolean('optimistic', false);
    d.string('area');
    const converterOptions = d.raw('options');
    if (converterOptions !== undefined && !isJsonObject(converterOptions))
      d.problem('options', 'expected a mapping of converter options, e.g. {temperature_precision: 1}');
    d.rejectUnknown(DEVICE_KEYS);
    if (name !== undefined && name.trim() !== '') {
      const taken = names.get(name.toLowerCase());
      if (taken !== undefined) d.problem('friendly_name', `${JSON.stringify(name)} is already the name of ${formatPath(taken)}`);
      else names.set(name.toLowerCase(), devicePath);
    }
    out.set(ieee, isJsonObject(options) ? options : {});
  }
}
