import type { DeviceEntry } from '../core/devices.js';
import type { TargetSelector } from '../core/targets.js';
import type { EntityEntry } from './entity-entry.js';

/** What target expansion reads: the registries' current entries. */
export interface TargetSources {
  entityEntries(): Iterable<EntityEntry>;
  devices(): Iterable<DeviceEntry>;
  areas(): Iterable<{ readonly id: string; readonly floor_id: string | null; readonly labels: readonly string[] }>;
  hasDevice(id: string): boolean;
  hasArea(id: string): boolean;
  hasFloor(id: string): boolean;
  hasLabel(id: string): boolean;
}

export interface Expansion {
  readonly entityIds: Set<string>;
  /** Referenced ids that do not exist, by kind, for the "Referenced ... are missing" warning. */
  readonly missing: { readonly devices: string[]; readonly areas: string[]; readonly floors: string[]; readonly labels: string[] };
}

/**
 * The entities that device_id, area_id, floor_id and label_id select, as Home Assistant's
 * `async_extract_referenced_entity_ids` finds them:
 * - a device holds its entities;
 * - an area holds the entities assigned to it, and the entities of its devices that have no area of their own;
 * - a floor holds its areas;
 * - a label selects the entities, devices and areas that carry it.
 * Entities reached this way are skipped when hidden, when they have an entity category (config,
 * diagnostic) or when disabled. Explicit entity_id targets are not handled here.
 */
export function expandTarget(selector: TargetSelector, sources: TargetSources): Expansion {
  const missing = { devices: [] as string[], areas: [] as string[], floors: [] as string[], labels: [] as string[] };
  const areas = new Set<string>();
  const devices = new Set<string>();
  const entityIds = new Set<string>();
  const labels = new Set(selector.label_id ?? []);
  const floors = new Set(selector.floor_id ?? []);

  for (const id of selector.device_id ?? []) {
    if (!sources.hasDevice(id)) missing.devices.push(id);
    devices.add(id);
  }
  for (const id of selector.area_id ?? []) {
    if (!sources.hasArea(id)) missing.areas.push(id);
    areas.add(id);
  }
  for (const id of floors) if (!sources.hasFloor(id)) missing.floors.push(id);
  for (const id of labels) if (!sources.hasLabel(id)) missing.labels.push(id);

  if (floors.size > 0 || labels.size > 0) {
    for (const area of sources.areas()) {
      if ((area.floor_id !== null && floors.has(area.floor_id)) || area.labels.some((l) => labels.has(l))) areas.add(area.id);
    }
  }
  if (labels.size > 0) {
    for (const device of sources.devices()) if (device.labels.some((l) => labels.has(l))) devices.add(device.id);
  }
  // Devices in a targeted area contribute only their entities without an area of their own.
  const devicesInAreas = new Set<string>();
  if (areas.size > 0) {
    for (const device of sources.devices()) if (device.area_id !== null && areas.has(device.area_id)) devicesInAreas.add(device.id);
  }
  if (devices.size === 0 && devicesInAreas.size === 0 && areas.size === 0 && labels.size === 0) return { entityIds, missing };

  for (const e of sources.entityEntries()) {
    if (e.entity_category !== null || e.hidden_by !== null || e.disabled_by !== null) continue;
    if (
      (e.labels.length > 0 && e.labels.some((l) => labels.has(l))) ||
      (e.area_id !== null && areas.has(e.area_id)) ||
      (e.device_id !== null && devices.has(e.device_id)) ||
      (e.area_id === null && e.device_id !== null && devicesInAreas.has(e.device_id))
    ) {
      entityIds.add(e.entity_id);
    }
  }
  return { entityIds, missing };
}
