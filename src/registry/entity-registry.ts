// The entity registry: an entry for every entity, kept across restarts, changed by clients and the configuration.
import { createHash } from 'node:crypto';
import { type Context, createContext } from '../core/context.js';
import type { Core } from '../core/core.js';
import { type Entity, type EntityInit, type EntityRegistryHook, type EntitySettings, platformOf } from '../core/entities.js';
import { domainOf } from '../core/entity-id.js';
import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue, jsonEqual } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { Attributes } from '../core/state.js';
import { epochNow } from './common.js';
import { overridesOf, sensorAdjust, stringAttr, withSuggestedPrecision } from './entity-effects.js';
import {
  type EntityCustomization,
  type EntityEntry,
  type EntityOptions,
  type EntryFields,
  extendedJson,
  fromJson,
  type MutableEntry,
  NO_OPTIONS,
  partialJson,
  persistable,
  persistableBefore,
} from './entity-entry.js';
import { checkEntityUpdate, type EntityUpdate } from './entity-update.js';

export type { EntityCustomization } from './entity-entry.js';
export type { EntityUpdate } from './entity-update.js';

/** The labels and aliases of an entry that has none: one shared array, not two per entity. */
const NO_STRINGS: readonly string[] = Object.freeze([]);

/** What entries refer to, and how the registry reports changes; the Registries facade provides it. */
export interface EntityRegistryDeps {
  readonly core: Core;
  readonly log: Logger;
  hasArea(id: string): boolean;
  hasLabel(id: string): boolean;
  /** An area or label id from an id or a name (configuration files may use either). */
  findArea(idOrName: string): string | undefined;
  findLabel(idOrName: string): string | undefined;
  changed(): void;
}

/** The `update` result of Home Assistant's `config/entity_registry/update`. */
export interface EntityUpdateResult {
  readonly entity_entry: JsonObject;
}

/**
 * Every entity the hub provides has an entry: its id (which the user may change), names, icon, area,
 * labels, device, and whether it is disabled or hidden. Entries are keyed by domain, platform and unique
 * id (the requested entity id when the provider has none), so a renamed entity keeps its new id after a
 * restart. Entities reach the registry through `Entities.add` (it implements the core's hook).
 */
export class EntityRegistry implements EntityRegistryHook {
  private readonly byKey = new Map<string, MutableEntry>();
  private readonly byEntityId = new Map<string, MutableEntry>();
  /** Entry id -> the entity that currently provides it. */
  private readonly live = new Map<string, Entity>();
  /** Entry id -> a registered sensor's options with its suggested display precision set. */
  private readonly suggested = new Map<string, (options: EntityOptions) => EntityOptions>();
  /** Entry id -> the fields `customize:` sets. */
  private readonly locked = new Map<string, ReadonlySet<keyof EntryFields>>();
  private customize: ReadonlyMap<string, EntityCustomization> = new Map();
  /** Home Assistant's `homeassistant: customize`: attributes over every state an entity writes (helpers/entity.py). */
  private stateCustomize: (entityId: string) => Attributes | undefined = () => undefined;

  constructor(private readonly deps: EntityRegistryDeps) {}

  // ---- what the WebSocket commands call ----

  /** `config/entity_registry/list`: every entry, in Home Assistant's list form. */
  list(): JsonObject[] {
    return Array.from(this.byKey.values(), partialJson);
  }

  /** `config/entity_registry/get`: one entry in the extended form; HubError not_found otherwise. */
  get(entityId: string): JsonObject {
    return extendedJson(this.require(entityId));
  }

  /** The entry of an entity id, or undefined. */
  entry(entityId: string): EntityEntry | undefined {
    return this.byEntityId.get(entityId);
  }

  entries(): IterableIterator<EntityEntry> {
    return this.byKey.values();
  }

