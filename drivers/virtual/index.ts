import { type ConfigIssue, type ConfigPath, ConfigReader } from '../../src/config/reader.js';
import { isValidEntityId, slugify } from '../../src/core/entity-id.js';
import type { JsonValue } from '../../src/core/json.js';
import { Timers } from '../../src/util/timers.js';
import type { Driver, DriverContext } from '../driver.js';
import { virtualAlarmControlPanel } from './alarm-control-panel.js';
import { virtualBinarySensor } from './binary-sensor.js';
import { virtualCamera } from './camera.js';
import { virtualClimate } from './climate.js';
import { virtualCover } from './cover.js';
import { virtualFan } from './fan.js';
import { virtualLight } from './light.js';
import { virtualLock } from './lock.js';
import { virtualMediaPlayer } from './media-player.js';
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
    ] as VirtualPlatform<unknown>[]
  ).map((p) => [p.domain, p]),
);

interface ParsedItem {
  readonly platform: VirtualPlatform<unknown>;
  readonly entityId: string;
  readonly name: string;
  readonly options: unknown;
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
    const options = platform.parse(r);
    r.rejectUnknown();
    out.push({ platform, entityId, name, options });
  });
  return out;
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

export interface VirtualDriverOptions {
  readonly items: readonly ParsedItem[];
  readonly random?: () => number;
}

/** The demo driver: simulated devices in every domain, so the hub looks alive without hardware. */
export class VirtualDriver implements Driver {
  readonly kind = 'virtual';
  private readonly timers: Timers;

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
    for (const item of this.options.items) {
      item.platform.create(vctx, { entityId: item.entityId, name: item.name }, item.options);
    }
  }

  async stop(): Promise<void> {
    this.timers.stopAll();
  }
}
