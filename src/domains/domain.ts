import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { HubError } from '../core/errors.js';
import type { FieldSpec, ServiceSchema, ValidData } from '../core/fields.js';
import type { JsonObject } from '../core/json.js';
import type { ServiceCall } from '../core/services.js';

/**
 * The domain template. Every file in src/domains/ reads in this order:
 * 1. feature bits (`<Domain>Feature`, Home Assistant's numbers) and the domain's vocabulary types;
 * 2. the platform interface drivers implement (optional methods belong to feature bits);
 * 3. the model a driver reports, and the capabilities it declares once;
 * 4. `add<Domain>(core, options)`: adds the entity with its fixed attributes and its per-entity data
 *    (`EntityInit.data`, read back with `dataOf`), and returns a handle whose `report(model)` renders state and
 *    attributes in Home Assistant's order;
 * 5. the service table: one `EntityServiceSpec` per service with its fields beside it, registered through
 *    `registerEntityServices` (domain-level services, with no entity, through `core.services.register`);
 * 6. the `Domain` object: its facts (`restored`, `published`, ...), `registerServices` and `reproduceState` (what
 *    scenes and restore state use), or `restoreState` when the state is the domain's own record rather than
 *    something a service sets (button).
 * A domain over 400 lines keeps 1-4 in `<domain>.ts` and 5-6 in `<domain>-services.ts`.
 */

/** The owner key under which domains register their services. */
export const DOMAIN_OWNER = 'domains';

/** What a scene or `scene.apply` asks an entity to become. */
export interface DesiredState {
  readonly state: string;
  readonly attributes: JsonObject;
}

/**
 * One domain's vocabulary: its services (with field schemas), and how to bring an entity to a desired
 * state (used by scenes), expressed as calls of its own services.
 */
export interface Domain {
  readonly name: string;
  /*
   * Facts other parts read from the domain registry (domainByName), each false when left out. They live here so
   * that adding a domain is one file: restore, MQTT and history keep no lists of their own.
   */
  /** Its state is something a user set, restored after a restart (unless the entity's `restore` says otherwise). */
  readonly restored?: boolean;
  /** Announced over MQTT discovery as the Home Assistant component of the same name. */
  readonly published?: boolean;
  /** An MQTT discovery config of this component is adopted as a hearth entity. */
  readonly adopted?: boolean;
  /** An attribute-only change is significant in history (recorder/history/const.py SIGNIFICANT_DOMAINS). */
  readonly significantAttributes?: boolean;
  /** History keeps full states even in a minimal response (recorder/history/const.py NEED_ATTRIBUTE_DOMAINS). */
  readonly needsAttributes?: boolean;
  registerServices(core: Core): void;
  reproduceState?(core: Core, entityId: string, desired: DesiredState, context: Context): Promise<void>;
  /**
   * For a domain whose state no service can set without acting (a button's last press): restore state brings the
   * entity back through this instead of reproduceState.
   */
  restoreState?(entity: Entity, stored: DesiredState, context: Context): void;
}

/** Cast an entity's platform after checking the domain, so services never act on a foreign platform. */
export function platformOf<P>(entity: Entity, domain: string): P {
  if (entity.domain !== domain) throw new Error(`${entity.id} is not a ${domain} entity`);
  return entity.platform as P;
}

/**
 * The domain's per-entity data (EntityInit.data), after checking the domain, as platformOf does; undefined for an
 * entity added without any.
 */
export function dataOf<D>(entity: Entity, domain: string): D | undefined {
  if (entity.domain !== domain) throw new Error(`${entity.id} is not a ${domain} entity`);
  return entity.data as D | undefined;
}

/** The entity's supported_features bits (0 when it declares none). */
export function featuresOf(entity: Entity): number {
  const f = entity.fixed.supported_features;
  return typeof f === 'number' ? f : 0;
}

/**
 * The feature bits a service needs, as Home Assistant's `required_features`: a number is satisfied by any one of
 * its bits (a list of single bits), `{ all }` only by every bit of the set (one combined entry, such as a
 * toggle's TURN_ON | TURN_OFF).
 */
