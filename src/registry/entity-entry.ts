import { entityIdProblem } from '../core/entity-id.js';
import type { JsonObject, JsonValue } from '../core/json.js';

/**
 * An entity registry entry: its fields, and the forms it takes as JSON (Home Assistant's list and get/update
 * replies, and what the registry stores on disk). The registry itself is src/registry/entity-registry.ts.
 */

export type EntityDisabler = 'user' | 'device' | 'integration';
export type EntityHider = 'user' | 'integration';
export type EntityCategory = 'config' | 'diagnostic';
const ENTITY_DISABLERS: readonly EntityDisabler[] = ['user', 'device', 'integration'];
const ENTITY_HIDERS: readonly EntityHider[] = ['user', 'integration'];
export const ENTITY_CATEGORIES: readonly EntityCategory[] = ['config', 'diagnostic'];

/**
 * Home Assistant's entity options: per domain (`sensor`, `sensor.private`, ...) an object of settings. A
 * null-prototype object, as the domains are named by clients.
 */
export type EntityOptions = Readonly<Record<string, JsonObject>>;

/** Options without any domain: one shared frozen object. */
export const NO_OPTIONS: EntityOptions = Object.freeze(Object.create(null) as Record<string, JsonObject>);

/** Per-entity settings from the configuration file (`customize:`); what it sets, clients cannot change. */
export interface EntityCustomization {
  readonly name?: string;
  readonly icon?: string;
  /** An area id or name. */
  readonly area?: string;
  /** Label ids or names. */
  readonly labels?: readonly string[];
  readonly hidden?: boolean;
  readonly disabled?: boolean;
  readonly entity_category?: EntityCategory | null;
}

/** Whether a stored value is null or one of `allowed`. */
function nullOrOneOf<T extends string>(allowed: readonly T[], value: string | null): value is T | null {
  return value === null || (allowed as readonly string[]).includes(value);
}

/** The fields of an entry that change over its life. */
export interface EntryFields {
  entity_id: string;
  device_id: string | null;
  area_id: string | null;
  labels: readonly string[];
  aliases: readonly string[];
  name: string | null;
  icon: string | null;
  original_name: string | null;
  original_icon: string | null;
  original_device_class: string | null;
  /** The user's device class over the provider's (Home Assistant's `device_class`). */
  device_class: string | null;
  options: EntityOptions;
  disabled_by: EntityDisabler | null;
  hidden_by: EntityHider | null;
  entity_category: EntityCategory | null;
}

/** An entity registry entry, with Home Assistant's field names. */
export interface EntityEntry extends Readonly<EntryFields> {
  /** The entry's own id (stable: derived from domain, platform and unique id). */
  readonly id: string;
  readonly unique_id: string;
  readonly platform: string;
  readonly created_at: number;
  readonly modified_at: number;
}

export interface MutableEntry extends EntryFields {
  readonly id: string;
  readonly unique_id: string;
  readonly platform: string;
  created_at: number;
  modified_at: number;
  /** The provider gave a unique id (otherwise the requested entity id stands in, and the entry is kept on disk only once the user changed it). */
  has_unique_id: boolean;
}

/** `config/entity_registry/list` form (Home Assistant's `as_partial_dict`). */
export function partialJson(e: MutableEntry): JsonObject {
  return {
    area_id: e.area_id,
    categories: {},
    config_entry_id: null,
    created_at: e.created_at,
    device_id: e.device_id,
    disabled_by: e.disabled_by,
    entity_category: e.entity_category,
    entity_id: e.entity_id,
    has_entity_name: false,
    hidden_by: e.hidden_by,
    icon: e.icon,
    id: e.id,
    labels: e.labels,
    modified_at: e.modified_at,
    name: e.name,
    options: e.options,
    original_name: e.original_name,
    platform: e.platform,
    translation_key: null,
    unique_id: e.unique_id,
  };
}

