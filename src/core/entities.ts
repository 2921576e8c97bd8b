import type { Clock } from './clock.js';
import type { Context } from './context.js';
import { Entity, type EntityLogger, type StateAdjust } from './entity.js';
import { merge } from './merge.js';
import type { Attributes } from './state.js';
import type { StateTable } from './state-table.js';

// One live entity is entity.ts; its names stay importable from here, where most code looks for them.
export { Entity, type EntityLogger, type StateAdjust, UNAVAILABLE, UNKNOWN } from './entity.js';

export interface EntityInit<P, D = unknown> {
  readonly entityId: string;
  /** The driver or extension that owns the entity; its entities are removed together on stop. */
  readonly owner: string;
  /** What services act on: the domain's platform interface, implemented by a driver. */
  readonly platform: P;
  /** friendly_name */
  readonly name?: string;
  /**
   * Attributes that describe the entity rather than its state (device_class, unit_of_measurement,
   * supported_features, hvac_modes, ...). They are written with every state and kept when unavailable.
   */
  readonly fixed?: Attributes;
  readonly uniqueId?: string;
  /** The device registry id of the physical device this entity belongs to. */
  readonly deviceId?: string;
  /** Whether its state is restored after a restart; by default its domain decides (src/restore/restore-policy.ts). */
  readonly restore?: boolean;
  /**
   * What the entity's domain keeps per entity beside its platform (a fan's capabilities, a lock's code check),
   * so no domain needs a module-level map from entities to their data. Domains read it through `dataOf`.
   */
  readonly data?: D;
  /** Home Assistant's entity_category for a new registry entry: settings (`config`) or readings about the device itself (`diagnostic`). */
  readonly entityCategory?: 'config' | 'diagnostic';
  /** false: a new registry entry starts disabled by its integration (Home Assistant's entity_registry_enabled_default). */
  readonly enabledByDefault?: boolean;
  /** Home Assistant's suggested_display_precision: the decimals a sensor is shown with; kept in its registry options. */
  readonly suggestedDisplayPrecision?: number;
}

/** How the entity registry says an entity being added should appear. */
export interface EntitySettings {
  /** The id the entity lives under (the user may have renamed it). */
  readonly entityId: string;
  /** A disabled entity has no state and services do not reach it; its reports are kept for when it is enabled. */
  readonly disabled: boolean;
  /** Attributes the user set (friendly_name, icon), written over the driver's. */
  readonly overrides?: Attributes;
  /** How written states are changed (a sensor shown in the unit the user chose). */
  readonly adjust?: StateAdjust;
}

/**
 * What Entities asks of the entity registry (src/registry implements it). Without one, entities appear
 * exactly as their providers add them.
 */
export interface EntityRegistryHook {
  /** Called by Entities.add before the entity takes a slot; creates or updates its registry entry. */
  resolve(init: EntityInit<unknown>): EntitySettings;
  /** The entity exists now (enabled or disabled). */
  added(entity: Entity): void;
  /** Its provider removed it (driver stopped, scene deleted); the registry entry stays. */
  removed(entity: Entity): void;
}

/** What Entities tells the restore-state store (src/restore/restore-state.ts implements it). */
export interface EntityRestoreHook {
  /** The entity exists now, before its provider's first report: the store may show its stored state. */
  added(entity: Entity): void;
  removed(entity: Entity): void;
}

/**
 * The entities that drivers and extensions provide (as opposed to bare states written over REST, which
 * have no platform and so no services). Lookup by id and by domain. Disabled entities are kept apart:
 * `get`, `ofDomain` and `all` do not return them, so services never reach them.
 */
export class Entities {
  private readonly byId = new Map<string, Entity>();
  private readonly byDomain = new Map<string, Set<Entity>>();
  private readonly disabled = new Map<string, Entity>();
  /** Renamed entities by the id their provider asked for, so `remove(requestedId)` still finds them. */
  private readonly byRequestedId = new Map<string, Entity>();
  private registry: EntityRegistryHook | undefined;
  private restoreHook: EntityRestoreHook | undefined;
  private defaultDeviceId: string | undefined;
  private kept = false;

