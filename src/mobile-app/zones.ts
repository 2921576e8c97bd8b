// Which zone a GPS fix is in, as Home Assistant's zone.async_active_zone decides: the closest non-passive zone whose
// circle the fix (with its accuracy) touches, the smaller radius winning a tie.

export interface ZoneArea {
  /** The tracker's state in it: `home` for zone.home, else the zone's name. */
  readonly state: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly radius: number;
  readonly passive: boolean;
}

export interface ZoneSource {
  zones(): Iterable<ZoneArea>;
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine), as Home Assistant's location.distance. */
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The state of the zone a fix is in, or undefined when it is in none. */
export function activeZone(source: ZoneSource, latitude: number, longitude: number, accuracyM: number): string | undefined {
  let best: { readonly zone: ZoneArea; readonly distance: number } | undefined;
  for (const zone of source.zones()) {
    if (zone.passive) continue;
    const distance = distanceM(latitude, longitude, zone.latitude, zone.longitude);
    if (distance - accuracyM >= zone.radius) continue;
    if (best === undefined || distance < best.distance || (distance === best.distance && zone.radius < best.zone.radius)) {
      best = { zone, distance };
    }
  }
  return best?.zone.state;
}
