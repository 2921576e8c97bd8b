import { type ConfigIssue, type ConfigPath, ConfigReader, formatPath } from '../../src/config/reader.js';
import type { Component } from '../../src/core/component.js';
import type { DeviceInit } from '../../src/core/devices.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import type { JsonValue } from '../../src/core/json.js';
import { Timers } from '../../src/util/timers.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import type { DriverContext } from '../driver.js';
import { virtualAlarmControlPanel } from './alarm-control-panel.js';
import { virtualBinarySensor } from './binary-sensor.js';
import { virtualButton } from './button.js';
import { virtualCamera } from './camera.js';
import { virtualClimate } from './climate.js';
import { virtualCover } from './cover.js';
import { virtualFan } from './fan.js';
import { virtualLight } from './light.js';
import { virtualLock } from './lock.js';
import { virtualMediaPlayer } from './media-player.js';
import { virtualNumber } from './number.js';
import { virtualSelect } from './select.js';
import { virtualSensor } from './sensor.js';
import { virtualSwitch } from './switch.js';
import type { VirtualContext, VirtualPlatform } from './types.js';
import { virtualVacuum } from './vacuum.js';

/** Every simulated device kind, by domain. */
export const VIRTUAL_PLATFORMS: Readonly<Record<string, VirtualPlatform<unknown>>> = Object.fromEntries(
  (
    [
      virtualLight,
      virtualSwitch,
      virtualSensor,
      virtualBinarySensor,
      virtualClimate,
      virtualCover,
      virtualFan,
      virtualMediaPlayer,
      virtualCamera,
      virtualLock,
      virtualAlarmControlPanel,
      virtualVacuum,
      virtualButton,
      virtualNumber,
      virtualSelect,
    ] as VirtualPlatform<unknown>[]
  ).map((p) => [p.domain, p]),
);

/** The physical thing a virtual item pretends to be; items naming the same device share it. */
export interface VirtualDevice {
  readonly name: string;
  readonly manufacturer?: string;
  readonly model?: string;
  /** An area id or name for the device when it is new (created if missing), as a driver's suggested area. */
  readonly area?: string;
}

export interface ParsedItem {
  readonly platform: VirtualPlatform<unknown>;
  readonly entityId: string;
  readonly name: string;
  readonly options: unknown;
  readonly device?: VirtualDevice;
}

type DeviceTable = Map<string, { device: VirtualDevice; path: ConfigPath }>;

/**
 * Reads an item's optional `device: {name, manufacturer?, model?, area?}` into `devices` and returns its
 * key. Items may share a device by naming it; a field given by more than one of them must agree.
 */
function parseDevice(r: ConfigReader, devices: DeviceTable): string | undefined {
  // Read only when present, so that `unknown option` lists stay as the per-domain tests expect them.
  if (!Object.hasOwn(r.value, 'device')) return undefined;
  const d = r.child('device');
  if (d === undefined) return undefined;
  const name = d.string('name', { required: true }).trim();
  const device: { -readonly [K in keyof VirtualDevice]: VirtualDevice[K] } = { name };
  for (const field of ['manufacturer', 'model', 'area'] as const) {
    const value = d.string(field);
    if (value !== undefined) device[field] = value;
  }
  d.rejectUnknown();
  if (name === '') return undefined;
  const key = slugify(name);
  const earlier = devices.get(key);
  if (earlier === undefined) {
    devices.set(key, { device, path: d.path });
    return key;
  }
  for (const field of ['manufacturer', 'model', 'area'] as const) {
    const a = earlier.device[field];
    const b = device[field];
    if (a !== undefined && b !== undefined && a !== b) {
      d.problem(
        field,
        `${JSON.stringify(b)} differs from ${JSON.stringify(a)} given for device ${JSON.stringify(name)} at ${formatPath(earlier.path)}`,
      );
    }
  }
  devices.set(key, { device: { ...device, ...earlier.device }, path: earlier.path });
  return key;
}

/**
 * Validates the `virtual:` section: a list of items, each `{platform: <domain>, id?, name, ...options}`.
 * Problems are appended to `issues` with their paths.
 */