  /**
   * `config/entity_registry/update`. Renaming moves the state (old id removed, new id written); disabling
   * removes the state and hides the entity from services; enabling writes it again at once. Fires
   * `entity_registry_updated` with the old values of what changed.
   */
  update(entityId: string, update: EntityUpdate): EntityUpdateResult {
    const entry = this.require(entityId);
    const next = checkEntityUpdate(entry, update, {
      core: this.deps.core,
      hasArea: (id) => this.deps.hasArea(id),
      hasLabel: (id) => this.deps.hasLabel(id),
      registered: (id) => this.byEntityId.has(id),
    });
    const suggest = this.suggested.get(entry.id);
    if (next.options !== undefined && suggest !== undefined) next.options = suggest(next.options);
    const locked = this.locked.get(entry.id);
    if (locked !== undefined) {
      for (const [key, value] of Object.entries(next) as [keyof EntryFields, JsonValue][]) {
        if (locked.has(key) && !jsonEqual(entry[key] as JsonValue, value)) {
          throw new HubError('not_allowed', `${key} of ${entry.entity_id} is set in the configuration file (customize:); change it there`);
        }
      }
    }
    this.apply(entry, next);
    return { entity_entry: extendedJson(entry) };
  }

  /** `config/entity_registry/remove`: only for an entity no longer provided (its entry would come back at once). */
  remove(entityId: string): void {
    const entry = this.require(entityId);
    if (this.live.has(entry.id)) {
      throw new HubError(
        'not_allowed',
        `${entityId} is provided by ${entry.platform}; only entries of entities that no longer exist can be removed`,
      );
    }
    this.drop(entry, true);
  }

  // ---- the core's hook ----

  resolve(init: EntityInit<unknown>): EntitySettings {
    const domain = domainOf(init.entityId);
    const platform = platformOf(init.owner);
    const uniqueId = init.uniqueId ?? init.entityId;
    const key = `${domain}\u0000${platform}\u0000${uniqueId}`;
    const provided: Partial<EntryFields> = {
      device_id: init.deviceId ?? null,
      original_name: init.name ?? null,
      original_icon: stringAttr(init.fixed, 'icon'),
      original_device_class: stringAttr(init.fixed, 'device_class'),
    };
    let entry = this.byKey.get(key);
    if (entry === undefined) {
      const now = epochNow(this.deps.core.clock);
      const device = init.deviceId === undefined ? undefined : this.deps.core.devices.get(init.deviceId);
      entry = {
        id: createHash('sha256').update(key).digest('hex').slice(0, 32),
        entity_id: this.freeEntityId(init.entityId),
        unique_id: uniqueId,
        platform,
        has_unique_id: init.uniqueId !== undefined,
        device_id: null,
        area_id: null,
        labels: NO_STRINGS,
        aliases: NO_STRINGS,
        name: null,
        icon: null,
        original_name: null,
        original_icon: null,
        original_device_class: null,
        device_class: null,
        options: NO_OPTIONS,
        // Disabled with its device, as in Home Assistant, or when its integration says so (enabled_by_default: false).
        disabled_by: device?.disabled_by ? 'device' : init.enabledByDefault === false ? 'integration' : null,
        hidden_by: null,
        entity_category: init.entityCategory ?? null,
        created_at: now,
        modified_at: now,
        ...provided,
      };
      this.byKey.set(key, entry);
      this.byEntityId.set(entry.entity_id, entry);
      this.fire({ action: 'create', entity_id: entry.entity_id });
      if (persistable(entry)) this.deps.changed();
    } else {
      if (entry.has_unique_id !== (init.uniqueId !== undefined)) {
        entry.has_unique_id = init.uniqueId !== undefined;
        this.deps.changed();
      }
      this.apply(entry, provided);
    }
    this.applyCustomization(entry, init.entityId);
    // As Home Assistant keeps a registered sensor's suggested display precision in its options (sensor/__init__.py).
    if (domain === 'sensor' && init.uniqueId !== undefined) {
      const suggest = (o: EntityOptions) => withSuggestedPrecision(o, init.suggestedDisplayPrecision, init.fixed ?? {});
      this.suggested.set(entry.id, suggest);
      this.apply(entry, { options: suggest(entry.options) });
    }
    const adjust = sensorAdjust(entry.entity_id, entry.options);
    return { entityId: entry.entity_id, disabled: entry.disabled_by !== null, overrides: this.overridesOf(entry), adjust };
  }

  added(entity: Entity): void {
    const entry = this.byEntityId.get(entity.id);
    if (entry !== undefined) this.live.set(entry.id, entity);
  }

  removed(entity: Entity): void {
    const entry = this.byEntityId.get(entity.id);
    if (entry === undefined || this.live.get(entry.id) !== entity) return;
    this.live.delete(entry.id);
    // An entry that holds nothing worth keeping goes with its entity (scenes made by scene.create come and go).
    if (!persistable(entry)) this.drop(entry, this.deps.core.runState === 'RUNNING');
  }

