import type { Component } from '../../src/core/component.js';
import { type Integration, optionalSection, type SectionParser } from '../../src/integration/integration.js';
import { Timers } from '../../src/util/timers.js';
import type { BackoffOptions } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import { backendLoader } from './backend.js';
import type { ChardevBackendOptions } from './chardev-backend.js';
import { chipsFromDevices, type GpioChip, pickHeaderChip, resolveHeaderChip } from './chip.js';
import { type GpioConfig, parseGpioSection } from './config.js';
import { GpioDevice } from './device.js';
import type { GpioBackend, GpioBackendLoader } from './line.js';
import { type LastStateLookup, NOTHING_STORED } from './restore.js';

export interface GpioDriverOptions {
  /** How lines are reached; the one gpio.backend picks (loaded on first use) unless a test or the bench gives a fake. */
  readonly backend?: GpioBackendLoader;
  /** Where `backend: auto` looks for gpiochip devices (default /dev). */
  readonly devDir?: string;
  /** The character-device backend's interpreter and environment (tests run it against a simulated kernel). */
  readonly chardev?: ChardevBackendOptions;
  /**
   * Each entity's state from before the restart, for `restore: last`. Until the hub's restore-state store
   * provides it on the driver context (`lastState`), nothing is stored and `initial` applies.
   */
  readonly lastState?: LastStateLookup;
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

/** The restore-state store's lookup, once the hub puts one on the driver context. */
function contextLastState(ctx: DriverContext): LastStateLookup | undefined {
  return ctx.lastState;
}

/**
 * Raspberry Pi GPIO: relays as switches, lights, fans, locks and two-relay covers; inputs as binary sensors.
 * start() only registers devices and entities and starts their pollers: resolving the chip, loading the
 * backend and requesting lines happen in the first poll, so a Pi without GPIO never delays the hub.
 *
 * Outputs fail safe: stop() drives them to their safe level before giving the lines back, and while the
 * driver runs, a process 'exit' listener (which also runs after an uncaught error: the hub exits then)
 * drives them there synchronously.
 */
export class GpioDriver implements Component {
  readonly name = 'gpio';
  private readonly timers: Timers;
  private readonly devices: GpioDevice[] = [];
  private loaded: GpioBackend | undefined;
  private stopped = false;
  private readonly onExit = (): void => this.driveOutputsSafeSync();

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    private readonly ctx: DriverContext,
    private readonly config: GpioConfig,
    private readonly options: GpioDriverOptions = {},
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, 'GPIO timer failed'));
  }

  async start(): Promise<void> {
    const { sysfsRoot, chipLabel } = this.config;
    const load =
      this.options.backend ??
      backendLoader(this.config.backend, { devDir: this.options.devDir, chardev: this.options.chardev, log: this.ctx.log });
    const backend = memoise<GpioBackend>(async () => {
      const loaded = await load();
      // Loaded while the driver was stopping: give it back at once (its lines are released by the devices).
      if (this.stopped) loaded.close?.();
      else this.loaded = loaded;
      return loaded;
    });
    const chip = memoise<GpioChip>(async () => {
      const b = await backend();
      if (b.listChips !== undefined) {
        const c = pickHeaderChip(chipsFromDevices(await b.listChips()), chipLabel);
        this.ctx.log.info(
          { chip: c.devPath, label: c.label, lines: c.ngpio },
          `GPIO: BCM pins are on ${c.label} (${c.devPath}), ${b.name}`,
        );
        return c;
      }
      const c = await resolveHeaderChip(sysfsRoot, chipLabel);
      this.ctx.log.info(
        { chip: c.dir, label: c.label, base: c.base, lines: c.ngpio },
        `GPIO: BCM pins are on ${c.label}, sysfs base ${c.base}`,
      );
      return c;
    });
    const env = {
      core: this.ctx.core,
      log: this.ctx.log,
      owner: this.ctx.owner,
      timers: this.timers,
      chip,
      backend,
      backoff: this.options.backoff,
      lastState: this.options.lastState ?? contextLastState(this.ctx) ?? NOTHING_STORED,
    };
    for (const device of this.config.devices) this.devices.push(new GpioDevice(env, device));
    process.on('exit', this.onExit);
    for (const device of this.devices) device.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    process.off('exit', this.onExit);
    for (const device of this.devices) device.stop();
    this.timers.stopAll();
    this.loaded?.close?.();
    this.loaded = undefined;
  }

  /**
   * Every output to its safe level, now and synchronously: for the process 'exit' event, which runs after
   * an uncaught error too (no 'uncaughtException' listener here: that would keep a broken hub alive).
   */
  driveOutputsSafeSync(): void {
    for (const device of this.devices) device.safeSync();
  }
}

/** The `gpio:` section's integration; `options` lets tests and the bench put a fake line backend in. */
export function createGpioIntegration(
  options: GpioDriverOptions = {},
): Integration<{ gpio: SectionParser<GpioConfig | undefined> }, GpioDriver> {
  return {
    name: 'gpio',
    sections: { gpio: optionalSection(parseGpioSection) },
    create: (ctx, { gpio }) => (gpio === undefined || gpio.devices.length === 0 ? undefined : new GpioDriver(ctx, gpio, options)),
  };
}

export const gpioIntegration = createGpioIntegration();