export type FeatureGate = number | { readonly all: number };

export function hasFeature(entity: Entity, gate: FeatureGate): boolean {
  const f = featuresOf(entity);
  return typeof gate === 'number' ? (f & gate) !== 0 : (f & gate.all) === gate.all;
}

/** Feature bits: a service for a feature the entity lacks is refused, naming the entity and the action. */
export function requireFeature(entity: Entity, gate: FeatureGate, domain: string, service: string): void {
  if (!hasFeature(entity, gate)) {
    throw new HubError('service_validation', `Entity ${entity.id} does not support action ${domain}.${service}.`);
  }
}

/**
 * Home Assistant's rule for feature-gated services: an entity named explicitly that lacks the feature is an
 * error; one reached through `all`, an area or a device is skipped (false).
 */
export function supportsFeature(entity: Entity, call: ServiceCall, gate: FeatureGate, domain: string, service: string): boolean {
  if (hasFeature(entity, gate)) return true;
  if (call.target.entity_id?.includes(entity.id)) requireFeature(entity, gate, domain, service);
  return false;
}

export function validationError(message: string): HubError {
  return new HubError('service_validation', `Validation error: ${message}`);
}

/**
 * One row of a domain's service table: the service, its catalogue text, its schema beside it, the feature bits
 * that gate it, and what it does to one entity.
 */
export interface EntityServiceSpec {
  readonly service: string;
  readonly name: string;
  readonly description: string;
  /** Feature bits the entity needs (supportsFeature: named entities without them are refused, others skipped). */
  readonly feature?: FeatureGate;
  /** The service's fields; `schema` instead when it also has exclusive or inclusive groups. */
  readonly fields?: Readonly<Record<string, FieldSpec>>;
  readonly schema?: ServiceSchema;
  readonly run: (entity: Entity, data: ValidData, call: ServiceCall) => unknown;
}

/** Registers a domain's service table: every entity service of every domain goes through here. */
export function registerEntityServices(core: Core, domain: string, table: readonly EntityServiceSpec[]): void {
  for (const s of table) {
    const feature = s.feature;
    core.services.register(DOMAIN_OWNER, {
      domain,
      service: s.service,
      name: s.name,
      description: s.description,
      schema: s.schema ?? { fields: s.fields ?? {} },
      entity:
        feature === undefined
          ? (e, data, call) => s.run(e, data, call)
          : (e, data, call) => (supportsFeature(e, call, feature, domain, s.service) ? s.run(e, data, call) : undefined),
    });
  }
}

/** Calls an optional platform method, refusing (not_supported) when the driver does not implement it. */
export function callOptional<A extends unknown[]>(
  entity: Entity,
  platform: object,
  fn: ((...args: A) => void | Promise<void>) | undefined,
  what: string,
  ...args: A
): void | Promise<void> {
  if (fn === undefined) throw new HubError('not_supported', `${entity.id} cannot ${what}`);
  return fn.apply(platform, args);
}

/** What a device with fixed capabilities hands its driver: the entity, its capabilities, and `report`. */
export interface CapableHandle<P, C, M> {
  readonly entity: Entity<P>;
  readonly capabilities: C;
  /** Writes what the device is; null when nothing is known (`unknown`). */
  report(model: M | null): void;
}

/**
 * Adds a device whose capabilities are fixed when it is added (fan, climate): the capabilities become the
 * entity's data, `fixed` its fixed attributes, and `render` turns each reported model into a state and attributes.
 */
export function addCapable<P, C, M>(
  core: Core,
  options: EntityInit<P> & { readonly capabilities: C },
  fixed: JsonObject,
  render: (model: M) => readonly [state: string | null, attributes: JsonObject],
): CapableHandle<P, C, M> {
  const capabilities = options.capabilities;
  const entity = core.entities.add<P, C>({ ...options, fixed, data: capabilities });
  return {
    entity,
    capabilities,
    report(model) {
      if (model === null) entity.report(null);
      else entity.report(...render(model));
    },
  };
}
