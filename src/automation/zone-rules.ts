import type { ConfigReader } from '../config/reader.js';
import type { Core } from '../core/core.js';
import type { State } from '../core/state.js';
import { inZone } from '../domains/zone.js';
import { readEntityIds } from './config-values.js';
import type { Condition, ZoneTrigger } from './model.js';

/**
 * The zone trigger and condition, as Home Assistant's components/zone/trigger.py and helpers/condition.py
 * (zone): an entity with a latitude and longitude entering or leaving a zone, its gps_accuracy counted as a radius.
 */

const EVENTS = ['enter', 'leave'] as const;
type ZoneCondition = Extract<Condition, { kind: 'zone' }>;

export function parseZoneTrigger(r: ConfigReader, base: Pick<ZoneTrigger, 'id' | 'index' | 'enabled'>): ZoneTrigger {
  const entityIds = readEntityIds(r, 'entity_id', { required: true });
  const [zone] = readEntityIds(r, 'zone', { required: true, domain: 'zone' });
  const event = r.oneOf('event', EVENTS, 'enter');
  return { ...base, kind: 'zone', entityIds, zone: zone ?? '', event };
}

export function parseZoneCondition(r: ConfigReader): ZoneCondition {
  return {
    kind: 'zone',
    entityIds: readEntityIds(r, 'entity_id', { required: true }),
    zones: readEntityIds(r, 'zone', { required: true, domain: 'zone' }),
  };
}

/** condition.zone(): whether the entity's position (its accuracy as a radius) is in the zone. */
export function stateInZone(zone: State | undefined, entity: State | null | undefined): boolean {
  if (zone === undefined || entity === null || entity === undefined) return false;
  const { latitude, longitude, gps_accuracy: accuracy } = entity.attributes;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return false;
  return inZone(zone, latitude, longitude, typeof accuracy === 'number' ? accuracy : 0);
}

/** Every entity is in one of the zones (condition.zone with lists, as HA's zone_from_config). */
export function checkZone(core: Core, c: ZoneCondition): boolean {
  return c.entityIds.every((id) => c.zones.some((zone) => stateInZone(core.states.get(zone), core.states.get(id))));
}
