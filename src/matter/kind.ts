// What every Matter device kind shares: the link to its entity, its shape, and reading and writing attributes.
import type { JsonObject } from '../core/json.js';
import type { State } from '../core/state.js';
import type { EndpointType, MatterEndpoint, Patch } from './lib.js';

/** What an endpoint uses of its entity. */
export interface EntityLink {
  readonly entityId: string;
  /** The entity's state; while the bridge writes a state to the endpoint, that one (its changes are not a controller's). */
  state(): State | undefined;
  call(domain: string, service: string, data?: JsonObject): void;
}

export interface DeviceKind {
  /** The device type, before the bridged-device information is added. */
  readonly type: EndpointType;
  /** The attribute values for a state: at creation, and on each state change. */
  patch(state: State): Patch;
  /** Turns the controller's changes into service calls. */
  listen(endpoint: MatterEndpoint, link: EntityLink): void;
}

/** Endpoint types derived with one more behaviour, by base type and behaviour (both matter.js's, made once each). */
const derived = new WeakMap<EndpointType, Map<unknown, EndpointType>>();

/**
 * `type.with(behavior)`, made once for each type and behaviour: matter.js makes a new endpoint type at each call (with
 * its own behaviours object and functions), which each endpoint made from it would keep. A behaviour's `with(...)` is
 * matter.js's own cached class, so the same features give the same type.
 */
export function typeWith(type: EndpointType, behavior: unknown): EndpointType {
  let byBehavior = derived.get(type);
  if (byBehavior === undefined) {
    byBehavior = new Map();
    derived.set(type, byBehavior);
  }
  let out = byBehavior.get(behavior);
  if (out === undefined) {
    out = type.with(behavior);
    byBehavior.set(behavior, out);
  }
  return out;
}

/** A finite number, or a string holding one (a sensor's state). */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, Math.round(value)));
}

/** Subscribes to `cluster.attribute$Changed`, when the endpoint has it. */
export function onChange(endpoint: MatterEndpoint, cluster: string, attribute: string, fn: (value: unknown) => void): void {
  endpoint.events[cluster]?.[`${attribute}$Changed`]?.on((value: never) => fn(value as unknown));
}
