import type { Clock, Micros } from './clock.js';
import { type Context, createContext } from './context.js';
import { domainOf } from './entity-id.js';
import { isHubError } from './errors.js';
import { merge } from './merge.js';
import { type Attributes, composable } from './state.js';
import type { StateTable } from './state-table.js';

/** Home Assistant keeps a service call's context on an entity for this long (CONTEXT_RECENT_TIME_SECONDS). */
const CONTEXT_RECENT_US = 5_000_000;

export const UNAVAILABLE = 'unavailable';
export const UNKNOWN = 'unknown';

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
}

/** How the entity registry says an entity being added should appear. */
export interface EntitySettings {
  /** The id the entity lives under (the user may have renamed it). */
  readonly entityId: string;
  /** A disabled entity has no state and services do not reach it; its reports are kept for when it is enabled. */
  readonly disabled: boolean;
  /** Attributes the user set (friendly_name, icon), written over the driver's. */
  readonly overrides?: Attributes;
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

export interface EntityLogger {
  error(obj: object, msg: string): void;
}

/** A live entity: a slot in the state table, the platform that acts on it, and how it reports. */
export class Entity<P = unknown, D = unknown> {
  readonly domain: string;
  private entityId: string;
  private recentContext: Context | undefined;
  private recentContextAt: Micros = 0;
  private baseFixed: Attributes;
  private fixedAttributes: Attributes;
  private overrides: Attributes | undefined;
  private isAvailable = true;
  /** The last report, kept (by reference) so that a rename, an enable or a new name can write it again. */
  private lastState: string | null | undefined;
  private lastAttributes: Attributes | undefined;
  private isDetached = false;

  constructor(
    id: string,
    readonly owner: string,
    readonly platform: P,
    readonly uniqueId: string | undefined,
    readonly deviceId: string | undefined,
    fixed: Attributes,
    private readonly table: StateTable,
    private readonly clock: Clock,
    private readonly log: EntityLogger,
    /** The id its provider asked for; differs from `id` when the user renamed the entity. */
    readonly requestedId: string = id,
    /** EntityInit.restore: undefined leaves it to the domain's default. */
    readonly restore?: boolean,
    /** EntityInit.data: the domain's per-entity data. */
    readonly data?: D,
  ) {
    this.entityId = id;
    this.domain = domainOf(id);
    this.baseFixed = fixed;
    this.fixedAttributes = fixed;
  }

  get id(): string {
    return this.entityId;
  }

  get available(): boolean {
    return this.isAvailable;
  }

  /** True while the entity is disabled: it has no state and services do not reach it. */
  get detached(): boolean {
    return this.isDetached;
  }

  get fixed(): Attributes {
    return this.fixedAttributes;
  }

  /** Replaces the fixed attributes (a driver learned the device's capabilities); written with the next report. */
  setFixed(fixed: Attributes): void {
    this.baseFixed = fixed;
    this.fixedAttributes = this.overrides === undefined ? fixed : merge(fixed, this.overrides);
  }

  /**
   * The provider's name for the entity changed (its device was renamed): friendly_name follows at once, unless
   * the user set one; the entity id stays, as in Home Assistant.
   */
  setName(name: string): void {
    this.setFixed(merge(this.baseFixed, { friendly_name: name }));
    this.rewrite(undefined);
  }

  /** Called by the service layer before acting, so the writes that follow carry the call's context. */
  useContext(context: Context): void {
    this.recentContext = context;
    this.recentContextAt = this.clock.now();
  }

  /** Whether a write carries a recent service call's context on this entity: what a user or automation asked for. */
  followsCall(context: Context): boolean {
    return this.recentContext !== undefined && context === this.recentContext;
  }

  /** The context a write without an explicit one gets: a recent service call's, else a fresh one. */
  private contextFor(explicit: Context | undefined): Context {
    if (explicit !== undefined) return explicit;
    const now = this.clock.now();
    if (this.recentContext !== undefined && now - this.recentContextAt <= CONTEXT_RECENT_US) return this.recentContext;
    this.recentContext = undefined;
    return createContext(now);
  }

