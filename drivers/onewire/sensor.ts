import { join } from 'node:path';
import type { Core } from '../../src/core/core.js';
import type { Logger } from '../../src/core/log.js';
import { addSensor, type SensorHandle } from '../../src/domains/sensor.js';
import type { Timers } from '../../src/util/timers.js';
import { type BackoffOptions, DevicePoller } from '../common/device-poller.js';
import type { BusReader } from './bus-reader.js';
import { modelOf, type OnewireSensorConfig } from './config.js';
import { parseW1Slave } from './w1-slave.js';

export interface SensorEnv {
  readonly core: Core;
  readonly log: Logger;
  readonly owner: string;
  readonly timers: Timers;
  readonly basePath: string;
  /** The bus's reads, one at a time and time-limited. */
  readonly reader: BusReader;
  readonly backoff?: BackoffOptions;
}

/**
 * One w1_therm temperature sensor: its own registry device, one temperature entity and one poller. Every
 * poll reads `<base>/<id>/w1_slave` through the bus reader; a failed read (missing file, CRC NO, 85 °C,
 * timeout) makes the entity unavailable until a read succeeds again.
 */
export class OnewireSensor {
  private readonly sensor: SensorHandle;
  private readonly poller: DevicePoller;
  private readonly path: string;

  constructor(
    private readonly env: SensorEnv,
    private readonly config: OnewireSensorConfig,
  ) {
    const model = modelOf(config.id);
    this.path = join(env.basePath, config.id, 'w1_slave');
    const device = env.core.devices.register({
      identifiers: [['onewire', config.id]],
      name: config.name,
      owner: env.owner,
      manufacturer: 'Maxim Integrated (Analog Devices)',
      model,
      serial_number: config.id.slice(3),
      suggested_area: config.area,
    });
    this.sensor = addSensor(env.core, {
      entityId: config.entityId,
      name: config.name,
      owner: env.owner,
      deviceId: device.id,
      uniqueId: `onewire-${config.id}-temperature`,
      deviceClass: 'temperature',
      stateClass: 'measurement',
      unit: '°C',
      precision: config.precision,
    });
    // Known before the first conversion finishes: the entity exists, its value does not yet.
    this.sensor.report(null);
    this.poller = new DevicePoller({
      name: `${model} ${config.id}`,
      intervalMs: config.pollIntervalS * 1000,
      timers: env.timers,
      log: env.log,
      backoff: env.backoff,
      read: () => this.read(),
      onFailure: () => this.sensor.entity.markUnavailable(),
    });
  }

  get entityId(): string {
    return this.config.entityId;
  }

  start(): void {
    this.poller.start();
  }

  stop(): void {
    this.poller.stop();
  }

  private async read(): Promise<void> {
    const text = await this.env.reader.read(this.path);
    const celsius = parseW1Slave(text, this.config.id.slice(0, 2)) + this.config.offset;
    this.sensor.report(celsius);
  }
}
