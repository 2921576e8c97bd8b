import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import type { JsonValue } from '../../src/core/json.js';
import { BINARY_SENSOR_DEVICE_CLASSES, type BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import { COVER_DEVICE_CLASSES, type CoverDeviceClass } from '../../src/domains/cover.js';
import type { SwitchDeviceClass } from '../../src/domains/switch.js';
import type { Bias } from './line.js';

/** BCM line numbers go up to 57 on a BCM2711 (54 lines on a BCM2835 and on the RP1; checked against the chip at run time). */
export const MAX_BCM_LINE = 57;
export const DEFAULT_SYSFS_ROOT = '/sys';
export const DEFAULT_POLL_INTERVAL_S = 10;
export const DEFAULT_DEBOUNCE_MS = 50;

export type RelayDomain = 'switch' | 'light' | 'fan' | 'lock';

/** How lines are reached: the character device (/dev/gpiochipN) or the deprecated sysfs; auto picks the first present. */
export const GPIO_BACKENDS = ['auto', 'chardev', 'sysfs'] as const;
export type GpioBackendChoice = (typeof GPIO_BACKENDS)[number];

/**
 * What an output does at start: `last` takes the entity's last known state (falling back to `initial`),
 * `off` de-energises it, `on` energises it. Covers never start moving, so they take `last` or `off` only.
 */
export type RestoreMode = 'last' | 'off' | 'on';
export const BIASES: readonly Bias[] = ['pull_up', 'pull_down', 'disabled'];

interface EntityConfig {
  readonly entityId: string;
  readonly name: string;
  readonly icon: string | undefined;
}

/** One output driving a relay (or a transistor): on/off, and nothing else. */
export interface RelayConfig extends EntityConfig {
  readonly domain: RelayDomain;
  readonly pin: number;
  /** Active-low: the relay is energised when the pin is low (most opto-isolated relay boards). */
  readonly invert: boolean;
  /** Whether the relay is energised at start when `restore` is `last` and nothing is stored. */
  readonly initialOn: boolean;
  /** At start: the last state (falling back to `initial`), off or on; default `last`, `off` for locks. */
  readonly restore: RestoreMode;
  readonly deviceClass: SwitchDeviceClass | undefined;
  /** Locks: whether an energised relay means locked (a maglock) rather than unlocked (a door strike). */
  readonly lockedWhenOn: boolean;
}

export interface InputConfig extends EntityConfig {
  readonly pin: number;
  /** Active-low: `on` when the pin is low (a contact to ground with a pull-up). */
  readonly invert: boolean;
  /** A change must hold this long before it is reported; 0 reports every edge. */
  readonly debounceMs: number;
  readonly deviceClass: BinarySensorDeviceClass | undefined;
  /** The pull resistor (character device only); unset leaves what the firmware set. */
  readonly bias: Bias | undefined;
}

/** A motor driven by two relays, one per direction; its position is estimated from the time it runs. */
export interface CoverConfig extends EntityConfig {
  readonly openPin: number;
  readonly closePin: number;
  readonly invert: boolean;
  /** Seconds from fully closed to fully open. */
  readonly travelTimeS: number;
  /** The position assumed at start; null when unknown (the first full open or close makes it known). */
  readonly initialPosition: number | null;
  readonly deviceClass: CoverDeviceClass | undefined;
  /** `off` (default): start at initial_position; `last`: at the last known position, else initial_position. */
  readonly restore: 'last' | 'off';
}

/** One physical thing wired to the header (a relay board, a PIR, a cover controller): one registry device. */
export interface GpioDeviceConfig {
  readonly id: string;
  readonly name: string;
  readonly manufacturer: string;
  readonly model: string;
  readonly area: string | undefined;
  readonly pollIntervalS: number;
  readonly relays: readonly RelayConfig[];
  readonly inputs: readonly InputConfig[];
  readonly covers: readonly CoverConfig[];
}

export interface GpioConfig {
  readonly backend: GpioBackendChoice;
  readonly sysfsRoot: string;
  /** The label of the controller BCM numbers refer to; found automatically when unset. */
  readonly chipLabel: string | undefined;
  readonly devices: readonly GpioDeviceConfig[];
}

const RELAY_LISTS: readonly { key: string; domain: RelayDomain }[] = [
  { key: 'switches', domain: 'switch' },
  { key: 'lights', domain: 'light' },
  { key: 'fans', domain: 'fan' },
  { key: 'locks', domain: 'lock' },
];
const ENTITY_LISTS = ['switches', 'lights', 'fans', 'locks', 'binary_sensors', 'covers'];

/** Checks across the whole section: each pin and each entity id once. */
class Uses {
  private readonly pins = new Map<number, string>();
  private readonly entityIds = new Set<string>();
  private readonly deviceIds = new Set<string>();

  pin(r: ConfigReader, key: string): number {
    const pin = r.number(key, { required: true, integer: true, min: 0, max: MAX_BCM_LINE });
    if (!r.has(key) || !Number.isInteger(pin) || pin < 0 || pin > MAX_BCM_LINE) return pin;
    const here = formatPath([...r.path, key]);
    const first = this.pins.get(pin);
    if (first !== undefined) r.problem(key, `pin ${pin} is already used by ${first}; each pin can be used once`);
    else this.pins.set(pin, here);
    return pin;
  }

  entityId(r: ConfigReader, domain: string, name: string): string {
    const objectId = r.string('id') ?? slugify(name);
    const entityId = `${domain}.${objectId}`;
    if (!isValidEntityId(entityId)) {
      r.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
    } else if (this.entityIds.has(entityId)) r.problem(r.has('id') ? 'id' : 'name', `${entityId} is defined twice`);
    this.entityIds.add(entityId);
    return entityId;
  }

  deviceId(r: ConfigReader, name: string): string {
    const id = r.string('id', { pattern: /^[a-z0-9_-]+$/, patternText: 'lower-case letters, digits, - and _' }) ?? slugify(name);
    if (this.deviceIds.has(id)) r.problem(r.has('id') ? 'id' : 'name', `device id ${JSON.stringify(id)} is used twice`);
    this.deviceIds.add(id);
    return id;
  }
}

/** YAML 1.2 reads `on`/`off` as strings, YAML 1.1 as booleans: both mean the same here. */
function onOff(r: ConfigReader, key: string, defaultValue: boolean): boolean {
  const v = r.raw(key);
  if (v === undefined) return defaultValue;
  if (v === true || v === 'on') return true;
  if (v === false || v === 'off') return false;
  r.problem(key, `${JSON.stringify(v)} is not allowed: expected on or off`);
  return defaultValue;
}

function rejectPullMode(r: ConfigReader): void {
  if (r.raw('pull_mode') === undefined) return;
  r.problem(
    'pull_mode',
    'cannot be set through GPIO sysfs: set the pull in /boot/firmware/config.txt instead (for example gpio=4=ip,pu), then remove this option',
  );
}

function parseRelay(r: ConfigReader, domain: RelayDomain, deviceInvert: boolean, uses: Uses): RelayConfig {
  const name = r.string('name', { required: true });
  const entityId = uses.entityId(r, domain, name);
  const pin = uses.pin(r, 'pin');
  const invert = r.boolean('invert_logic', deviceInvert);
  const icon = r.string('icon');
  let deviceClass: SwitchDeviceClass | undefined;
  let lockedWhenOn = false;
  let initialOn: boolean;
  if (domain === 'lock') {
    lockedWhenOn = r.oneOf('locked_when', ['relay_off', 'relay_on'] as const, 'relay_off') === 'relay_on';
    const locked = r.oneOf('initial', ['locked', 'unlocked'] as const, 'locked') === 'locked';
    initialOn = locked === lockedWhenOn;
  } else {
    if (domain === 'switch') deviceClass = r.oneOf('device_class', ['outlet', 'switch'] as const);
    initialOn = onOff(r, 'initial', false);
  }
  // A lock starts de-energised unless told otherwise, as on a power cut (a strike locked, a maglock released);
  // `restore: last` brings back its last state, falling back to `initial` (locked by default).
  const restore = restoreMode(r, ['last', 'off', 'on'], domain === 'lock' ? 'off' : 'last');
  r.rejectUnknown();
  return { domain, entityId, name, icon, pin, invert, initialOn, restore, deviceClass, lockedWhenOn };
}

function parseInput(r: ConfigReader, deviceInvert: boolean, uses: Uses): InputConfig {
  const name = r.string('name', { required: true });
  const entityId = uses.entityId(r, 'binary_sensor', name);
  const pin = uses.pin(r, 'pin');
  const config: InputConfig = {
    entityId,
    name,
    pin,
    icon: r.string('icon'),
    invert: r.boolean('invert_logic', deviceInvert),
    debounceMs: r.number('debounce', { integer: true, min: 0, max: 10_000, default: DEFAULT_DEBOUNCE_MS }),
    deviceClass: r.oneOf('device_class', BINARY_SENSOR_DEVICE_CLASSES),
    bias: r.oneOf('bias', BIASES),
  };
  rejectPullMode(r);
  r.rejectUnknown(['pull_mode']);
  return config;
}

function parseCover(r: ConfigReader, deviceInvert: boolean, uses: Uses): CoverConfig {
  const name = r.string('name', { required: true });
  const entityId = uses.entityId(r, 'cover', name);
  const openPin = uses.pin(r, 'open_pin');
  const closePin = uses.pin(r, 'close_pin');
  const config: CoverConfig = {
    entityId,
    name,
    openPin,
    closePin,
    icon: r.string('icon'),
    invert: r.boolean('invert_logic', deviceInvert),
    travelTimeS: r.number('travel_time', { required: true, min: 0.05, max: 600 }),
    initialPosition: r.number('initial_position', { integer: true, min: 0, max: 100 }) ?? null,
    deviceClass: r.oneOf('device_class', COVER_DEVICE_CLASSES),
    restore: coverRestore(r),
  };
  r.rejectUnknown();
  return config;
}

function coverRestore(r: ConfigReader): 'last' | 'off' {
  const v = r.raw('restore');
  if (v === 'on' || v === true) {
    r.problem('restore', 'a cover motor never starts by itself: expected last or off');
    return 'off';
  }
  return restoreMode(r, ['last', 'off'], 'off');
}

/** `restore:` with on/off read the same under YAML 1.1 (booleans) and 1.2 (strings). */
function restoreMode<T extends RestoreMode>(r: ConfigReader, allowed: readonly T[], defaultValue: T): T {
  const raw = r.raw('restore');
  if (raw === undefined) return defaultValue;
  const v = raw === true ? 'on' : raw === false ? 'off' : raw;
  const found = allowed.find((a) => a === v);
  if (found !== undefined) return found;
  r.problem('restore', `${JSON.stringify(raw)} is not allowed: expected ${allowed.join(', ')}`);
  return defaultValue;
}

function defaultModel(relays: number, inputs: number, covers: number): string {
  if (relays === 0 && covers === 0) return 'GPIO input';
  if (relays === 0 && inputs === 0) return 'Two-relay cover controller';
  return inputs === 0 ? 'Relay board' : 'GPIO device';
}

function parseDevice(r: ConfigReader, sectionPoll: number, uses: Uses): GpioDeviceConfig | undefined {
  const name = r.string('name', { required: true });
  const id = uses.deviceId(r, name);
  const invert = r.boolean('invert_logic', false);
  const relays: RelayConfig[] = [];
  for (const { key, domain } of RELAY_LISTS) {
    for (const item of r.list(key)) relays.push(parseRelay(ConfigReader.of(item.value, item.path, r.issues), domain, invert, uses));
  }
  const inputs = r.list('binary_sensors').map((item) => parseInput(ConfigReader.of(item.value, item.path, r.issues), invert, uses));
  const covers = r.list('covers').map((item) => parseCover(ConfigReader.of(item.value, item.path, r.issues), invert, uses));
  if (relays.length + inputs.length + covers.length === 0) r.problem(undefined, `has no entities: add one of ${ENTITY_LISTS.join(', ')}`);
  const device: GpioDeviceConfig = {
    id,
    name,
    manufacturer: r.string('manufacturer') ?? 'Generic',
    model: r.string('model') ?? defaultModel(relays.length, inputs.length, covers.length),
    area: r.string('area'),
    pollIntervalS: r.number('poll_interval', { min: 0.05, max: 3600, default: sectionPoll }),
    relays,
    inputs,
    covers,
  };
  r.rejectUnknown();
  return device;
}

/**
 * Validates the `gpio:` section (problems go to `issues` with their paths) and returns what it configures.
 * The same function runs for check-config and for the driver, so what check-config accepts is what runs.
 */
export function parseGpioSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): GpioConfig | undefined {
  if (section === undefined || section === null) return undefined;
  const r = ConfigReader.of(section, path, issues);
  const backend = r.oneOf('backend', GPIO_BACKENDS, 'auto');
  const sysfsRoot = r.string('sysfs_root', { default: DEFAULT_SYSFS_ROOT }) ?? DEFAULT_SYSFS_ROOT;
  const chipLabel = r.string('chip');
  const poll = r.number('poll_interval', { min: 0.05, max: 3600, default: DEFAULT_POLL_INTERVAL_S });
  const uses = new Uses();
  if (!r.has('devices')) r.problem('devices', 'is required: expected a list of devices (relay boards, sensors, covers)');
  const devices: GpioDeviceConfig[] = [];
  for (const item of r.list('devices')) {
    const device = parseDevice(ConfigReader.of(item.value, item.path, issues), poll, uses);
    if (device !== undefined) devices.push(device);
  }
  r.rejectUnknown();
  return { backend, sysfsRoot, chipLabel, devices };
}