  constructor(
    private readonly table: StateTable,
    private readonly clock: Clock,
    private readonly log: EntityLogger,
  ) {}

  /** Installs (or, with undefined, removes) the entity registry that decides ids, names and disabling. */
  setRegistry(registry: EntityRegistryHook | undefined): void {
    this.registry = registry;
  }

  /** Installs (or, with undefined, removes) the restore-state store. */
  setRestoreHook(hook: EntityRestoreHook | undefined): void {
    this.restoreHook = hook;
  }

  /**
   * Entities added while `fn` runs belong to `deviceId` unless they name a device themselves (for
   * providers whose entity helpers take no device, such as the per-domain virtual devices).
   */
  withDevice<T>(deviceId: string, fn: () => T): T {
    const previous = this.defaultDeviceId;
    this.defaultDeviceId = deviceId;
    try {
      return fn();
    } finally {
      this.defaultDeviceId = previous;
    }
  }

  add<P, D = unknown>(given: EntityInit<P, D>): Entity<P, D> {
    const init = given.deviceId === undefined && this.defaultDeviceId !== undefined ? { ...given, deviceId: this.defaultDeviceId } : given;
    const settings: EntitySettings = this.registry?.resolve(init) ?? { entityId: init.entityId, disabled: false };
    const id = this.freeId(settings.entityId, init);
    if (!settings.disabled) this.table.reserve(id);
    const fixed: Attributes = init.name === undefined ? (init.fixed ?? {}) : merge(init.fixed ?? {}, { friendly_name: init.name });
    const entity = new Entity<P, D>(
      id,
      init.owner,
      init.platform,
      init.uniqueId,
      init.deviceId,
      fixed,
      this.table,
      this.clock,
      this.log,
      init.entityId,
      init.restore,
      init.data,
    );
    if (settings.overrides !== undefined) entity.setOverrides(settings.overrides, undefined, false);
    if (settings.adjust !== undefined) entity.setStateAdjust(settings.adjust, undefined, false);
    if (settings.disabled) {
      entity.setDetached(true, undefined);
      this.disabled.set(id, entity as Entity);
    } else this.index(entity as Entity);
    if (id !== init.entityId) this.byRequestedId.set(init.entityId, entity as Entity);
    this.registry?.added(entity as Entity);
    this.restoreHook?.added(entity as Entity);
    return entity;
  }

  get(entityId: string): Entity | undefined {
    return this.byId.get(entityId);
  }

  /**
   * The one rule for an id another entity holds, as Home Assistant's entity platform and registry: an entity with
   * an identity of its own gets the next free `_2`, `_3` (the entity registry decides that when there is one);
   * one whose platform and unique id are already live is a duplicate and refused (DuplicateEntityError), and the
   * driver leaves it out with one log line (drivers/common/add-or-refuse.ts).
   */
  private freeId(requested: string, init: EntityInit<unknown>): string {
    const existing = this.find(requested);
    if (existing === undefined) return requested;
    // With a registry, a held id means the registry resolved this identity to a live entity: a duplicate.
    if (this.registry !== undefined || sameIdentity(existing, init)) throw new DuplicateEntityError(init, existing);
    for (let n = 2; ; n++) if (this.find(`${requested}_${n}`) === undefined) return `${requested}_${n}`;
  }

  /** An enabled or a disabled entity (for the entity registry). */
  find(entityId: string): Entity | undefined {
    return this.byId.get(entityId) ?? this.disabled.get(entityId);
  }

  ofDomain(domain: string): ReadonlySet<Entity> {
    return this.byDomain.get(domain) ?? new Set();
  }

  all(): IterableIterator<Entity> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * From now on nothing is removed: the hub is stopping, and its entities stay as Home Assistant keeps them at
   * shutdown (no `state_changed` with `new_state: null` reaches a client, MQTT or history as a deletion).
   */
  keepAll(): void {
    this.kept = true;
  }

