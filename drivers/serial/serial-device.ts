import type { Logger } from '../../src/core/log.js';
import { templateText } from '../../src/util/log-bounds.js';
import type { Timers } from '../../src/util/timers.js';
import { type BackoffOptions, backoffDelay, errorText } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import type { SerialDeviceConfig } from './config.js';
import type { SerialDecoder } from './platform.js';
import type { SerialStream, SerialStreamFactory } from './port.js';

/** Names that the kernel hands out in plug order: the same device may come back under another one. */
const RENUMBERED_PATH = /^\/dev\/tty(USB|ACM)\d+$/;

export interface SerialDeviceOptions {
  readonly ctx: DriverContext;
  readonly config: SerialDeviceConfig;
  readonly timers: Timers;
  readonly factory: SerialStreamFactory;
  readonly backoff: BackoffOptions;
}

/**
 * One serial device: keeps its port open, reopening with backoff after an unplug (close), a failed
 * open or `timeout` without a good frame, feeds the bytes to the decoder, and marks the entities
 * unavailable while the port is gone or silent, or (for checksummed frames) sends nothing but corrupt
 * frames. Each outage is logged once, and so is the recovery; a burst of corrupt frames is logged once
 * until a good one arrives.
 */
export class SerialDevice {
  private readonly log: Logger;
  private readonly label: string;
  private decoder: SerialDecoder | undefined;
  private stream: SerialStream | undefined;
  /** Failed opens (or losses) in a row, for the backoff. */
  private attempts = 0;
  private failed = false;
  private corruptLogged = false;
  /** Corrupt frames or lines since the last good one. */
  private corruptInARow = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: SerialDeviceOptions) {
    const { config, ctx } = options;
    const model = config.platform.model(config.options);
    this.label = `${model} on ${config.identity.port}`;
    this.log = ctx.log;
  }

  /** Registers the device and its entities, then opens the port in the background. */
  start(): void {
    const { ctx, config } = this.options;
    const { platform, identity } = config;
    const entry = ctx.core.devices.register({
      identifiers: [['serial', identity.key]],
      name: identity.name,
      owner: ctx.owner,
      manufacturer: platform.manufacturer(config.options),
      model: platform.model(config.options),
      suggested_area: config.area,
    });
    // A failure here leaves nothing behind: the driver adds the device through addOrRefuse, which undoes it.
    this.decoder = platform.create(
      {
        core: ctx.core,
        owner: ctx.owner,
        identity,
        deviceId: entry.id,
        alive: () => this.alive(),
        corrupt: (reason) => this.corrupt(reason),
      },
      config.options,
    );
    if (RENUMBERED_PATH.test(identity.port)) {
      this.log.info(
        { device: this.label },
        `${identity.port} may name another device after a replug; a /dev/serial/by-id/... path stays with this one`,
      );
    }
    void this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const stream = this.stream;
    this.stream = undefined;
    if (stream?.isOpen) await new Promise<void>((resolve) => stream.close(() => resolve()));
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    const { identity, baudRate } = this.options.config;
    let stream: SerialStream;
    try {
      stream = await this.options.factory({ path: identity.port, baudRate });
    } catch (err) {
      this.openFailed(err);
      return;
    }
    if (this.stopped) return;
    this.stream = stream;
    // Listeners stay on a stream after it is replaced; they check that it is still the current one.
    stream.on('data', (chunk) => {
      if (this.stream === stream && Buffer.isBuffer(chunk)) this.decoder?.push(chunk);
    });
    stream.on('close', (err) => {
      if (this.stream === stream) this.lost(err);
    });
    // Always listened to: an unhandled 'error' would take the process down.
    stream.on('error', (err) => {
      if (this.stream === stream) this.log.debug({ device: this.label, err: errorText(err) }, `${this.label}: port error`);
    });
    stream.open((err) => {
      if (this.stream !== stream) {
        // Stopped while opening.
        if (err === null) stream.close();
        return;
      }
      if (err !== null) {
        this.stream = undefined;
        this.openFailed(err);
        return;
      }
      this.attempts = 0;
      this.decoder?.reset();
      this.log.debug({ device: this.label }, `${this.label}: port open`);
      this.armWatchdog();
    });
  }

  private openFailed(err: unknown): void {
    this.attempts++;
    this.fail(`cannot open the port: ${errorText(err)}`);
    this.reopenLater();
  }

  /** The port closed under us: unplugged (serialport's DisconnectedError) or closed by the system. */
  private lost(err: unknown): void {
    this.stream = undefined;
    this.options.timers.clear(this.watchdog);
    this.decoder?.reset();
    this.attempts++;
    this.fail(err === null || err === undefined ? 'the port closed (unplugged?)' : `the port closed: ${errorText(err)}`);
    this.reopenLater();
  }

  private reopenLater(): void {
    if (this.stopped) return;
    this.options.timers.timeout(() => void this.open(), backoffDelay(this.attempts, this.options.backoff));
  }

  private armWatchdog(): void {
    const { timers, config } = this.options;
    timers.clear(this.watchdog);
    this.watchdog = timers.timeout(() => this.silent(), config.timeoutMs);
  }

  /**
   * Nothing good for `timeout`: unavailable, and the port is reopened, since a wedged adapter or a tty
   * hung up without a close event only comes back that way (a device that is merely quiet loses nothing).
   */
  private silent(): void {
    this.fail(`no valid data for ${this.options.config.timeoutMs / 1000} s`);
    const stream = this.stream;
    this.stream = undefined;
    if (stream?.isOpen) stream.close();
    this.decoder?.reset();
    this.attempts++;
    this.reopenLater();
  }

  private alive(): void {
    if (this.failed) {
      this.failed = false;
      this.log.info({ device: this.label }, `${this.label} answers again`);
    }
    this.corruptLogged = false;
    this.corruptInARow = 0;
    this.armWatchdog();
  }

  private corrupt(reason: string): void {
    this.corruptInARow++;
    if (!this.corruptLogged) {
      this.corruptLogged = true;
      this.log.warn({ device: this.label, reason }, `${this.label} sent corrupt data (dropped; not logged again until good data arrives)`);
    }
    // The port stays open: the next good frame brings the entities back (and `timeout` still reopens it).
    const limit = this.options.config.platform.corruptFramesUnavailable;
    if (limit !== undefined && this.corruptInARow >= limit) {
      this.fail(`${this.corruptInARow} corrupt frames in a row (the last: ${reason})`, 'until a good frame arrives');
    }
  }

  private fail(cause: string, until = 'retrying with backoff'): void {
    if (this.stopped) return;
    if (this.failed) {
      this.log.debug({ device: this.label, err: cause }, `${this.label} still unavailable`);
      return;
    }
    this.failed = true;
    this.log.warn({ device: this.label, err: cause }, `${templateText(this.label)} is unavailable: %s; ${until}`, cause);
    this.decoder?.markUnavailable();
  }
}
