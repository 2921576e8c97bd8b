import type { Component } from '../../src/core/component.js';
import { type Integration, optionalSection, type SectionParser } from '../../src/integration/integration.js';
import { Timers } from '../../src/util/timers.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import { type BackoffOptions, DevicePoller } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import { hex, type I2cBusOpener, systemBusOpener } from './bus.js';
import { BusQueue } from './bus-queue.js';
import type { Chip, ChipContext } from './chip.js';
import { type I2cConfig, type I2cDeviceConfig, parseI2cSection } from './config.js';

/** Transfers that may wait for one bus; a poll needs a handful, so this only trips on a runaway. */
const MAX_QUEUE = 64;

export interface I2cDriverOptions {
  /** Opens a bus; i2c-bus (loaded on first use) unless a test plugs in a simulated one. */
  readonly openBus?: I2cBusOpener;
  readonly backoff?: BackoffOptions;
}

/**
 * Chips on I²C buses (BME280, BMP280, SHT3x, BH1750, ADS1115, PCA9685). Each chip is a device in the registry with
 * its own poller: probed with a real read, polled at its own interval, marked unavailable (logged once)
 * when it stops answering, retried with backoff and set up again when it answers. start() only registers
 * entities and schedules polls, so a missing bus never holds up the hub.
 */
export class I2cDriver implements Component {
  readonly name = 'i2c';
  private readonly timers: Timers;
  private readonly buses = new Map<number, BusQueue>();
  private readonly pollers: DevicePoller[] = [];
  private stopped = false;

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    private readonly ctx: DriverContext,
    private readonly config: I2cConfig,
    private readonly options: I2cDriverOptions = {},
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, 'i2c timer failed'));
  }

  async start(): Promise<void> {
    for (const device of this.config.devices) {
      // A chip that cannot be added (a duplicate) is refused with one log line and leaves nothing behind; the others run.
      addOrRefuse(this.ctx, `${device.type.model} ${device.identity.key}`, () => this.startDevice(device));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const p of this.pollers) p.stop();
    this.timers.stopAll();
    await Promise.all([...this.buses.values()].map((b) => b.close()));
  }

  private busFor(busNumber: number): BusQueue {
    let bus = this.buses.get(busNumber);
    if (bus === undefined) {
      bus = new BusQueue({
        busNumber,
        open: this.options.openBus ?? systemBusOpener,
        timers: this.timers,
        timeoutMs: this.config.timeoutMs,
        retries: this.config.retries,
        maxQueue: MAX_QUEUE,
      });
      this.buses.set(busNumber, bus);
    }
    return bus;
  }

  /** Waits without holding the bus; after stop it never resolves, so an abandoned poll just ends. */
  private delay = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      this.timers.timeout(resolve, ms);
    });

  private startDevice(device: I2cDeviceConfig): void {
    const { core, owner, log } = this.ctx;
    const { identity, type } = device;
    const label = `${type.model} at i2c-${identity.busNumber} ${hex(identity.address)}`;
    const entry = core.devices.register({
      identifiers: [['i2c', identity.key]],
      name: identity.name,
      owner,
      manufacturer: type.manufacturer,
      model: type.model,
      suggested_area: device.area,
    });
    let inFlight = false;
    let ready = false;
    let poller: DevicePoller | undefined;
    const chipCtx: ChipContext = {
      core,
      owner,
      identity,
      label,
      deviceId: entry.id,
      bus: this.busFor(identity.busNumber),
      delay: this.delay,
      // Deferred to the next macrotask, so it never runs while a poll is still between read and reschedule.
      recheck: () => {
        this.timers.timeout(() => {
          if (!inFlight) void poller?.pollNow();
        }, 0);
      },
    };
    // A failure here leaves nothing behind: start() adds the chip through addOrRefuse, which undoes its device.
    const chip: Chip = type.create(chipCtx, device.options);
    poller = new DevicePoller({
      name: label,
      intervalMs: device.pollIntervalMs,
      timers: this.timers,
      log,
      backoff: this.options.backoff,
      read: async () => {
        inFlight = true;
        try {
          if (!ready) {
            await chip.init();
            ready = true;
          }
          await chip.read();
        } catch (err) {
          // Stopping closed the bus under this poll: end it quietly instead of reporting a failure.
          if (this.stopped) return new Promise<void>(() => {});
          // Set the chip up again when it answers: it may have been power-cycled or swapped.
          ready = false;
          throw err;
        } finally {
          inFlight = false;
        }
      },
      onFailure: () => chip.markUnavailable(),
    });
    this.pollers.push(poller);
    poller.start();
  }
}

/** The `i2c:` section's integration. */
export const i2cIntegration: Integration<{ i2c: SectionParser<I2cConfig | undefined> }, I2cDriver> = {
  name: 'i2c',
  sections: { i2c: optionalSection(parseI2cSection) },
  create: (ctx, { i2c }) => (i2c === undefined || i2c.devices.length === 0 ? undefined : new I2cDriver(ctx, i2c)),
};
