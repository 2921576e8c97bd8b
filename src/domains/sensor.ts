import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Domain } from './domain.js';

/** Home Assistant's SensorDeviceClass values. */
export const SENSOR_DEVICE_CLASSES = [
  'apparent_power',
  'aqi',
  'area',
  'atmospheric_pressure',
  'battery',
  'blood_glucose_concentration',
  'carbon_dioxide',
  'carbon_monoxide',
  'conductivity',
  'current',
  'data_rate',
  'data_size',
  'date',
  'distance',
  'duration',
  'energy',
  'energy_distance',
  'energy_storage',
  'enum',
  'frequency',
  'gas',
  'humidity',
  'illuminance',
  'irradiance',
  'moisture',
  'monetary',
  'nitrogen_dioxide',
  'nitrogen_monoxide',
  'nitrous_oxide',
  'ozone',
  'ph',
  'pm1',
  'pm10',
  'pm25',
  'power',
  'power_factor',
  'precipitation',
  'precipitation_intensity',
  'pressure',
  'reactive_power',
  'signal_strength',
  'sound_pressure',
  'speed',
  'sulphur_dioxide',
  'temperature',
  'timestamp',
  'volatile_organic_compounds',
  'volatile_organic_compounds_parts',
  'voltage',
  'volume',
  'volume_flow_rate',
  'volume_storage',
  'water',
  'weight',
  'wind_direction',
  'wind_speed',
] as const;
export type SensorDeviceClass = (typeof SENSOR_DEVICE_CLASSES)[number];

export const SENSOR_STATE_CLASSES = ['measurement', 'total', 'total_increasing'] as const;
export type SensorStateClass = (typeof SENSOR_STATE_CLASSES)[number];

export interface SensorOptions extends Omit<EntityInit<null>, 'fixed' | 'platform'> {
  readonly deviceClass?: SensorDeviceClass;
  /** unit_of_measurement */
  readonly unit?: string;
  readonly stateClass?: SensorStateClass;
  /** Decimal places a numeric value is written with; unset writes the number as it is. */
  readonly precision?: number;
  readonly icon?: string;
}

export interface SensorHandle {
  readonly entity: Entity<null>;
  /** Writes a reading: numbers rounded to the precision, strings as they are, null as `unknown`. */
  report(value: number | string | null): void;
}

/** A number as a state string with `precision` decimals; never `-0`. Non-finite numbers are not known. */
export function formatSensorValue(value: number, precision: number | undefined): string | null {
  if (!Number.isFinite(value)) return null;
  if (precision === undefined) return String(value);
  const text = value.toFixed(precision);
  // Python's format gives "-0.0" for tiny negatives; Home Assistant strips that sign, and so do we.
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * Registers a sensor. Its attributes are all fixed (state_class, unit, device_class, icon, then
 * friendly_name, as Home Assistant orders them), so a reading that rounds to the same string writes
 * nothing and fires nothing.
 */
export function addSensor(core: Core, options: SensorOptions): SensorHandle {
  const { deviceClass, unit, stateClass, precision, icon, ...init } = options;
  if (precision !== undefined && (!Number.isInteger(precision) || precision < 0 || precision > 10)) {
    throw new RangeError(`sensor precision must be an integer from 0 to 10, got ${precision}`);
  }
  const fixed: Record<string, JsonValue> = {};
  if (stateClass !== undefined) fixed.state_class = stateClass;
  if (unit !== undefined) fixed.unit_of_measurement = unit;
  if (deviceClass !== undefined) fixed.device_class = deviceClass;
  if (icon !== undefined) fixed.icon = icon;
  const entity = core.entities.add({ ...init, platform: null, fixed, suggestedDisplayPrecision: precision });
  return {
    entity,
    report(value) {
      entity.report(typeof value === 'number' ? formatSensorValue(value, precision) : value);
    },
  };
}

/** Sensors only report; they have no services. */
export const sensorDomain: Domain = {
  name: 'sensor',
  published: true,
  adopted: true,
  registerServices() {},
};
