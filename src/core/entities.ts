import type { Clock, Micros } from './clock.js';
import { type Context, createContext } from './context.js';
import { domainOf } from './entity-id.js';
import { isHubError } from './errors.js';
import type { Attributes } from './state.js';
import type { StateTable } from './state-table.js';

/** Home Assistant keeps a service call's context on an entity for this long (CONTEXT_RECENT_TIME_SECONDS). */
const CONTEXT_RECENT_US = 5_000_000;

export const UNAVAILABLE = 'unavailable';
export const UNKNOWN = 'unknown';

export interface EntityInit<P> {
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
}

export interface EntityLogger {
  error(obj: object, msg: string): void;
}

/** A live entity: a slot in the state table, the platform that acts on it, and how it reports. */
export class Entity<P = unknown> {
  readonly domain: string;
  private recentContext: Context | undefined;
  private recentContextAt: Micros = 0;
  private fixedAttributes: Attributes;
  private isAvailable = true;

  constructor(
    readonly id: string,
    readonly owner: string,
    readonly platform: P,
    readonly uniqueId: string | undefined,
    readonly deviceId: string | undefined,
    fixed: Attributes,
    private readonly table: StateTable,
    private readonly clock: Clock,
    private readonly log: EntityLogger,
  ) {
    this.domain = domainOf(id);
    this.fixedAttributes = fixed;
  }

  get available(): boolean {
    return this.isAvailable;
  }

  get fixed(): Attributes {
    return this.fixedAttributes;
  }

  /** Replaces the fixed attributes (a driver learned the device's capabilities); written with the next report. */
  setFixed(fixed: Attributes): void {
    this.fixedAttributes = fixed;
  }

  /** Called by the service layer before acting, so the writes that follow carry the call's context. */
  useContext(context: Context): void {
    this.recentContext = context;
    this.recentContextAt = this.clock.now();
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
    const attrs = attributes === undefined ? this.fixedAttributes : { ...this.fixedAttributes, ...attributes };
    const ctx = this.contextFor(context);
    try {
      this.table.set(this.id, state ?? UNKNOWN, attrs, { context: ctx });
    } catch (err) {
      if (!isHubError(err) || err.kind !== 'invalid_state') throw err;
      // As Home Assistant does for an integration's over-long state: write unknown and log it.
      this.log.error({ entity_id: this.id, err: err.message }, 'entity reported an invalid state; writing unknown');
      this.table.set(this.id, UNKNOWN, {}, { context: ctx });
    }
  }

  /** The device stopped answering: `unavailable`, keeping only the fixed attributes. */
  markUnavailable(context?: Context): void {
    this.isAvailable = false;
    this.table.set(this.id, UNAVAILABLE, this.fixedAttributes, { context: this.contextFor(context) });
  }

  /** The current state string, or undefined before the first report. */
  get state(): string | undefined {
    return this.table.get(this.id)?.state;
  }

  get attributes(): Attributes | undefined {
    return this.table.get(this.id)?.attributes;
  }
}

/**
 * The entities that drivers and extensions provide (as opposed to bare states written over REST, which
 * have no platform and so no services). Lookup by id and by domain.
 */
export class Entities {
  private readonly byId = new Map<string, Entity>();
  private readonly byDomain = new Map<string, Set<Entity>>();

  constructor(
    private readonly table: StateTable,
    private readonly clock: Clock,
    private readonly log: EntityLogger,
  ) {}

  add<P>(init: EntityInit<P>): Entity<P> {
    if (this.byId.has(init.entityId)) {
      throw new Error(`Entity ${init.entityId} is already provided by ${this.byId.get(init.entityId)?.owner}`);
    }
    this.table.reserve(init.entityId);
    const fixed: Attributes = init.name === undefined ? (init.fixed ?? {}) : { ...init.fixed, friendly_name: init.name };
    const entity = new Entity<P>(
      init.entityId,
      init.owner,
      init.platform,
      init.uniqueId,
      init.deviceId,
      fixed,
      this.table,
      this.clock,
      this.log,
    );
    this.byId.set(entity.id, entity as Entity);
    let set = this.byDomain.get(entity.domain);
    if (set === undefined) {
      set = new Set();
      this.byDomain.set(entity.domain, set);
    }
    set.add(entity as Entity);
    return entity;
  }

  get(entityId: string): Entity | undefined {
    return this.byId.get(entityId);
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

  /** Removes one entity and its state. */
  remove(entityId: string, context?: Context): boolean {
    const entity = this.byId.get(entityId);
    if (entity === undefined) return false;
    this.byId.delete(entityId);
    this.byDomain.get(entity.domain)?.delete(entity);
    this.table.remove(entityId, context);
    return true;
  }

  /** Removes every entity an owner provided (a driver stopping). */
  removeOwner(owner: string): void {
    for (const entity of [...this.byId.values()]) if (entity.owner === owner) this.remove(entity.id);
  }
}