  // ---- for the Registries facade ----

  /** Sets the `customize:` section (before entities are added); applied as each entity is added. */
  setCustomization(customize: ReadonlyMap<string, EntityCustomization>): void {
    this.customize = customize;
  }

  /**
   * Sets Home Assistant's state customize (`homeassistant: customize`, `customize_glob`, `customize_domain`): its
   * attributes are written over the entity's own and the registry's name and icon, as Home Assistant applies them
   * last. Entities already there are written again with it (homeassistant.reload_core_config).
   */
  setStateCustomize(fn: (entityId: string) => Attributes | undefined): void {
    this.stateCustomize = fn;
    for (const entry of this.byKey.values()) {
      const entity = this.deps.core.entities.get(entry.entity_id);
      if (entity !== undefined) entity.setOverrides(this.overridesOf(entry));
    }
  }

  private overridesOf(entry: EntryFields & { readonly entity_id: string }): Attributes | undefined {
    const own = overridesOf(entry);
    const custom = this.stateCustomize(entry.entity_id);
    return custom === undefined ? own : { ...own, ...custom };
  }

  /** Clears a deleted area from the entries that had it. */
  clearArea(areaId: string): void {
    for (const entry of this.byKey.values()) if (entry.area_id === areaId) this.apply(entry, { area_id: null });
  }

  /** Removes a deleted label from the entries that had it. */
  clearLabel(labelId: string): void {
    for (const entry of this.byKey.values()) {
      if (entry.labels.includes(labelId)) this.apply(entry, { labels: entry.labels.filter((l) => l !== labelId) });
    }
  }

  /** A device was disabled or enabled: its entities follow, as in Home Assistant (disabled_by: device). */
  deviceDisabled(deviceId: string, disabled: boolean): void {
    for (const entry of this.byKey.values()) {
      if (entry.device_id !== deviceId) continue;
      if (disabled && entry.disabled_by === null) this.apply(entry, { disabled_by: 'device' });
      else if (!disabled && entry.disabled_by === 'device') this.apply(entry, { disabled_by: null });
    }
  }

  /** Reads stored entries (at start, before entities are added). */
  load(raw: readonly JsonValue[]): void {
    for (const item of raw) {
      const entry = isJsonObject(item) ? fromJson(item) : undefined;
      const key = entry === undefined ? '' : `${domainOf(entry.entity_id)}\u0000${entry.platform}\u0000${entry.unique_id}`;
      if (entry === undefined || this.byKey.has(key) || this.byEntityId.has(entry.entity_id)) {
        this.deps.log.warn({ item }, 'skipping a stored entity registry entry that is not valid');
        continue;
      }
      this.byKey.set(key, entry);
      this.byEntityId.set(entry.entity_id, entry);
    }
  }

  /** What the store writes: entries with a unique id from their provider, or that the user changed. */
  serialize(): JsonValue[] {
    const out: JsonValue[] = [];
    for (const entry of this.byKey.values())
      if (persistable(entry)) out.push({ ...extendedJson(entry), has_unique_id: entry.has_unique_id });
    return out;
  }

  // ---- internals ----

  private require(entityId: string): MutableEntry {
    const entry = typeof entityId === 'string' ? this.byEntityId.get(entityId) : undefined;
    if (entry === undefined) throw new HubError('not_found', 'Entity not found');
    return entry;
  }

  /** The requested id, or `_2`, `_3`, ... when another entry holds it (Home Assistant's generate_entity_id). */
  private freeEntityId(requested: string): string {
    if (!this.byEntityId.has(requested) && this.deps.core.entities.find(requested) === undefined) return requested;
    for (let n = 2; ; n++) {
      const candidate = `${requested}_${n}`;
      if (!this.byEntityId.has(candidate) && this.deps.core.entities.find(candidate) === undefined) return candidate;
    }
  }

