// The webhook message types that change a phone's own data (homeassistant/components/mobile_app/webhook.py):
// register_sensor, update_sensor_states, update_location, update_registration, enable_encryption.
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { newSecret } from './crypto.js';
import type { PhoneEntities } from './phone-entities.js';
import { MAX_SENSORS_PER_PHONE, type Registration, type StoredSensor } from './registrations.js';

/** An answer: its status, its data, and whether it is sealed for a phone that encrypts (enable_encryption's is not). */
export interface CommandAnswer {
  readonly status: number;
  readonly data: JsonValue;
  readonly plain?: boolean;
}

export const OK_EMPTY: CommandAnswer = { status: 200, data: {} };

const MAX_TEXT = 255;
const ENTITY_TYPES = new Set(['sensor', 'binary_sensor']);
const STATE_CLASSES = new Set(['measurement', 'total', 'total_increasing']);
const ENTITY_CATEGORIES = new Set(['config', 'diagnostic']);

/** A problem with a field, worded as voluptuous's humanized errors. */
class Invalid extends Error {}

function text(data: JsonObject, key: string, required: boolean): string | null {
  const value = data[key];
  if (value === undefined || value === null) {
    if (required) throw new Invalid(`required key not provided @ data['${key}']`);
    return null;
  }
  if (typeof value !== 'string' && typeof value !== 'number') throw new Invalid(`expected str for dictionary value @ data['${key}']`);
  return String(value).slice(0, MAX_TEXT);
}

function stateValue(data: JsonObject): JsonValue {
  const state = data.state ?? null;
  if (state !== null && typeof state !== 'boolean' && typeof state !== 'number' && typeof state !== 'string') {
    throw new Invalid("expected bool, int, float or str for dictionary value @ data['state']");
  }
  return state;
}

function attributes(data: JsonObject): JsonObject {
  const value = data.attributes ?? {};
  if (!isJsonObject(value)) throw new Invalid("expected dict for dictionary value @ data['attributes']");
  return value;
}

function sensorType(data: JsonObject): StoredSensor['type'] {
  const type = data.type;
  if (typeof type !== 'string' || !ENTITY_TYPES.has(type))
    throw new Invalid(`value must be one of ['binary_sensor', 'sensor'] @ data['type']`);
  return type as StoredSensor['type'];
}

/** Reads a register_sensor payload; throws Invalid naming the field. */
function readSensor(data: JsonValue): StoredSensor {
  if (!isJsonObject(data)) throw new Invalid('expected a dictionary');
  const stateClass = text(data, 'state_class', false);
  if (stateClass !== null && !STATE_CLASSES.has(stateClass))
    throw new Invalid(`value must be one of ${[...STATE_CLASSES].join(', ')} @ data['state_class']`);
  const category = text(data, 'entity_category', false);
  if (category !== null && !ENTITY_CATEGORIES.has(category))
    throw new Invalid(`value must be one of config, diagnostic @ data['entity_category']`);
  const icon = data.icon === undefined ? 'mdi:cellphone' : text(data, 'icon', false);
  return {
    type: sensorType(data),
    unique_id: text(data, 'unique_id', true) ?? '',
    name: text(data, 'name', true) ?? '',
    state: stateValue(data),
    attributes: attributes(data),
    device_class: text(data, 'device_class', false)?.toLowerCase() ?? null,
    icon,
    unit_of_measurement: text(data, 'unit_of_measurement', false),
    state_class: stateClass,
    entity_category: category,
    disabled: data.disabled === true,
  };
}

/** register_sensor: a new sensor (or one registered again, replaced), answered 201 `{"success": true}`. */
export function registerSensor(registration: Registration, entities: PhoneEntities, data: JsonValue): CommandAnswer {
  let sensor: StoredSensor;
  try {
    sensor = readSensor(data);
  } catch (err) {
    if (err instanceof Invalid) return { status: 200, data: {}, plain: false };
    throw err;
  }
  const index = registration.sensors.findIndex((s) => s.type === sensor.type && s.unique_id === sensor.unique_id);
  if (index === -1 && registration.sensors.length >= MAX_SENSORS_PER_PHONE) {
    return {
      status: 400,
      data: { success: false, error: { code: 'invalid_format', message: `a phone may register at most ${MAX_SENSORS_PER_PHONE} sensors` } },
    };
  }
  if (index === -1) registration.sensors.push(sensor);
  else registration.sensors[index] = sensor;
  entities.addSensor(sensor);
  return { status: 201, data: { success: true } };
}