export function parseVirtualSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ParsedItem[] {
  if (section === undefined || section === null) return [];
  if (!Array.isArray(section)) {
    issues.push({ path, message: 'expected a list of virtual entities' });
    return [];
  }
  const out: ParsedItem[] = [];
  const ids = new Set<string>();
  const devices: DeviceTable = new Map();
  const deviceKeys: (string | undefined)[] = [];
  section.forEach((item: JsonValue, i: number) => {
    const r = ConfigReader.of(item, [...path, i], issues);
    const domain = r.oneOf('platform', Object.keys(VIRTUAL_PLATFORMS).sort());
    if (domain === undefined) {
      if (!r.has('platform')) r.problem('platform', `is required: expected one of ${Object.keys(VIRTUAL_PLATFORMS).sort().join(', ')}`);
      return;
    }
    const platform = VIRTUAL_PLATFORMS[domain] as VirtualPlatform<unknown>;
    const name = r.string('name', { required: true });
    const objectId = r.string('id') ?? slugify(name);
    const entityId = `${domain}.${objectId}`;
    if (!isValidEntityId(entityId)) {
      r.problem('id', `${JSON.stringify(objectId)} is not a valid object id: use lower-case letters, digits and single underscores`);
      return;
    }
    if (ids.has(entityId)) r.problem('id', `${entityId} is defined twice`);
    ids.add(entityId);
    const deviceKey = parseDevice(r, devices);
    const options = platform.parse(r);
    r.rejectUnknown();
    deviceKeys.push(deviceKey);
    out.push({ platform, entityId, name, options });
  });
  // Every item sharing a device gets the fields all of them gave.
  return out.map((item, i) => {
    const key = deviceKeys[i];
    const device = key === undefined ? undefined : devices.get(key)?.device;
    return device === undefined ? item : { ...item, device };
  });
}

/** Random numbers from a seed (mulberry32), so that tests can replay a simulation. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every virtual item has a device, so dashboards can group by device: the one it names (shared by items
 * naming the same device), or else its own, named after the entity.
 */
function deviceInit(item: ParsedItem, owner: string): DeviceInit {
  if (item.device === undefined) {
    return {
      identifiers: [['virtual', item.entityId]],
      name: item.name,
      owner,
      manufacturer: 'hearth',
      model: `Virtual ${item.platform.domain}`,
    };
  }
  const d = item.device;
  return {
    identifiers: [['virtual', `device:${slugify(d.name)}`]],
    name: d.name,
    owner,
    manufacturer: d.manufacturer ?? 'hearth',
    model: d.model ?? `Virtual ${item.platform.domain}`,
    ...(d.area === undefined ? {} : { suggested_area: d.area }),
  };
}

export interface VirtualDriverOptions {
  readonly items: readonly ParsedItem[];
  readonly random?: () => number;
}

/** The demo driver: simulated devices in every domain, so the hub looks alive without hardware. */
export class VirtualDriver implements Component {
  readonly name = 'virtual';
  private readonly timers: Timers;

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    private readonly ctx: DriverContext,
    private readonly options: VirtualDriverOptions,
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, 'virtual device timer failed'));
  }

  async start(): Promise<void> {
    const vctx: VirtualContext = {
      core: this.ctx.core,
      log: this.ctx.log,
      owner: this.ctx.owner,
      timers: this.timers,
      random: this.options.random ?? Math.random,
      dataDir: this.ctx.dataDir,
    };
    const { core, owner } = this.ctx;
    for (const item of this.options.items) {
      // An item that cannot be added (a duplicate) is refused with one log line, its own device undone; the others run.
      addOrRefuse(this.ctx, `virtual ${item.entityId}`, () => {
        const device = core.devices.register(deviceInit(item, owner));
        // The per-domain create() functions take no device; what they add during the call belongs to this one.
        core.entities.withDevice(device.id, () => item.platform.create(vctx, { entityId: item.entityId, name: item.name }, item.options));
      });
    }
  }

  async stop(): Promise<void> {
    this.timers.stopAll();
  }
}
