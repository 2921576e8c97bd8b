import type { Logger } from '../../src/core/log.js';
import { type BackoffOptions, backoffDelay } from '../../src/util/backoff.js';
import type { Timers } from '../../src/util/timers.js';

export { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from '../../src/util/backoff.js';

export interface PollerOptions {
  /** What the device is, for logs: "BME280 at i2c-1 0x76". */
  readonly name: string;
  readonly intervalMs: number;
  readonly timers: Timers;
  readonly log: Logger;
  /** One read of the device; throws when the device does not answer. */
  readonly read: () => Promise<void>;
  /** Called once when the device stops answering (mark entities unavailable). */
  readonly onFailure: (err: unknown) => void;
  /** Called once when it answers again. */
  readonly onRecovery?: () => void;
  readonly backoff?: BackoffOptions;
}

/**
 * Polls one device at its own interval. A failure is logged once (not on every poll), the caller marks
 * the entities unavailable, and reads are retried with backoff until the device answers again, which
 * is logged once too. Never throws; stops with the driver's timers.
 */
export class DevicePoller {
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** The read in progress; a pollNow() during it waits for it instead of starting a second chain. */
  private inFlight: Promise<void> | undefined;

  constructor(private readonly options: PollerOptions) {}

  get failing(): boolean {
    return this.failures > 0;
  }

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  stop(): void {
    this.running = false;
    this.options.timers.clear(this.timer);
  }

  /** Runs a read now (for example after a write), then keeps the schedule. */
  async pollNow(): Promise<void> {
    if (this.inFlight !== undefined) return this.inFlight;
    this.options.timers.clear(this.timer);
    await this.tick();
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.options.timers.timeout(() => {
      void this.tick();
    }, ms);
  }

  private tick(): Promise<void> {
    this.inFlight ??= this.readOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async readOnce(): Promise<void> {
    const o = this.options;
    try {
      await o.read();
      if (this.failures > 0) {
        o.log.info({ device: o.name, failures: this.failures }, `${o.name} answers again`);
        this.failures = 0;
        o.onRecovery?.();
      }
      this.schedule(o.intervalMs);
    } catch (err) {
      this.failures++;
      const retryMs = backoffDelay(this.failures, o.backoff);
      if (this.failures === 1) {
        o.log.warn(
          { device: o.name, err: errorText(err), retry_ms: retryMs },
          `${o.name} is not answering; marked unavailable, retrying with backoff`,
        );
        try {
          o.onFailure(err);
        } catch (inner) {
          o.log.error({ device: o.name, err: inner }, 'marking a device unavailable failed');
        }
      }
      this.schedule(retryMs);
    }
  }
}

/** A short description of an error for logs: code and message, no stack. */
export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === undefined ? err.message : `${code}: ${err.message}`;
  }
  return String(err);
}