/** `config/entity_registry/get` and `update` form (`extended_dict`). */
export function extendedJson(e: MutableEntry): JsonObject {
  return {
    ...partialJson(e),
    aliases: e.aliases,
    capabilities: null,
    device_class: e.device_class,
    original_device_class: e.original_device_class,
    original_icon: e.original_icon,
  };
}

export function fromJson(raw: JsonObject): MutableEntry | undefined {
  const text = (key: string): string | null | undefined => {
    const v = raw[key];
    return v === undefined || v === null ? null : typeof v === 'string' ? v : undefined;
  };
  const list = (key: string): string[] | undefined => {
    const v = raw[key] ?? [];
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...(v as string[])] : undefined;
  };
  const { id, entity_id: entityId, unique_id: uniqueId, platform } = raw;
  if (typeof id !== 'string' || typeof entityId !== 'string' || entityIdProblem(entityId) !== undefined) return undefined;
  if (typeof uniqueId !== 'string' || typeof platform !== 'string') return undefined;
  const disabledBy = text('disabled_by');
  const hiddenBy = text('hidden_by');
  const category = text('entity_category');
  const fields = {
    device_id: text('device_id'),
    area_id: text('area_id'),
    name: text('name'),
    icon: text('icon'),
    original_name: text('original_name'),
    original_icon: text('original_icon'),
    original_device_class: text('original_device_class'),
    device_class: text('device_class'),
    labels: list('labels'),
    aliases: list('aliases'),
  };
  if (Object.values(fields).some((v) => v === undefined)) return undefined;
  const options = optionsFromJson(raw.options);
  if (options === undefined) return undefined;
  if (disabledBy === undefined || !nullOrOneOf(ENTITY_DISABLERS, disabledBy)) return undefined;
  if (hiddenBy === undefined || !nullOrOneOf(ENTITY_HIDERS, hiddenBy)) return undefined;
  if (category === undefined || !nullOrOneOf(ENTITY_CATEGORIES, category)) return undefined;
  const created = typeof raw.created_at === 'number' ? raw.created_at : 0;
  return {
    ...(fields as Omit<EntryFields, 'entity_id' | 'disabled_by' | 'hidden_by' | 'entity_category' | 'options'>),
    id,
    entity_id: entityId,
    unique_id: uniqueId,
    platform,
    has_unique_id: raw.has_unique_id === true,
    options,
    disabled_by: disabledBy,
    hidden_by: hiddenBy,
    entity_category: category,
    created_at: created,
    modified_at: typeof raw.modified_at === 'number' ? raw.modified_at : created,
  };
}

/** Stored options: an object of objects (absent: none); undefined when it is something else. */
function optionsFromJson(raw: JsonValue | undefined): EntityOptions | undefined {
  if (raw === undefined || raw === null) return NO_OPTIONS;
  if (typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const out = Object.create(null) as Record<string, JsonObject>;
  for (const [domain, value] of Object.entries(raw as JsonObject)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    out[domain] = value as JsonObject;
  }
  return Object.keys(out).length === 0 ? NO_OPTIONS : out;
}

/** Whether the entry holds something a restart must not lose. */
export function persistable(e: MutableEntry): boolean {
  return (
    e.has_unique_id ||
    e.entity_id !== e.unique_id ||
    e.name !== null ||
    e.icon !== null ||
    e.area_id !== null ||
    e.labels.length > 0 ||
    e.aliases.length > 0 ||
    e.disabled_by === 'user' ||
    e.hidden_by !== null ||
    e.entity_category !== null ||
    e.device_class !== null ||
    Object.keys(e.options).length > 0
  );
}

/** Whether the entry was worth keeping before `changes` (so clearing the last user setting still saves). */
export function persistableBefore(e: MutableEntry, changes: Record<string, JsonValue>): boolean {
  const before = { ...e, ...(changes as Partial<MutableEntry>) } as MutableEntry;
  return persistable(before);
}
