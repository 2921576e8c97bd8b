import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { JsonObject } from '../core/json.js';
import type { DesiredState, Domain } from './domain.js';

/**
 * Home Assistant's person domain (homeassistant/components/person): a person's state is that of the device tracker
 * that decides (`home`, `not_home`, a zone's name), `unknown` without one. Attributes in HA's order: editable, id,
 * device_trackers, then latitude, longitude, gps_accuracy and source when a tracker decides, user_id when linked.
 */

/** The person's platform restores its last state until a tracker reports (HA's Person is a RestoreEntity). */
export interface PersonPlatform {
  restoreState(stored: DesiredState, context: Context): void;
}

export interface PersonModel {
  readonly id: string;
  readonly editable: boolean;
  readonly deviceTrackers: readonly string[];
  readonly userId?: string;
  readonly picture?: string;
}

/** Where the person is, from the deciding tracker (or a restored state). */
export interface PersonSource {
  readonly state: string;
  readonly source?: string;
  readonly latitude?: unknown;
  readonly longitude?: unknown;
  readonly gpsAccuracy?: unknown;
}

export function personAttributes(model: PersonModel, source: PersonSource | null): JsonObject {
  const attributes: Record<string, JsonObject[string]> = {
    editable: model.editable,
    id: model.id,
    device_trackers: [...model.deviceTrackers],
  };
  if (typeof source?.latitude === 'number') attributes.latitude = source.latitude;
  if (typeof source?.longitude === 'number') attributes.longitude = source.longitude;
  if (typeof source?.gpsAccuracy === 'number') attributes.gps_accuracy = source.gpsAccuracy;
  if (source?.source !== undefined) attributes.source = source.source;
  if (model.userId !== undefined) attributes.user_id = model.userId;
  return attributes;
}

export function addPerson(
  core: Core,
  options: { entityId: string; owner: string; name: string; uniqueId: string; picture?: string; platform: PersonPlatform },
) {
  const { picture, ...init } = options;
  return core.entities.add({ ...init, fixed: picture === undefined ? {} : { entity_picture: picture }, restore: true });
}

export const personDomain: Domain = {
  name: 'person',
  registerServices(): void {},
};
