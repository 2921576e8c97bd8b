import { addBinarySensor, BINARY_SENSOR_DEVICE_CLASSES, type BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import type { VirtualPlatform } from './types.js';

interface Rhythm {
  /** Mean seconds between activations; 0 means the sensor never changes by itself. */
  readonly meanInterval: number;
  /** Seconds an activation lasts. */
  readonly onDuration: number;
}

/** How often each kind of sensor trips, so a demo item needs only a name and a class. */
const RHYTHMS: Partial<Record<BinarySensorDeviceClass, Rhythm>> = {
  motion: { meanInterval: 90, onDuration: 15 },
  occupancy: { meanInterval: 300, onDuration: 120 },
  presence: { meanInterval: 600, onDuration: 300 },
  door: { meanInterval: 600, onDuration: 20 },
  garage_door: { meanInterval: 3600, onDuration: 120 },
  window: { meanInterval: 1800, onDuration: 300 },
  opening: { meanInterval: 900, onDuration: 30 },
  vibration: { meanInterval: 300, onDuration: 5 },
};
const DEFAULT_RHYTHM: Rhythm = { meanInterval: 300, onDuration: 30 };

interface VirtualBinarySensorOptions extends Rhythm {
  readonly deviceClass: BinarySensorDeviceClass | undefined;
  readonly initial: boolean;
  readonly icon: string | undefined;
}

/** Waits are capped at ten means, so one unlucky draw cannot park a sensor for days. */
const MAX_WAIT_FACTOR = 10;

/** Seconds until the next activation: exponential (a Poisson process), as independent events arrive. */
export function nextWait(meanSeconds: number, random: () => number): number {
  const u = random();
  return Math.min(-Math.log(1 - u) * meanSeconds, meanSeconds * MAX_WAIT_FACTOR);
}

/** A sensor that trips now and then (motion) or opens occasionally (door), then returns to off. */
export const virtualBinarySensor: VirtualPlatform<VirtualBinarySensorOptions> = {
  domain: 'binary_sensor',
  parse(r) {
    const deviceClass = r.oneOf('device_class', BINARY_SENSOR_DEVICE_CLASSES);
    const rhythm = (deviceClass && RHYTHMS[deviceClass]) || DEFAULT_RHYTHM;
    const meanInterval = r.number('mean_interval', { min: 0, max: 86_400 * 7, default: rhythm.meanInterval });
    if (meanInterval > 0 && meanInterval < 0.01) r.problem('mean_interval', 'expected 0 (never trips) or at least 0.01 seconds');
    return {
      deviceClass,
      meanInterval,
      onDuration: r.number('on_duration', { min: 0.01, max: 86_400, default: rhythm.onDuration }),
      initial: r.boolean('initial', false),
      icon: r.string('icon'),
    };
  },
  create(ctx, { entityId, name }, o) {
    const sensor = addBinarySensor(ctx.core, { entityId, name, owner: ctx.owner, deviceClass: o.deviceClass, icon: o.icon });
    sensor.report(o.initial);
    if (o.meanInterval === 0) return;
    const trip = () => {
      sensor.report(true);
      ctx.timers.timeout(release, o.onDuration * 1000);
    };
    const release = () => {
      sensor.report(false);
      ctx.timers.timeout(trip, nextWait(o.meanInterval, ctx.random) * 1000);
    };
    if (o.initial) ctx.timers.timeout(release, o.onDuration * 1000);
    else ctx.timers.timeout(trip, nextWait(o.meanInterval, ctx.random) * 1000);
  },
};
