import type { ConfigIssue } from '../../src/config/reader.js';
import { Timers } from '../../src/util/timers.js';
import type { BackoffOptions } from '../common/device-poller.js';
import type { Driver, DriverContext } from '../driver.js';
import type { DriverKind } from '../index.js';
import { type GpioChip, resolveHeaderChip } from './chip.js';
import { type GpioConfig, parseGpioSection } from './config.js';
import { GpioDevice } from './device.js';
import type { GpioBackend, GpioBackendLoader } from './line.js';
import { loadOnoffBackend } from './onoff-backend.js';

export interface GpioDriverOptions {
  /** How lines are reached; onoff (loaded on first use) unless a test or the bench gives a fake. */
  readonly backend?: GpioBackendLoader;
  /** Retry delays after a failure (tests shorten them). */
  readonly backoff?: BackoffOptions;
}

/** Shares one in-flight or successful result between callers; a failure is forgotten so the next call tries again. */
function memoise<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (pending === undefined) {
      pending = load();
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}

/**
 * Raspberry Pi GPIO: relays as switches, lights, fans, locks and two-relay covers; inputs as binary sensors.
 * start() only registers devices and entities and starts their pollers: resolving the chip, loading onoff
 * and exporting lines happen in the first poll, so a Pi without GPIO (or without onoff) never delays the hub.
 */
export class GpioDriver implements Driver {
  readonly kind = 'gpio';
  private readonly timers: Timers;
  private readonly devices: GpioDevice[] = [];

  constructor(
    private readonly ctx: DriverContext,
    private readonly config: GpioConfig,
    private readonly options: GpioDriverOptions = {},
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, 'GPIO timer failed'));
  }

  async start(): Promise<void> {
    const { sysfsRoot, chipLabel } = this.config;
    const chip = memoise<GpioChip>(async () => {
      const c = await resolveHeaderChip(sysfsRoot, chipLabel);
      this.ctx.log.info(
        { chip: c.dir, label: c.label, base: c.base, lines: c.ngpio },
        `GPIO: BCM pins are on ${c.label}, sysfs base ${c.base}`,
      );
      return c;
    });
    const backend = memoise<GpioBackend>(this.options.backend ?? loadOnoffBackend);
    const env = {
      core: this.ctx.core,
      log: this.ctx.log,
      owner: this.ctx.owner,
      timers: this.timers,
      chip,
      backend,
      backoff: this.options.backoff,
    };
    for (const device of this.config.devices) this.devices.push(new GpioDevice(env, device));
    for (const device of this.devices) device.start();
  }

  async stop(): Promise<void> {
    for (const device of this.devices) device.stop();
    this.timers.stopAll();
  }
}

/** The `gpio:` section's driver kind; `options` lets tests and the bench put a fake line backend in. */
export function createGpioKind(options: GpioDriverOptions = {}): DriverKind {
  return {
    section: 'gpio',
    validate: (value, path, issues) => {
      parseGpioSection(value, path, issues);
    },
    create(ctx, value) {
      const issues: ConfigIssue[] = [];
      const config = parseGpioSection(value, ['gpio'], issues);
      if (config === undefined || config.devices.length === 0) return undefined;
      return new GpioDriver(ctx, config, options);
    },
  };
}

export const gpioKind: DriverKind = createGpioKind();
