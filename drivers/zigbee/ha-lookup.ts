import { ownValue } from '../../src/core/own-keys.js';
import { BINARY_SENSOR_DEVICE_CLASSES, type BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import { SENSOR_DEVICE_CLASSES, SENSOR_STATE_CLASSES, type SensorDeviceClass, type SensorStateClass } from '../../src/domains/sensor.js';

/**
 * What zigbee2mqtt's Home Assistant extension (lib/extension/homeassistant.ts) gives an expose by its name:
 * device class, state class, category and icon. Only the entries for entities hearth makes (sensors and binary
 * sensors) are kept; settable numbers and selects have no hearth domain yet.
 */
export interface SensorHints {
  readonly deviceClass?: SensorDeviceClass;
  readonly stateClass?: SensorStateClass;
  readonly category?: 'diagnostic';
  readonly icon?: string;
}

const M = 'measurement';
const NUMERIC: Readonly<Record<string, { dc?: string; sc?: string; cat?: 'diagnostic'; icon?: string }>> = {
  ac_frequency: { dc: 'frequency', sc: M },
  action_duration: { dc: 'duration', icon: 'mdi:timer' },
  aqi: { dc: 'aqi', sc: M },
  battery: { dc: 'battery', sc: M },
  battery2: { dc: 'battery', sc: M, cat: 'diagnostic' },
  battery_voltage: { dc: 'voltage', sc: M, cat: 'diagnostic' },
  co2: { dc: 'carbon_dioxide', sc: M },
  current: { dc: 'current', sc: M },
  current_phase_b: { dc: 'current', sc: M },
  current_phase_c: { dc: 'current', sc: M },
  device_temperature: { dc: 'temperature', sc: M, cat: 'diagnostic' },
  distance: { dc: 'distance', sc: M },
  eco2: { dc: 'volatile_organic_compounds_parts', sc: M },
  energy: { dc: 'energy', sc: 'total_increasing' },
  external_temperature: { dc: 'temperature', sc: M },
  formaldehyd: { sc: M },
  gas: { dc: 'gas', sc: 'total_increasing', icon: 'mdi:meter-gas' },
  humidity: { dc: 'humidity', sc: M },
  illuminance: { dc: 'illuminance', sc: M },
  illuminance_raw: { sc: M },
  linkquality: { sc: M, cat: 'diagnostic', icon: 'mdi:signal' },
  local_temperature: { dc: 'temperature', sc: M },
  noise: { dc: 'sound_pressure', sc: M },
  pm10: { dc: 'pm10', sc: M },
  pm25: { dc: 'pm25', sc: M },
  power: { dc: 'power', sc: M },
  power_phase_b: { dc: 'power', sc: M },
  power_phase_c: { dc: 'power', sc: M },
  power_factor: { dc: 'power_factor', sc: M, cat: 'diagnostic' },
  power_outage_count: { sc: M, icon: 'mdi:counter' },
  pressure: { dc: 'atmospheric_pressure', sc: M },
  soil_moisture: { dc: 'moisture', sc: M },
  temperature: { dc: 'temperature', sc: M },
  temperature_probe: { dc: 'temperature', sc: M },
  trigger_count: { sc: M, icon: 'mdi:counter' },
  voc: { dc: 'volatile_organic_compounds', sc: M },
  voc_index: { sc: M, icon: 'mdi:molecule' },
  voc_parts: { dc: 'volatile_organic_compounds_parts', sc: M },
  voltage: { dc: 'voltage', sc: M },
  voltage_phase_b: { dc: 'voltage', sc: M },
  voltage_phase_c: { dc: 'voltage', sc: M },
  water_consumed: { dc: 'water', sc: 'total_increasing' },
};

const BINARY: Readonly<Record<string, { dc?: string; cat?: 'diagnostic' }>> = {
  battery_low: { dc: 'battery', cat: 'diagnostic' },
  carbon_monoxide: { dc: 'carbon_monoxide' },
  consumer_connected: { dc: 'plug' },
  contact: { dc: 'door' },
  gas: { dc: 'gas' },
  moving: { dc: 'moving' },
  noise_detected: { dc: 'sound' },
  occupancy: { dc: 'occupancy' },
  presence: { dc: 'occupancy' },
  smoke: { dc: 'smoke' },
  sos: { dc: 'safety' },
  tamper: { dc: 'tamper' },
  valve_alarm: { dc: 'problem' },
  vibration: { dc: 'vibration' },
  water_leak: { dc: 'moisture' },
  window: { dc: 'window' },
  window_open: { dc: 'window' },
};

function isSensorDeviceClass(s: string | undefined): s is SensorDeviceClass {
  return s !== undefined && (SENSOR_DEVICE_CLASSES as readonly string[]).includes(s);
}
function isStateClass(s: string | undefined): s is SensorStateClass {
  return s !== undefined && (SENSOR_STATE_CLASSES as readonly string[]).includes(s);
}

/** A read-only numeric expose's sensor attributes, with zigbee2mqtt's unit rules (Wh is energy, W power, A current). */
export function numericHints(name: string, unit: string | undefined, category: string | undefined): SensorHints {
  // Home Assistant has a separate device class for VOC in ppb/ppm.
  const key = name === 'voc' && (unit === 'ppb' || unit === 'ppm') ? 'voc_parts' : name;
  const hit = ownValue(NUMERIC, key);
  let dc = hit?.dc;
  let sc = hit?.sc;
  if (unit === 'Wh' || unit === 'kWh') [dc, sc] = ['energy', 'total_increasing'];
  else if (unit === 'A' || unit === 'mA') [dc, sc] = ['current', M];
  else if (unit === 'mW' || unit === 'W' || unit === 'kW') [dc, sc] = ['power', M];
  const out: { -readonly [K in keyof SensorHints]: SensorHints[K] } = {};
  // A device class without a unit makes Home Assistant warn; zigbee2mqtt drops it, so do we.
  if (isSensorDeviceClass(dc) && unit !== undefined) out.deviceClass = dc;
  if (isStateClass(sc)) out.stateClass = sc;
  if (hit?.cat === 'diagnostic' || category === 'diagnostic' || category === 'config') out.category = 'diagnostic';
  if (hit?.icon) out.icon = hit.icon;
  return out;
}

export function binaryHints(
  name: string,
  category: string | undefined,
): { deviceClass?: BinarySensorDeviceClass; category?: 'diagnostic' } {
  const hit = ownValue(BINARY, name);
  const dc = hit?.dc;
  const out: { deviceClass?: BinarySensorDeviceClass; category?: 'diagnostic' } = {};
  if (dc !== undefined && (BINARY_SENSOR_DEVICE_CLASSES as readonly string[]).includes(dc)) out.deviceClass = dc as BinarySensorDeviceClass;
  if (hit?.cat === 'diagnostic' || category === 'diagnostic' || category === 'config') out.category = 'diagnostic';
  return out;
}
