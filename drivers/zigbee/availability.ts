import type { Clock, Micros } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/log.js';
import type { Scheduler } from '../../src/util/scheduler.js';

export interface AvailabilityOptions {
  readonly mainsTimeoutMs: number;
  readonly batteryTimeoutMs: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Reads something small from a mains device (genBasic); resolves true when it answered. */
  readonly ping: (ieee: string) => Promise<boolean>;
  /** The device became available or unavailable. */
  readonly changed: (ieee: string, available: boolean) => void;
}

interface Tracked {
  mains: boolean;
  lastSeen: Micros;
  available: boolean;
  lastPing: Micros;
  pinging: boolean;
}

/**
 * Last seen per device, and availability from it: a mains-powered device silent past its timeout is pinged and is
 * unavailable only if the ping fails (a router that has nothing to report is still there); a battery device, which
 * sleeps and cannot be pinged, is unavailable once silent past its (long) timeout. Any message brings a device back.
 */
export class Availability {
  private readonly devices = new Map<string, Tracked>();
  private timer: unknown;
  private running = false;
  private readonly checkMs: number;

  constructor(private readonly options: AvailabilityOptions) {
    this.checkMs = Math.max(1000, Math.min(60_000, Math.floor(Math.min(options.mainsTimeoutMs, options.batteryTimeoutMs) / 10)));
  }

  /** A device of the network; `lastSeen` from herdsman's database (epoch ms), or now for a device just heard. */
  track(ieee: string, mains: boolean, lastSeenMs: number | undefined): void {
    const now = this.options.clock.now();
    const lastSeen = lastSeenMs === undefined ? now : Math.min(now, lastSeenMs * 1000);
    const existing = this.devices.get(ieee);
    if (existing !== undefined) {
      existing.mains = mains;
      return;
    }
    this.devices.set(ieee, { mains, lastSeen, available: now - lastSeen < this.timeoutOf(mains), lastPing: 0, pinging: false });
  }

  forget(ieee: string): void {
    this.devices.delete(ieee);
  }

  /** The device said something: it is there. */
  seen(ieee: string): void {
    const device = this.devices.get(ieee);
    if (device === undefined) return;
    device.lastSeen = this.options.clock.now();
    if (!device.available) {
      device.available = true;
      this.options.changed(ieee, true);
    }
  }

  isAvailable(ieee: string): boolean {
    return this.devices.get(ieee)?.available ?? false;
  }

  lastSeen(ieee: string): Micros | undefined {
    return this.devices.get(ieee)?.lastSeen;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    this.options.scheduler.clear(this.timer);
    this.timer = undefined;
  }

  /** One pass over every device; runs on its own timer, callable by tests. */
  check(): void {
    const now = this.options.clock.now();
    for (const [ieee, device] of this.devices) {
      const timeout = this.timeoutOf(device.mains);
      const silent = now - device.lastSeen;
      if (silent < timeout) continue;
      if (!device.mains) {
        this.markUnavailable(ieee, device);
        continue;
      }
      // A silent router is asked once per timeout period whether it is still there.
      if (device.pinging || now - device.lastPing < timeout) continue;
      device.pinging = true;
      device.lastPing = now;
      this.options
        .ping(ieee)
        .then((answered) => {
          device.pinging = false;
          if (this.devices.get(ieee) !== device) return;
          if (answered) this.seen(ieee);
          else this.markUnavailable(ieee, device);
        })
        .catch((err: unknown) => {
          device.pinging = false;
          this.options.log.debug({ err, ieee }, 'Zigbee ping failed');
        });
    }
  }

  private markUnavailable(ieee: string, device: Tracked): void {
    if (!device.available) return;
    device.available = false;
    this.options.log.info(
      { ieee },
      `Zigbee device ${ieee} is unavailable (silent for ${Math.round((this.options.clock.now() - device.lastSeen) / 60_000_000)} min)`,
    );
    this.options.changed(ieee, false);
  }

  private timeoutOf(mains: boolean): Micros {
    return (mains ? this.options.mainsTimeoutMs : this.options.batteryTimeoutMs) * 1000;
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = this.options.scheduler.timeout(() => {
      this.check();
      this.schedule();
    }, this.checkMs);
  }
}