  /** Removes one entity and its state; its provider may name it by the id it asked for. */
  remove(entityId: string, context?: Context): boolean {
    if (this.kept) return false;
    const entity = this.byId.get(entityId) ?? this.disabled.get(entityId) ?? this.byRequestedId.get(entityId);
    if (entity === undefined) return false;
    this.unindex(entity);
    this.disabled.delete(entity.id);
    if (this.byRequestedId.get(entity.requestedId) === entity) this.byRequestedId.delete(entity.requestedId);
    this.table.remove(entity.id, context);
    this.registry?.removed(entity);
    this.restoreHook?.removed(entity);
    return true;
  }

  /** Removes every entity an owner provided (a driver stopping). */
  removeOwner(owner: string): void {
    for (const entity of [...this.byId.values(), ...this.disabled.values()]) if (entity.owner === owner) this.remove(entity.id);
  }

  /**
   * Moves an entity to a new id (the user renamed it): the old state is removed (`state_changed` with
   * `new_state: null`) and the last report written under the new id, as Home Assistant re-adds it.
   */
  rename(entity: Entity, newId: string, context?: Context): void {
    const oldId = entity.id;
    if (newId === oldId) return;
    if (this.find(newId) !== undefined) throw new Error(`Entity ${newId} is already provided`);
    const wasDisabled = entity.detached;
    if (wasDisabled) {
      this.disabled.delete(oldId);
      this.disabled.set(newId, entity);
    } else {
      this.table.reserve(newId);
      this.unindex(entity);
      this.table.remove(oldId, context);
      this.byId.set(newId, entity);
      this.byDomain.get(entity.domain)?.add(entity);
    }
    if (newId === entity.requestedId) this.byRequestedId.delete(entity.requestedId);
    else this.byRequestedId.set(entity.requestedId, entity);
    entity.moveTo(newId, context);
  }

  /** Disables (state removed, services no longer reach it) or enables (last report written again) an entity. */
  setDisabled(entity: Entity, disabled: boolean, context?: Context): void {
    if (entity.detached === disabled) return;
    if (disabled) {
      this.unindex(entity);
      this.disabled.set(entity.id, entity);
      entity.setDetached(true, context);
      this.table.remove(entity.id, context);
    } else {
      this.disabled.delete(entity.id);
      this.table.reserve(entity.id);
      this.index(entity);
      entity.setDetached(false, context);
    }
  }

  private index(entity: Entity): void {
    this.byId.set(entity.id, entity);
    let set = this.byDomain.get(entity.domain);
    if (set === undefined) {
      set = new Set();
      this.byDomain.set(entity.domain, set);
    }
    set.add(entity);
  }

  private unindex(entity: Entity): void {
    if (this.byId.get(entity.id) === entity) this.byId.delete(entity.id);
    this.byDomain.get(entity.domain)?.delete(entity);
  }
}

/** The platform of an owner key: `virtual`, `automation`; an owner may add `:<instance>`. */
export function platformOf(owner: string): string {
  const colon = owner.indexOf(':');
  return colon === -1 ? owner : owner.slice(0, colon);
}

function sameIdentity(existing: Entity, init: EntityInit<unknown>): boolean {
  return (
    platformOf(existing.owner) === platformOf(init.owner) &&
    (existing.uniqueId ?? existing.requestedId) === (init.uniqueId ?? init.entityId)
  );
}

/** An entity whose platform and unique id are already live: Home Assistant's "does not generate unique IDs". */
export class DuplicateEntityError extends Error {
  readonly entityId: string;
  constructor(init: EntityInit<unknown>, existing: Entity) {
    super(
      `Platform ${platformOf(init.owner)} does not generate unique IDs. ID ${init.uniqueId ?? init.entityId} already exists - ignoring ${init.entityId} (it is ${existing.id})`,
    );
    this.entityId = init.entityId;
  }
}
