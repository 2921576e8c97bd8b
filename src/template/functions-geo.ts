import { isValidEntityId } from '../core/entity-id.js';
import type { StateTable } from '../core/state-table.js';
import { expand } from './functions-states.js';
import { toFloat } from './functions-values.js';
import { pyFloat } from './py-float.js';
import { step } from './scope.js';
import { TemplateState } from './states.js';

/**
 * distance() and closest(), as Home Assistant's: from the hub's home (or a state, an entity id, a pair
 * of coordinates) to entities with a location, by Vincenty's formula on the WGS-84 ellipsoid.
 */

/** The hub's home and the unit lengths are given in (HA's unit system: km for metric, mi for US). */
export interface HomeLocation {
  readonly latitude: number;
  readonly longitude: number;
  readonly lengthUnit?: 'km' | 'm' | 'mi';
}

const A = 6378137.0;
const F = 1 / 298.257223563;
const B = 6356752.314245;

/** Vincenty's inverse formula (HA's location.vincenty), in metres; undefined when it does not converge. */
export function vincenty(lat1: number, lon1: number, lat2: number, lon2: number): number | undefined {
  if (lat1 === lat2 && lon1 === lon2) return 0;
  const rad = Math.PI / 180;
  const U1 = Math.atan((1 - F) * Math.tan(lat1 * rad));
  const U2 = Math.atan((1 - F) * Math.tan(lat2 * rad));
  const L = (lon2 - lon1) * rad;
  let lambda = L;
  const sinU1 = Math.sin(U1);
  const cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2);
  const cosU2 = Math.cos(U2);
  for (let i = 0; i < 200; i++) {
    const sinLambda = Math.sin(lambda);
    const cosLambda = Math.cos(lambda);
    const sinSigma = Math.sqrt((cosU2 * sinLambda) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) ** 2);
    if (sinSigma === 0) return 0;
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinLambda) / sinSigma;
    const cosSqAlpha = 1 - sinAlpha ** 2;
    const cos2SigmaM = cosSqAlpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cosSqAlpha;
    const C = (F / 16) * cosSqAlpha * (4 + F * (4 - 3 * cosSqAlpha));
    const prev = lambda;
    lambda = L + (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - prev) < 1e-12) {
      const uSq = (cosSqAlpha * (A ** 2 - B ** 2)) / B ** 2;
      const AA = 1 + (uSq / 16384) * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)));
      const BB = (uSq / 1024) * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)));
      const deltaSigma =
        BB *
        sinSigma *
        (cos2SigmaM +
          (BB / 4) *
            (cosSigma * (-1 + 2 * cos2SigmaM ** 2) - (BB / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
      return Math.round(B * AA * (sigma - deltaSigma) * 1e3) / 1e3;
    }
  }
  return undefined;
}

const PER_METRE = { km: 1 / 1000, m: 1, mi: 1 / 1609.344 } as const;

/** A state with a float latitude and longitude (loc_helper.has_location). */
function locationOf(state: TemplateState): [number, number] | undefined {
  const { latitude, longitude } = state.state.attributes;
  const isFloat = (v: unknown): v is number => typeof v === 'number' && !Number.isInteger(v);
  return isFloat(latitude) && isFloat(longitude) ? [latitude, longitude] : undefined;
}

function resolve(table: StateTable, value: unknown): TemplateState | undefined {
  if (value instanceof TemplateState) return value;
  if (typeof value === 'string' && isValidEntityId(value)) {
    const state = table.get(value);
    return state === undefined ? undefined : TemplateState.of(state);
  }
  return undefined;
}

export function geoFunctions(table: StateTable, home: () => HomeLocation | undefined): Record<string, (...args: unknown[]) => unknown> {
  const closest = (...args: unknown[]): unknown => {
    let from: [number, number] | undefined;
    let entities: unknown;
    if (args.length === 1) {
      const h = home();
      if (h === undefined) return null;
      from = [h.latitude, h.longitude];
      entities = args[0];
    } else if (args.length === 2) {
      const state = resolve(table, args[0]);
      from = state === undefined ? undefined : locationOf(state);
      entities = args[1];
    } else {
      const lat = toFloat(args[0]);
      const lon = toFloat(args[1]);
      from = lat === undefined || lon === undefined ? undefined : [lat, lon];
      entities = args[2];
    }
    if (from === undefined) return null;
    let best: TemplateState | null = null;
    let bestDistance = Number.POSITIVE_INFINITY;
    for (const state of expand(table, [entities])) {
      step();
      const at = locationOf(state);
      if (at === undefined) continue;
      const d = vincenty(at[0], at[1], from[0], from[1]) ?? 0;
      if (d < bestDistance) {
        best = state;
        bestDistance = d;
      }
    }
    return best;
  };
  return {
    distance: (...args) => {
      const points: [number, number][] = [];
      const queue = [...args];
      while (queue.length > 0) {
        step();
        const value = queue.shift();
        const state = typeof value === 'string' && !isValidEntityId(value) ? undefined : resolve(table, value);
        if (state === undefined) {
          if (queue.length === 0) return null;
          const lat = toFloat(value);
          const lon = toFloat(queue.shift());
          if (lat === undefined || lon === undefined) return null;
          points.push([lat, lon]);
        } else {
          const at = locationOf(state);
          if (at === undefined) return null;
          points.push(at);
        }
      }
      const h = home();
      if (points.length === 0 || h === undefined) return null;
      const [a, b] = (points.length === 1 ? [[h.latitude, h.longitude], points[0]] : [points[0], points[1]]) as [
        [number, number],
        [number, number],
      ];
      const metres = vincenty(a[0], a[1], b[0], b[1]);
      return metres === undefined ? null : pyFloat(metres * PER_METRE[h.lengthUnit ?? 'km']);
    },
    closest,
    /** `entities | closest(...)`: the entities come first. */
    closest_filter: (entities, ...rest) => closest(...rest, entities),
  };
}
