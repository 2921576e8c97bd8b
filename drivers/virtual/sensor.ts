import {
  addSensor,
  SENSOR_DEVICE_CLASSES,
  SENSOR_STATE_CLASSES,
  type SensorDeviceClass,
  type SensorStateClass,
} from '../../src/domains/sensor.js';
import type { VirtualPlatform } from './types.js';

/** Where a simulated reading wanders, and how. */
export interface WalkRange {
  readonly min: number;
  readonly max: number;
  /** The largest change per tick. */
  readonly step: number;
}

interface Preset extends WalkRange {
  readonly unit?: string;
  readonly precision: number;
}

/** Plausible defaults per device class, so a demo item needs only a name and a class. */
const PRESETS: Partial<Record<SensorDeviceClass, Preset>> = {
  temperature: { unit: '°C', min: 18, max: 24, step: 0.1, precision: 1 },
  humidity: { unit: '%', min: 35, max: 60, step: 0.5, precision: 0 },
  power: { unit: 'W', min: 0, max: 2500, step: 60, precision: 0 },
  illuminance: { unit: 'lx', min: 0, max: 1000, step: 25, precision: 0 },
  pressure: { unit: 'hPa', min: 990, max: 1030, step: 0.3, precision: 1 },
  atmospheric_pressure: { unit: 'hPa', min: 990, max: 1030, step: 0.3, precision: 1 },
  battery: { unit: '%', min: 20, max: 100, step: 0.5, precision: 0 },
  carbon_dioxide: { unit: 'ppm', min: 400, max: 1500, step: 15, precision: 0 },
  voltage: { unit: 'V', min: 225, max: 235, step: 0.5, precision: 1 },
  current: { unit: 'A', min: 0, max: 10, step: 0.3, precision: 2 },
};
const GENERIC: Preset = { min: 0, max: 100, step: 1, precision: 1 };

interface VirtualSensorOptions extends WalkRange {
  readonly deviceClass: SensorDeviceClass | undefined;
  readonly stateClass: SensorStateClass | undefined;
  readonly unit: string | undefined;
  readonly precision: number;
  readonly initial: number;
  readonly intervalMs: number;
  readonly icon: string | undefined;
}

/**
 * One step of a bounded random walk: move by up to `step` either way, reflecting off the bounds so the
 * value never leaves [min, max] and does not stick to an edge.
 */
export function walk(value: number, range: WalkRange, random: () => number): number {
  let next = value + (random() * 2 - 1) * range.step;
  if (next > range.max) next = range.max - (next - range.max);
  if (next < range.min) next = range.min + (range.min - next);
  return Math.min(Math.max(next, range.min), range.max);
}

/** A sensor whose reading drifts in a random walk between min and max, once per interval. */
export const virtualSensor: VirtualPlatform<VirtualSensorOptions> = {
  domain: 'sensor',
  parse(r) {
    const deviceClass = r.oneOf('device_class', SENSOR_DEVICE_CLASSES);
    const preset = (deviceClass && PRESETS[deviceClass]) || GENERIC;
    const min = r.number('min', { default: preset.min });
    const max = r.number('max', { default: preset.max });
    if (min >= max) r.problem('max', `max (${max}) must be greater than min (${min})`);
    const initial = r.number('initial', { min, max, default: (min + max) / 2 });
    return {
      deviceClass,
      stateClass: r.oneOf('state_class', SENSOR_STATE_CLASSES, 'measurement'),
      unit: r.string('unit_of_measurement') ?? preset.unit,
      precision: r.number('precision', { integer: true, min: 0, max: 6, default: preset.precision }),
      min,
      max,
      initial,
      step: r.number('step', { min: 0, default: preset.step }),
      intervalMs: r.number('interval', { min: 0.01, max: 86_400, default: 30 }) * 1000,
      icon: r.string('icon'),
    };
  },
  create(ctx, { entityId, name }, o) {
    const sensor = addSensor(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      deviceClass: o.deviceClass,
      stateClass: o.stateClass,
      unit: o.unit,
      precision: o.precision,
      icon: o.icon,
    });
    let value = o.initial;
    sensor.report(value);
    ctx.timers.interval(() => {
      value = walk(value, o, ctx.random);
      sensor.report(value);
    }, o.intervalMs);
  },
};
