import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { merge } from '../core/merge.js';
import type { DesiredState, Domain } from './domain.js';

/**
 * Home Assistant's device_tracker domain (homeassistant/components/device_tracker): where a phone or a tag is.
 * State `home`, `not_home` or a zone's name; the attributes of the legacy Device (source_type, then latitude,
 * longitude and gps_accuracy when it has a position, battery, then the extra attributes it was seen with).
 * `device_tracker.see` is the presence part's (it needs the zones).
 */

export const SOURCE_TYPES = ['gps', 'router', 'bluetooth', 'bluetooth_le'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** What a tracker last reported. */
export interface DeviceTrackerModel {
  readonly state: string;
  readonly sourceType: SourceType;
  readonly gps?: readonly [number, number];
  readonly gpsAccuracy?: number;
  readonly battery?: number;
  readonly attributes: JsonObject;
}

/** What a tracker's platform does on restore: takes its last state back (HA's legacy Device is a RestoreEntity). */
export interface DeviceTrackerPlatform {
  restoreState(stored: DesiredState, context: Context): void;
}

export function deviceTrackerAttributes(model: DeviceTrackerModel): JsonObject {
  const attributes: Record<string, JsonValue> = { source_type: model.sourceType };
  if (model.gps !== undefined) {
    attributes.latitude = model.gps[0];
    attributes.longitude = model.gps[1];
    attributes.gps_accuracy = model.gpsAccuracy ?? 0;
  }
  if (model.battery !== undefined) attributes.battery = model.battery;
  return merge(attributes, model.attributes);
}

/** Adds a tracker whose state is restored through its platform. */
export function addDeviceTracker(core: Core, options: { entityId: string; owner: string; name: string; platform: DeviceTrackerPlatform }) {
  const entity = core.entities.add({ ...options, restore: true });
  return {
    entity,
    report(model: DeviceTrackerModel, context?: Context): void {
      entity.report(model.state, deviceTrackerAttributes(model), context);
    },
  };
}

export const deviceTrackerDomain: Domain = {
  name: 'device_tracker',
  // Its GPS attributes are history's (Home Assistant's significant-change rule for trackers).
  significantAttributes: true,
  registerServices(): void {},
};