  /**
   * Sets fields, fires `entity_registry_updated` (update, with the old values) when something changed,
   * schedules a save, and carries the change to the live entity: disable, new name or icon, rename, enable.
   */
  private apply(entry: MutableEntry, next: Partial<EntryFields>): void {
    const changes: Record<string, JsonValue> = {};
    const fields = entry as unknown as Record<string, JsonValue>;
    for (const [key, value] of Object.entries(next) as [string, JsonValue | undefined][]) {
      if (value === undefined || jsonEqual(fields[key], value)) continue;
      changes[key] = fields[key] as JsonValue;
      fields[key] = Array.isArray(value) ? [...value] : value;
    }
    if (Object.keys(changes).length === 0) return;
    const wasPersistable = persistableBefore(entry, changes);
    entry.modified_at = epochNow(this.deps.core.clock);
    const oldEntityId = typeof changes.entity_id === 'string' ? changes.entity_id : undefined;
    if (oldEntityId !== undefined) {
      this.byEntityId.delete(oldEntityId);
      this.byEntityId.set(entry.entity_id, entry);
    }
    const context = createContext(this.deps.core.clock.now());
    this.fire(
      oldEntityId === undefined
        ? { action: 'update', entity_id: entry.entity_id, changes }
        : { action: 'update', entity_id: entry.entity_id, changes, old_entity_id: oldEntityId },
      context,
    );
    if (wasPersistable || persistable(entry)) this.deps.changed();
    const entity = this.live.get(entry.id);
    if (entity !== undefined) this.applyToEntity(entity, entry, changes, context);
  }

  private applyToEntity(entity: Entity, entry: MutableEntry, changes: Record<string, JsonValue>, context: Context): void {
    const entities = this.deps.core.entities;
    const disabled = entry.disabled_by !== null;
    const disabling = disabled && !entity.detached;
    const enabling = !disabled && entity.detached;
    const renaming = entry.entity_id !== entity.id;
    if (disabling) entities.setDisabled(entity, true, context);
    const rewrite = !renaming && !enabling && !disabling;
    const overridden = 'name' in changes || 'icon' in changes || 'entity_id' in changes || 'device_class' in changes;
    if ('options' in changes) entity.setStateAdjust(sensorAdjust(entry.entity_id, entry.options), context, rewrite && !overridden);
    if (overridden) entity.setOverrides(this.overridesOf(entry), context, rewrite);
    if (renaming) entities.rename(entity, entry.entity_id, context);
    if (enabling) entities.setDisabled(entity, false, context);
  }

  private applyCustomization(entry: MutableEntry, requestedId: string): void {
    const custom = this.customize.get(entry.entity_id) ?? this.customize.get(requestedId);
    if (custom === undefined) {
      this.locked.delete(entry.id);
      return;
    }
    const next: Partial<EntryFields> = {};
    if (custom.name !== undefined) next.name = custom.name;
    if (custom.icon !== undefined) next.icon = custom.icon;
    if (custom.area !== undefined) {
      const area = this.deps.findArea(custom.area);
      if (area === undefined)
        this.deps.log.warn({ entity_id: entry.entity_id, area: custom.area }, `customize: no area ${custom.area}; not assigned`);
      else next.area_id = area;
    }
    if (custom.labels !== undefined) {
      const labels: string[] = [];
      for (const l of custom.labels) {
        const id = this.deps.findLabel(l);
        if (id === undefined) this.deps.log.warn({ entity_id: entry.entity_id, label: l }, `customize: no label ${l}; not assigned`);
        else if (!labels.includes(id)) labels.push(id);
      }
      next.labels = labels;
    }
    if (custom.hidden !== undefined) next.hidden_by = custom.hidden ? 'user' : null;
    if (custom.disabled !== undefined) {
      if (custom.disabled) next.disabled_by = 'user';
      else if (entry.disabled_by === 'user') next.disabled_by = null;
    }
    if (custom.entity_category !== undefined) next.entity_category = custom.entity_category;
    this.apply(entry, next);
    this.locked.set(entry.id, new Set(Object.keys(next) as (keyof EntryFields)[]));
  }

  private drop(entry: MutableEntry, announce: boolean): void {
    this.byKey.delete(`${domainOf(entry.entity_id)}\u0000${entry.platform}\u0000${entry.unique_id}`);
    if (this.byEntityId.get(entry.entity_id) === entry) this.byEntityId.delete(entry.entity_id);
    this.locked.delete(entry.id);
    this.suggested.delete(entry.id);
    if (announce) this.fire({ action: 'remove', entity_id: entry.entity_id });
    this.deps.changed();
  }

  private fire(
    data:
      | { action: 'create' | 'remove'; entity_id: string }
      | { action: 'update'; entity_id: string; changes: JsonObject; old_entity_id?: string },
    context?: Context,
  ): void {
    const { core } = this.deps;
    core.bus.fire('entity_registry_updated', data, context ?? createContext(core.clock.now()));
  }
}
