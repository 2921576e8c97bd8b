// A registered phone as Home Assistant's mobile_app makes it: a device, the sensors and binary sensors its app
// registers, and a GPS device_tracker whose state is the zone it is in.
import type { Core } from '../core/core.js';
import { deviceIdFor } from '../core/devices.js';
import type { Entity } from '../core/entities.js';
import { slugify } from '../core/entity-id.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { Registration, StoredSensor } from './registrations.js';
import { activeZone, type ZoneSource } from './zones.js';

export const DOMAIN = 'mobile_app';

export class PhoneEntities {
  private readonly sensors = new Map<string, Entity<null>>();
  private tracker: Entity<null> | undefined;

  constructor(
    private readonly core: Core,
    private readonly owner: string,
    private readonly registration: Registration,
    private readonly zones: ZoneSource,
  ) {}

  get deviceId(): string {
    return deviceIdFor([DOMAIN, this.registration.device_id]);
  }

  /** Registers the device, every stored sensor with its last state, and the tracker at its last location. */
  start(): void {
    const r = this.registration;
    this.core.devices.register({
      identifiers: [[DOMAIN, r.device_id]],
      name: r.device_name,
      owner: this.owner,
      manufacturer: r.manufacturer,
      model: r.model,
      sw_version: r.os_version ?? undefined,
    });
    for (const sensor of r.sensors) this.addSensor(sensor);
    this.tracker = this.core.entities.add({
      entityId: `device_tracker.${slugify(r.device_name) || 'phone'}`,
      owner: this.owner,
      platform: null,
      name: r.device_name,
      uniqueId: r.webhook_id,
      deviceId: this.deviceId,
      fixed: { source_type: 'gps' },
      restore: false,
    });
    if (r.location !== null) this.reportLocation(r.location);
    else this.tracker.report('unknown');
  }

  /** Takes the phone's entities and device away (the registration was deleted). */
  remove(): void {
    for (const entity of this.sensors.values()) this.core.entities.remove(entity.id);
    if (this.tracker !== undefined) this.core.entities.remove(this.tracker.id);
    this.sensors.clear();
    this.core.devices.remove(this.deviceId);
  }

  /** Adds (or, registered again, replaces) a sensor and writes its state. */
  addSensor(sensor: StoredSensor): void {
    const key = `${sensor.type}:${sensor.unique_id}`;
    const existing = this.sensors.get(key);
    if (existing !== undefined) this.core.entities.remove(existing.id);
    const entity = this.core.entities.add({
      entityId: `${sensor.type}.${slugify(`${this.registration.device_name} ${sensor.name}`) || 'phone_sensor'}`,
      owner: this.owner,
      platform: null,
      name: `${this.registration.device_name} ${sensor.name}`,
      uniqueId: `${this.registration.webhook_id}_${sensor.unique_id}`,
      deviceId: this.deviceId,
      fixed: fixedOf(sensor),
      entityCategory: sensor.entity_category === 'diagnostic' || sensor.entity_category === 'config' ? sensor.entity_category : undefined,
      restore: false,
    });
    this.sensors.set(key, entity);
    this.writeSensor(entity, sensor);
  }

  hasSensor(type: string, uniqueId: string): boolean {
    return this.sensors.has(`${type}:${uniqueId}`);
  }

  /** Writes a registered sensor's new state, attributes and icon. */
  updateSensor(sensor: StoredSensor): void {
    const entity = this.sensors.get(`${sensor.type}:${sensor.unique_id}`);
    if (entity === undefined) return;
    if (sensor.icon !== null && entity.fixed.icon !== sensor.icon) entity.setFixed(fixedOf(sensor));
    this.writeSensor(entity, sensor);
  }

  private writeSensor(entity: Entity<null>, sensor: StoredSensor): void {
    entity.report(stateText(sensor.type, sensor.state), sensor.attributes);
  }

  /** The phone's location: state is the zone it is in (or the name the app gave), attributes as HA's GPS tracker. */
  reportLocation(location: JsonObject): void {
    if (this.tracker === undefined) return;
    const gps = location.gps;
    const accuracy = typeof location.gps_accuracy === 'number' ? location.gps_accuracy : 0;
    const attributes: Record<string, JsonValue> = {};
    let state = 'unknown';
    if (Array.isArray(gps) && typeof gps[0] === 'number' && typeof gps[1] === 'number') {
      attributes.latitude = gps[0];
      attributes.longitude = gps[1];
      attributes.gps_accuracy = accuracy;
      state = activeZone(this.zones, gps[0], gps[1], accuracy) ?? 'not_home';
    }
    for (const key of ['altitude', 'course', 'speed', 'vertical_accuracy'] as const) {
      const value = location[key];
      if (typeof value === 'number') attributes[key] = value;
    }
    if (typeof location.battery === 'number') attributes.battery_level = location.battery;
    if (typeof location.location_name === 'string' && location.location_name !== '') state = location.location_name;
    this.tracker.report(state, attributes);
  }
}

/** The attributes a sensor's registration fixes, in Home Assistant's order. */
function fixedOf(sensor: StoredSensor): JsonObject {
  const fixed: Record<string, JsonValue> = {};
  if (sensor.state_class !== null) fixed.state_class = sensor.state_class;
  if (sensor.unit_of_measurement !== null) fixed.unit_of_measurement = sensor.unit_of_measurement;
  if (sensor.device_class !== null) fixed.device_class = sensor.device_class;
  if (sensor.icon !== null) fixed.icon = sensor.icon;
  return fixed;
}

/** Home Assistant's state text for a phone's value: binary sensors on/off, numbers as Python prints them. */
function stateText(type: StoredSensor['type'], state: JsonValue): string | null {
  if (state === null) return null;
  if (type === 'binary_sensor') return state === true || state === 'on' ? 'on' : 'off';
  if (typeof state === 'boolean') return state ? 'True' : 'False';
  if (typeof state === 'number') return String(state);
  if (typeof state === 'string') return state.slice(0, 255);
  return null;
}
