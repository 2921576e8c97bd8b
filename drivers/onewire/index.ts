import { readdir, readFile } from 'node:fs/promises';
import type { Component } from '../../src/core/component.js';
import type { Integration, SectionParser } from '../../src/integration/integration.js';
import { Timers } from '../../src/util/timers.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import { type BackoffOptions, DevicePoller } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import { BusReader, type ReadText } from './bus-reader.js';
import { discoveredIdentity, type OnewireConfig, parseOnewireSection } from './config.js';
import { OnewireSensor, type SensorEnv } from './sensor.js';
import { W1_THERM_FAMILIES } from './w1-slave.js';

export interface OnewireDriverOptions {
  /** How w1_slave files are read (tests wrap fs.readFile to count or stall reads). */
  readonly readText?: ReadText;
  readonly readTimeoutMs?: number;
  /** How often the bus directory is listed again for new sensors. */
  readonly rescanMs?: number;
  readonly backoff?: BackoffOptions;
}

const DEFAULT_READ_TIMEOUT_MS = 5000;
const DEFAULT_RESCAN_MS = 60_000;
const THERM_DIR = new RegExp(`^(${Object.keys(W1_THERM_FAMILIES).join('|')})-[0-9a-f]{12}$`);

/**
 * 1-Wire temperature sensors through the kernel's w1 bus in sysfs (w1-gpio overlay + w1_therm). Listed
 * sensors are polled from the start; with `discover`, the bus directory is listed at start and every
 * minute, and sensors found there get entities too. Nothing here blocks the hub: every read is in a poller.
 */
export class OnewireDriver implements Component {
  readonly name = 'onewire';
  private readonly timers: Timers;
  private readonly sensors = new Map<string, OnewireSensor>();
  private readonly skipped = new Set<string>();
  private readonly env: SensorEnv;
  private scanner: DevicePoller | undefined;

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    private readonly ctx: DriverContext,
    private readonly config: OnewireConfig,
    private readonly options: OnewireDriverOptions = {},
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, '1-Wire timer failed'));
    this.env = {
      core: ctx.core,
      log: ctx.log,
      owner: ctx.owner,
      timers: this.timers,
      basePath: config.basePath,
      reader: new BusReader(
        options.readText ?? ((path) => readFile(path, 'utf8')),
        options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS,
        this.timers,
      ),
      backoff: options.backoff,
    };
  }

  async start(): Promise<void> {
    for (const sensor of this.config.sensors) this.add(sensor.id, () => new OnewireSensor(this.env, sensor));
    if (!this.config.discover) return;
    this.scanner = new DevicePoller({
      name: `1-Wire bus at ${this.config.basePath}`,
      intervalMs: this.options.rescanMs ?? DEFAULT_RESCAN_MS,
      timers: this.timers,
      log: this.ctx.log,
      backoff: this.options.backoff,
      read: () => this.scan(),
      onFailure: () => {},
    });
    this.scanner.start();
  }

  async stop(): Promise<void> {
    this.scanner?.stop();
    for (const sensor of this.sensors.values()) sensor.stop();
    this.timers.stopAll();
  }

  /** Lists the bus directory and adds an entity for each temperature sensor not seen before. */
  private async scan(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.config.basePath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        throw new Error(
          `${this.config.basePath} does not exist: 1-Wire is not enabled (add dtoverlay=w1-gpio to /boot/firmware/config.txt and reboot)`,
        );
      }
      throw err;
    }
    for (const id of names.sort()) {
      if (!THERM_DIR.test(id) || this.sensors.has(id) || this.skipped.has(id)) continue;
      const { entityId, name } = discoveredIdentity(id);
      this.ctx.log.info({ sensor: id, entity_id: entityId }, `1-Wire: found ${name}`);
      this.add(
        id,
        () =>
          new OnewireSensor(this.env, {
            id,
            entityId,
            name,
            precision: this.config.precision,
            pollIntervalS: this.config.pollIntervalS,
            offset: 0,
            area: undefined,
          }),
      );
    }
  }

  private add(id: string, make: () => OnewireSensor): void {
    // A sensor that cannot be added (a duplicate) is refused with one log line, its device entry undone, and not
    // retried by the scan; the others carry on.
    const sensor = addOrRefuse(this.ctx, `1-Wire sensor ${id}`, make);
    if (sensor === undefined) {
      this.skipped.add(id);
      return;
    }
    this.sensors.set(id, sensor);
    sensor.start();
  }
}

/** The `onewire:` section's integration; `options` lets tests put a simulated bus in. */
export function createOnewireIntegration(
  options: OnewireDriverOptions = {},
): Integration<{ onewire: SectionParser<OnewireConfig | undefined> }, OnewireDriver> {
  return {
    name: 'onewire',
    sections: { onewire: parseOnewireSection },
    create: (ctx, { onewire }) =>
      onewire === undefined || (onewire.sensors.length === 0 && !onewire.discover) ? undefined : new OnewireDriver(ctx, onewire, options),
  };
}

export const onewireIntegration = createOnewireIntegration();
