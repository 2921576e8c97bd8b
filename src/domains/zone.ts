import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { State } from '../core/state.js';
import type { Domain } from './domain.js';

/**
 * Home Assistant's zone domain (homeassistant/components/zone): a circle on the map whose state is the number of
 * persons in it. Here are its vocabulary (the model, the attributes in HA's order), the distance on the WGS-84
 * ellipsoid HA measures with (util/location.py's vincenty), and `in_zone`/`async_active_zone`, which the presence
 * part (device trackers), the zone trigger and the zone condition share.
 */

export const ZONE_HOME = 'zone.home';
export const DEFAULT_ZONE_RADIUS = 100;

/** What a zone is: its configuration (YAML, stored, or the hub's location for zone.home). */
export interface ZoneModel {
  readonly name: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly radius: number;
  readonly passive: boolean;
  readonly icon?: string;
}

/** Adds a zone; `report(persons)` writes its state (how many persons are in it) and attributes. */
export function addZone(core: Core, options: { entityId: string; owner: string; model: ZoneModel; editable: boolean; uniqueId?: string }) {
  let model = options.model;
  const entity: Entity<null> = core.entities.add({
    entityId: options.entityId,
    owner: options.owner,
    platform: null,
    name: model.name,
    uniqueId: options.uniqueId,
    fixed: model.icon === undefined ? {} : { icon: model.icon },
    restore: false,
  });
  return {
    entity,
    get model(): ZoneModel {
      return model;
    },
    /** A new configuration (zone.home when the hub moved, a stored zone updated). */
    update(next: ZoneModel): void {
      model = next;
      entity.setFixed(next.icon === undefined ? { friendly_name: next.name } : { icon: next.icon, friendly_name: next.name });
    },
    report(persons: readonly string[]): void {
      entity.report(String(persons.length), {
        latitude: model.latitude,
        longitude: model.longitude,
        radius: model.radius,
        passive: model.passive,
        persons: [...persons],
        editable: options.editable,
      });
    },
  };
}
export type ZoneHandle = ReturnType<typeof addZone>;

const A = 6378137; // WGS-84 semi-major axis (m)
const F = 1 / 298.257223563;
const B = 6356752.314245;
const MAX_ITERATIONS = 200;
const CONVERGENCE = 1e-12;

/** Metres between two points, by Vincenty's inverse formula (HA's util/location.py vincenty); null when it does not converge. */
export function distance(lat1: number, lon1: number, lat2: number, lon2: number): number | null {
  if (lat1 === lat2 && lon1 === lon2) return 0;
  const rad = Math.PI / 180;
  const L = (lon2 - lon1) * rad;
  const U1 = Math.atan((1 - F) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - F) * Math.tan(lat2 * rad));
  const sinU1 = Math.sin(U1);
  const cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2);
  const cosU2 = Math.cos(U2);
  let lambda = L;
  let sinSigma = 0;
  let cosSigma = 0;
  let sigma = 0;
  let cosSqAlpha = 0;
  let cos2SigmaM = 0;
  let i = 0;
  for (; i < MAX_ITERATIONS; i++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    sinSigma = Math.sqrt((cosU2 * sinLambda) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) ** 2);
    if (sinSigma === 0) return 0;
    cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    cosSqAlpha = 1 - sinAlpha ** 2;
    cos2SigmaM = cosSqAlpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cosSqAlpha;
    const C = (F / 16) * cosSqAlpha * (4 + F * (4 - 3 * cosSqAlpha));
    const prev = lambda;
    lambda = L + (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - prev) < CONVERGENCE) break;
  }
  if (i === MAX_ITERATIONS) return null;
  const uSq = (cosSqAlpha * (A ** 2 - B ** 2)) / B ** 2;
  const Acoef = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
  const Bcoef = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
  const deltaSigma =
    Bcoef *
    sinSigma *
    (cos2SigmaM +
      (Bcoef / 4) *
        (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (Bcoef / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
  // HA rounds the kilometres to six places (a millimetre).
  return Math.round(B * Acoef * (sigma - deltaSigma) * 1000) / 1000;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** zone.in_zone: whether a point (with its accuracy as a radius) is in the zone; never for an unavailable zone. */
export function inZone(zone: State, latitude: number, longitude: number, radius = 0): boolean {
  if (zone.state === 'unavailable') return false;
  const lat = num(zone.attributes.latitude);
  const lon = num(zone.attributes.longitude);
  const r = num(zone.attributes.radius);
  if (lat === undefined || lon === undefined || r === undefined) return false;
  const d = distance(latitude, longitude, lat, lon);
  return d !== null && d - radius < r;
}

/**
 * zone.async_active_zone: the closest non-passive zone the point is in (the smaller one at equal distance), in
 * entity id order so that ties are decided the same way each time; undefined outside every zone.
 */
export function activeZone(core: Core, latitude: number, longitude: number, radius = 0): State | undefined {
  const ids = [...core.entities.ofDomain('zone')].map((e) => e.id).sort();
  let closest: State | undefined;
  let minDist = 0;
  for (const id of ids) {
    const zone = core.states.get(id);
    if (zone === undefined || zone.state === 'unavailable' || zone.attributes.passive === true) continue;
    const lat = num(zone.attributes.latitude);
    const lon = num(zone.attributes.longitude);
    const r = num(zone.attributes.radius);
    if (lat === undefined || lon === undefined || r === undefined) continue;
    const d = distance(latitude, longitude, lat, lon);
    if (d === null) continue;
    const within = d - radius < r;
    const closer = closest === undefined || d < minDist;
    const smaller = closest !== undefined && d === minDist && r < (num(closest.attributes.radius) ?? Number.POSITIVE_INFINITY);
    if (within && (closer || smaller)) {
      minDist = d;
      closest = zone;
    }
  }
  return closest;
}

/** A zone's name as states name it (its friendly_name, else its object id). */
export function zoneName(zone: State): string {
  const name = zone.attributes.friendly_name;
  return typeof name === 'string' ? name : zone.entity_id.slice('zone.'.length);
}

/** Zones have no services of their own beside `zone.reload` (the presence part's). */
export const zoneDomain: Domain = {
  name: 'zone',
  registerServices(): void {},
};
