import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import { slugify } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import type { ValidData } from '../core/fields.js';
import { isJsonObject, type JsonObject } from '../core/json.js';
import { addDeviceTracker, type DeviceTrackerModel, SOURCE_TYPES, type SourceType } from '../domains/device-tracker.js';
import type { DesiredState } from '../domains/domain.js';
import { activeZone, ZONE_HOME, zoneName } from '../domains/zone.js';

/** At most this many trackers made by `device_tracker.see` (each call with a new dev_id adds one). */
export const MAX_TRACKERS = 1000;

interface Tracker {
  readonly handle: ReturnType<typeof addDeviceTracker>;
  model: DeviceTrackerModel | undefined;
  hostName?: string;
}

/**
 * device_tracker.see, as Home Assistant's legacy device tracker (device_tracker/legacy.py async_see and
 * Device.async_update): one `device_tracker.<dev_id>` per device seen, whose state is the location name given,
 * else from its GPS position the zone it is in (`home` for zone.home, `not_home` outside every zone), else
 * `home` (a router or Bluetooth sighting).
 */
export class Trackers {
  private readonly trackers = new Map<string, Tracker>();

  constructor(
    private readonly core: Core,
    private readonly owner: string,
  ) {}

  /** The service's fields, as HA's SERVICE_SEE_PAYLOAD_SCHEMA. */
  static readonly fields = {
    mac: { kind: 'text', maxLength: 64, description: 'MAC address of the device.' },
    dev_id: { kind: 'text', maxLength: 190, description: 'ID of the device (find the ID in `known_devices.yaml`).' },
    host_name: { kind: 'text', maxLength: 255, description: 'Hostname of the device.' },
    location_name: {
      kind: 'text',
      maxLength: 255,
      description: 'Name of the location where the device is located (home, not_home, a zone).',
    },
    gps: {
      kind: 'tuple',
      items: [
        { min: -90, max: 90 },
        { min: -180, max: 180 },
      ],
      description: 'GPS coordinates where the device is located, specified by latitude and longitude.',
    },
    gps_accuracy: { kind: 'number', min: 0, description: 'Accuracy of the GPS coordinates.', unit: 'm' },
    battery: { kind: 'number', min: 0, max: 100, description: 'Battery level of the device.', unit: '%' },
    attributes: { kind: 'object', description: 'Extra attributes of the device.' },
    source_type: { kind: 'select', options: [...SOURCE_TYPES], description: 'How the device was seen.' },
    consider_home: { kind: 'any', description: 'Accepted as Home Assistant does; hearth keeps the last state.' },
  } as const;

  see(data: ValidData, context: Context): void {
    const rawId = data.dev_id ?? data.mac;
    if (rawId === undefined) throw new HubError('invalid_service_data', 'must contain at least one of mac, dev_id.');
    const devId = slugify(String(data.dev_id ?? String(data.mac).replace(/:/g, '')));
    if (devId === '')
      throw new HubError('invalid_service_data', `dev_id ${JSON.stringify(rawId)} has no letters or digits to make an entity id of`);
    const entityId = `device_tracker.${devId}`;
    let tracker = this.trackers.get(devId);
    if (tracker === undefined) {
      if (this.trackers.size >= MAX_TRACKERS) throw new HubError('hub_error', `at most ${MAX_TRACKERS} device trackers can be seen`);
      if (this.core.entities.get(entityId) !== undefined)
        throw new HubError('invalid_service_data', `${entityId} is provided by another integration`);
      tracker = this.add(devId, entityId, data.host_name === undefined ? undefined : String(data.host_name));
    }
    const previous = tracker.model;
    const gps = Array.isArray(data.gps) ? ([Number(data.gps[0]), Number(data.gps[1])] as const) : undefined;
    const sourceType = (data.source_type as SourceType | undefined) ?? 'gps';
    const attributes: JsonObject = isJsonObject(data.attributes)
      ? { ...previous?.attributes, ...data.attributes }
      : (previous?.attributes ?? {});
    const gpsAccuracy = gps === undefined ? undefined : typeof data.gps_accuracy === 'number' ? data.gps_accuracy : 0;
    const battery = typeof data.battery === 'number' ? data.battery : previous?.battery;
    let state: string;
    if (typeof data.location_name === 'string') state = data.location_name;
    else if (gps !== undefined && sourceType === 'gps') {
      const zone = activeZone(this.core, gps[0], gps[1], gpsAccuracy ?? 0);
      state = zone === undefined ? 'not_home' : zone.entity_id === ZONE_HOME ? 'home' : zoneName(zone);
    } else state = 'home';
    tracker.model = { state, sourceType, gps, gpsAccuracy, battery, attributes };
    tracker.handle.report(tracker.model, context);
  }

  private add(devId: string, entityId: string, hostName: string | undefined): Tracker {
    const restoreState = (stored: DesiredState): void => this.restoreInto(devId, stored);
    const handle = addDeviceTracker(this.core, { entityId, owner: this.owner, name: hostName ?? devId, platform: { restoreState } });
    const tracker: Tracker = { handle, model: undefined, hostName };
    this.trackers.set(devId, tracker);
    return tracker;
  }

  /** A tracker not seen since the start takes its last state back. */
  private restoreInto(devId: string, stored: DesiredState): void {
    const t = this.trackers.get(devId);
    if (t === undefined || t.model !== undefined) return;
    const { source_type, latitude, longitude, gps_accuracy, battery, friendly_name: _name, ...rest } = stored.attributes;
    t.model = {
      state: stored.state,
      sourceType: (SOURCE_TYPES as readonly unknown[]).includes(source_type) ? (source_type as SourceType) : 'gps',
      gps: typeof latitude === 'number' && typeof longitude === 'number' ? [latitude, longitude] : undefined,
      gpsAccuracy: typeof gps_accuracy === 'number' ? gps_accuracy : undefined,
      battery: typeof battery === 'number' ? battery : undefined,
      attributes: rest,
    };
    t.handle.report(t.model);
  }

  /**
   * Trackers seen before a restart come back with their last state: those persons follow (HA keeps them in
   * known_devices.yaml; hearth in restore state).
   */
  restore(entityIds: Iterable<string>, lastState: (entityId: string) => { state: string; attributes?: JsonObject } | undefined): void {
    for (const entityId of entityIds) {
      const devId = entityId.slice('device_tracker.'.length);
      const stored = lastState(entityId);
      if (stored === undefined || this.trackers.has(devId) || this.core.entities.get(entityId) !== undefined) continue;
      const friendly = stored.attributes?.friendly_name;
      this.add(devId, entityId, typeof friendly === 'string' && friendly !== devId ? friendly : undefined);
      this.restoreInto(devId, { state: stored.state, attributes: stored.attributes ?? {} });
    }
  }

  stop(): void {
    this.trackers.clear();
  }
}
