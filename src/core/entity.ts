import type { Clock, Micros } from './clock.js';
import { type Context, createContext } from './context.js';
import { domainOf } from './entity-id.js';
import { isHubError } from './errors.js';
import { merge } from './merge.js';
import { type Attributes, type ComposedAttributes, composable } from './state.js';
import type { StateTable } from './state-table.js';

/** Home Assistant keeps a service call's context on an entity for this long (CONTEXT_RECENT_TIME_SECONDS). */
const CONTEXT_RECENT_US = 5_000_000;

export const UNAVAILABLE = 'unavailable';
export const UNKNOWN = 'unknown';

/** A report's attributes merged with the fixed ones they were written over. */
interface MergedReport {
  readonly fixed: Attributes;
  readonly reported: Attributes;
  readonly attributes: Attributes;
  readonly composedOf: ComposedAttributes | undefined;
}

/** @internal What restore state does when a restored entity's provider first reports (src/restore/restore-state.ts). */
export interface FirstReportHook {
  /** Whether this report is the provider's answer (a driver's `unknown` is not: its device has not answered yet). */
  answers(entity: Entity, state: string): boolean;
  /**
   * Brings the entity back to its stored state, right after the answering report is written: what it writes
   * before returning reaches listeners together with that report, as one change.
   */
  restore(entity: Entity): void;
}

/**
 * What the entity registry changes in a written state besides attributes (a sensor shown in another unit): the
 * state and attributes as the provider wrote them, and what to write instead, or undefined to write them as they are.
 */
export type StateAdjust = (
  state: string,
  attributes: Attributes,
) => { readonly state: string; readonly attributes: Attributes } | undefined;

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
  private adjust: StateAdjust | undefined;
  private isAvailable = true;
  private whyUnavailable: string | undefined;
  /** The last report, kept (by reference) so that a rename, an enable or a new name can write it again. */
  private lastState: string | null | undefined;
  private lastAttributes: Attributes | undefined;
  private isDetached = false;
  private firstReportHook: FirstReportHook | undefined;
  /**
   * The last two merges of a frozen reported object: a domain freezes the attribute objects it reports again
   * and again (a light's off, and its last colour), so going back and forth merges nothing. Only frozen ones:
   * a sensor's fresh object each report would keep a stale merge alive per entity.
   */
  private mergedRecent: MergedReport | undefined;
  private mergedOlder: MergedReport | undefined;

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
  useContext(context: Context, atUs: Micros = this.clock.now()): void {
    this.recentContext = context;
    this.recentContextAt = atUs;
  }

  /** Whether a write carries a recent service call's context on this entity: what a user or automation asked for. */
  followsCall(context: Context): boolean {
    return this.recentContext !== undefined && context === this.recentContext;
  }

  /** The context a write without an explicit one gets: a recent service call's, else a fresh one. */
  private contextFor(explicit: Context | undefined, now: Micros): Context {
    if (explicit !== undefined) return explicit;
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
    this.whyUnavailable = undefined;
    this.lastState = state;
    this.lastAttributes = attributes;
    if (this.isDetached) return;
    const now = this.clock.now();
    const hook = this.firstReportHook;
    if (hook?.answers(this, state ?? UNKNOWN)) {
      this.firstReportHook = undefined;
      const ctx = this.contextFor(context, now);
      this.table.coalesce(this.entityId, () => {
        this.writeReport(state, attributes, ctx, now);
        hook.restore(this);
      });
      return;
    }
    this.writeReport(state, attributes, this.contextFor(context, now), now);
  }

  /** @internal Restore state only: `hook` gets the next report that answers (undefined: none does any more). */
  awaitFirstReport(hook: FirstReportHook | undefined): void {
    this.firstReportHook = hook;
  }

  private writeReport(state: string | null, attributes: Attributes | undefined, ctx: Context, timeUs: Micros): void {
    const fixed = this.fixedAttributes;
    let attrs: Attributes;
    let composedOf: ComposedAttributes | undefined;
    if (attributes === undefined) attrs = fixed;
    else if (Object.isFrozen(attributes)) ({ attributes: attrs, composedOf } = this.mergedFor(fixed, attributes));
    else {
      attrs = merge(fixed, attributes);
      composedOf = composable(fixed, attributes) ? { fixed, reported: attributes } : undefined;
    }
    let written = state ?? UNKNOWN;
    const adjusted = this.adjust?.(written, attrs);
    if (adjusted !== undefined) {
      ({ state: written, attributes: attrs } = adjusted);
      composedOf = undefined;
    }
    try {
      this.table.set(this.entityId, written, attrs, { context: ctx, composedOf, timeUs });
    } catch (err) {
      if (!isHubError(err) || err.kind !== 'invalid_state') throw err;
      // As Home Assistant does for an integration's over-long state: write unknown and log it.
      this.log.error({ entity_id: this.entityId, err: err.message }, 'entity reported an invalid state; writing unknown');
      this.table.set(this.entityId, UNKNOWN, {}, { context: ctx, timeUs });
    }
  }

  private mergedFor(fixed: Attributes, reported: Attributes): MergedReport {
    const recent = this.mergedRecent;
    if (recent !== undefined && recent.reported === reported && recent.fixed === fixed) return recent;
    let m = this.mergedOlder;
    if (m === undefined || m.reported !== reported || m.fixed !== fixed) {
      const composedOf = composable(fixed, reported) ? { fixed, reported } : undefined;
      m = { fixed, reported, attributes: merge(fixed, reported), composedOf };
    }
    this.mergedOlder = recent;
    this.mergedRecent = m;
    return m;
  }

  /**
   * The device stopped answering: `unavailable`, keeping only the fixed attributes. `refusal`: why a call naming this
   * entity fails meanwhile (its hub's connection is gone), rather than skipping it as Home Assistant skips a device
   * that is merely away.
   */
  markUnavailable(context?: Context, refusal?: string): void {
    this.isAvailable = false;
    this.whyUnavailable = refusal;
    if (this.isDetached) return;
    const now = this.clock.now();
    this.table.set(this.entityId, UNAVAILABLE, this.unavailableAttributes(), { context: this.contextFor(context, now), timeUs: now });
  }

  /** The fixed attributes, adjusted (an unavailable sensor still names the unit it is shown in). */
  private unavailableAttributes(): Attributes {
    return this.adjust?.(UNAVAILABLE, this.fixedAttributes)?.attributes ?? this.fixedAttributes;
  }

  /** Why a service call naming this unavailable entity fails; undefined when such a call just skips it. */
  get unavailableRefusal(): string | undefined {
    return this.isAvailable ? undefined : this.whyUnavailable;
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
    if (!this.isAvailable) this.table.set(this.entityId, UNAVAILABLE, this.unavailableAttributes(), { context: ctx });
    else if (this.lastState !== undefined) this.writeReport(this.lastState, this.lastAttributes, ctx, this.clock.now());
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

  /** @internal Entities and the entity registry only: how written states are adjusted; written again unless `rewrite` is false. */
  setStateAdjust(adjust: StateAdjust | undefined, context?: Context, rewrite = true): void {
    this.adjust = adjust;
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
