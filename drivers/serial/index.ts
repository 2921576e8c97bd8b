import type { Component } from '../../src/core/component.js';
import { type Integration, optionalSection, type SectionParser } from '../../src/integration/integration.js';
import { Timers } from '../../src/util/timers.js';
import { addOrRefuse } from '../common/add-or-refuse.js';
import { type BackoffOptions, DEFAULT_BACKOFF } from '../common/device-poller.js';
import type { DriverContext } from '../driver.js';
import { parseSerialSection, type SerialConfig } from './config.js';
import { type SerialStreamFactory, systemSerialFactory } from './port.js';
import { SerialDevice } from './serial-device.js';

export interface SerialDriverOptions {
  /** Creates port streams; serialport's SerialPort (loaded on first use) unless a test plugs in SerialPortMock. */
  readonly factory?: SerialStreamFactory;
  readonly backoff?: BackoffOptions;
}

/**
 * Devices on serial ports: PMS5003 and SDS011 particulate sensors, and generic line sensors. Each is a
 * device in the registry; its port is opened in the background and reopened after an unplug, so a missing
 * port never holds up the hub.
 */
export class SerialDriver implements Component {
  readonly name = 'serial';
  private readonly timers: Timers;
  private readonly devices: SerialDevice[] = [];

  /** What it registers goes under its integration's owner key. */
  get owner(): string {
    return this.ctx.owner;
  }

  constructor(
    private readonly ctx: DriverContext,
    private readonly config: SerialConfig,
    private readonly options: SerialDriverOptions = {},
  ) {
    this.timers = new Timers((err) => ctx.log.error({ err }, 'serial timer failed'));
  }

  async start(): Promise<void> {
    for (const config of this.config.devices) {
      const device = new SerialDevice({
        ctx: this.ctx,
        config,
        timers: this.timers,
        factory: this.options.factory ?? systemSerialFactory,
        backoff: this.options.backoff ?? DEFAULT_BACKOFF,
      });
      // A device that cannot be added (a duplicate) is refused with one log line; the others run.
      const started = addOrRefuse(this.ctx, `serial device on ${config.identity.port}`, () => {
        device.start();
        return device;
      });
      if (started !== undefined) this.devices.push(started);
    }
  }

  async stop(): Promise<void> {
    this.timers.stopAll();
    await Promise.all(this.devices.map((d) => d.stop()));
  }
}

/** The `serial:` section's integration. */
export const serialIntegration: Integration<{ serial: SectionParser<SerialConfig | undefined> }, SerialDriver> = {
  name: 'serial',
  sections: { serial: optionalSection(parseSerialSection) },
  create: (ctx, { serial }) => (serial === undefined || serial.devices.length === 0 ? undefined : new SerialDriver(ctx, serial)),
};