/** update_sensor_states: each item's result by unique id; unknown sensors are `not_registered`. */
export function updateSensorStates(registration: Registration, entities: PhoneEntities, data: JsonValue): CommandAnswer {
  if (!Array.isArray(data)) return OK_EMPTY;
  const out: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  for (const item of data.slice(0, MAX_SENSORS_PER_PHONE)) {
    if (!isJsonObject(item)) continue;
    const uniqueId = typeof item.unique_id === 'string' ? item.unique_id.slice(0, MAX_TEXT) : undefined;
    if (uniqueId === undefined) continue;
    try {
      const type = sensorType(item);
      const state = stateValue(item);
      const attrs = attributes(item);
      const stored = registration.sensors.find((s) => s.type === type && s.unique_id === uniqueId);
      if (stored === undefined || !entities.hasSensor(type, uniqueId)) {
        out[uniqueId] = { success: false, error: { code: 'not_registered', message: `${type} ${uniqueId} is not registered` } };
        continue;
      }
      stored.state = state;
      stored.attributes = attrs;
      if (typeof item.icon === 'string') stored.icon = item.icon.slice(0, MAX_TEXT);
      entities.updateSensor(stored);
      out[uniqueId] = stored.disabled ? { success: true, is_disabled: true } : { success: true };
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      out[uniqueId] = { success: false, error: { code: 'invalid_format', message: err.message } };
    }
  }
  return { status: 200, data: { ...out } };
}

/** update_location: the tracker's new fix. */
export function updateLocation(registration: Registration, entities: PhoneEntities, data: JsonValue): CommandAnswer {
  if (!isJsonObject(data)) return OK_EMPTY;
  const gps = data.gps;
  const fix: Record<string, JsonValue> = {};
  if (Array.isArray(gps) && gps.length === 2 && gps.every((n) => typeof n === 'number' && Number.isFinite(n))) fix.gps = gps;
  for (const key of ['gps_accuracy', 'battery', 'speed', 'altitude', 'course', 'vertical_accuracy'] as const) {
    const value = data[key];
    if (typeof value === 'number' && Number.isFinite(value)) fix[key] = value;
  }
  if (typeof data.location_name === 'string') fix.location_name = data.location_name.slice(0, MAX_TEXT);
  registration.location = fix;
  entities.reportLocation(fix);
  return OK_EMPTY;
}

/** update_registration: new app and OS versions, device name or app data; answers the safe registration. */
export function updateRegistration(registration: Registration, data: JsonValue): CommandAnswer {
  if (!isJsonObject(data)) return OK_EMPTY;
  for (const key of ['app_version', 'device_name', 'manufacturer', 'model', 'os_version'] as const) {
    const value = data[key];
    if (typeof value === 'string' && value.length <= MAX_TEXT) registration[key] = value;
  }
  if (isJsonObject(data.app_data)) registration.app_data = data.app_data;
  return { status: 200, data: safeRegistration(registration) };
}

/** enable_encryption: a secret for a phone that had none (answered in clear: the phone has no key yet). */
export function enableEncryption(registration: Registration): CommandAnswer {
  if (registration.supports_encryption) {
    return {
      status: 400,
      data: { success: false, error: { code: 'encryption_already_enabled', message: 'Encryption already enabled' } },
      plain: true,
    };
  }
  registration.secret = newSecret();
  registration.supports_encryption = true;
  registration.key_scheme = 'hex';
  return { status: 200, data: { secret: registration.secret }, plain: true };
}

/** The registration without its secrets (webhook id, secret), as Home Assistant's safe_registration. */
export function safeRegistration(r: Registration): JsonObject {
  return {
    app_data: r.app_data,
    app_id: r.app_id,
    app_name: r.app_name,
    app_version: r.app_version,
    device_name: r.device_name,
    manufacturer: r.manufacturer,
    model: r.model,
    os_version: r.os_version,
    supports_encryption: r.supports_encryption,
  };
}