  /**
   * Writes what the device actually is. `null` means the value is not known (`unknown`). The fixed
   * attributes come first, then the state's, as Home Assistant orders capability and state attributes.
   */
  report(state: string | null, attributes?: Attributes, context?: Context): void {
    this.isAvailable = true;
    this.lastState = state;
    this.lastAttributes = attributes;
    if (this.isDetached) return;
    this.writeReport(state, attributes, this.contextFor(context));
  }

  private writeReport(state: string | null, attributes: Attributes | undefined, ctx: Context): void {
    const fixed = this.fixedAttributes;
    const attrs = attributes === undefined ? fixed : merge(fixed, attributes);
    const composedOf = attributes !== undefined && composable(fixed, attributes) ? { fixed, reported: attributes } : undefined;
    try {
      this.table.set(this.entityId, state ?? UNKNOWN, attrs, { context: ctx, composedOf });
    } catch (err) {
      if (!isHubError(err) || err.kind !== 'invalid_state') throw err;
      // As Home Assistant does for an integration's over-long state: write unknown and log it.
      this.log.error({ entity_id: this.entityId, err: err.message }, 'entity reported an invalid state; writing unknown');
      this.table.set(this.entityId, UNKNOWN, {}, { context: ctx });
    }
  }

  /** The device stopped answering: `unavailable`, keeping only the fixed attributes. */
  markUnavailable(context?: Context): void {
    this.isAvailable = false;
    if (this.isDetached) return;
    this.table.set(this.entityId, UNAVAILABLE, this.fixedAttributes, { context: this.contextFor(context) });
  }

  /** The current state string, or undefined before the first report. */
  get state(): string | undefined {
    if (!this.isDetached) return this.table.get(this.entityId)?.state;
    // A disabled entity has no state in the table; its provider may still read what it last reported.
    if (!this.isAvailable) return UNAVAILABLE;
    return this.lastState === undefined ? undefined : (this.lastState ?? UNKNOWN);
  }

  get attributes(): Attributes | undefined {
    return this.table.get(this.entityId)?.attributes;
  }

  /** Writes the last report again (after a rename, an enable or a changed override); nothing before the first. */
  private rewrite(context: Context | undefined): void {
    if (this.isDetached) return;
    const ctx = context ?? createContext(this.clock.now());
    if (!this.isAvailable) this.table.set(this.entityId, UNAVAILABLE, this.fixedAttributes, { context: ctx });
    else if (this.lastState !== undefined) this.writeReport(this.lastState, this.lastAttributes, ctx);
  }

  /**
   * @internal Entities and the entity registry only: attributes the user set (friendly_name, icon), written
   * over the provider's; the state is written again with them unless `rewrite` is false.
   */
  setOverrides(overrides: Attributes | undefined, context?: Context, rewrite = true): void {
    this.overrides = overrides === undefined || Object.keys(overrides).length === 0 ? undefined : overrides;
    this.fixedAttributes = this.overrides === undefined ? this.baseFixed : merge(this.baseFixed, this.overrides);
    if (rewrite) this.rewrite(context);
  }

  /** @internal Entities only: the entity now lives under another id. */
  moveTo(id: string, context: Context | undefined): void {
    this.entityId = id;
    this.rewrite(context);
  }

  /** @internal Entities only. */
  setDetached(detached: boolean, context: Context | undefined): void {
    this.isDetached = detached;
    if (!detached) this.rewrite(context);
  }
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
    const id = settings.entityId;
    const existing = this.byId.get(id) ?? this.disabled.get(id);
    if (existing !== undefined) throw new Error(`Entity ${id} is already provided by ${existing.owner}`);
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

  /** Removes one entity and its state; its provider may name it by the id it asked for. */
  remove(entityId: string, context?: Context): boolean {
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
