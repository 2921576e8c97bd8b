// Checking a client's update of an entity registry entry (`config/entity_registry/update`) before it is applied.
import type { Core } from '../core/core.js';
import { domainOf, entityIdProblem } from '../core/entity-id.js';
import { describeValue, HubError } from '../core/errors.js';
import type { JsonObject } from '../core/json.js';
import { checkIcon, checkOptionalText, checkStringList, invalid, MAX_NAME_LENGTH } from './common.js';
import {
  ENTITY_CATEGORIES,
  type EntityCategory,
  type EntityOptions,
  type EntryFields,
  type MutableEntry,
  NO_OPTIONS,
} from './entity-entry.js';

/** What `config/entity_registry/update` may change; absent keys stay, null clears. */
export interface EntityUpdate {
  readonly new_entity_id?: string;
  readonly name?: string | null;
  readonly icon?: string | null;
  readonly area_id?: string | null;
  readonly labels?: readonly string[];
  readonly aliases?: readonly string[];
  readonly disabled_by?: 'user' | null;
  readonly hidden_by?: 'user' | null;
  readonly entity_category?: EntityCategory | null;
  /** The user's device class; null goes back to the provider's. */
  readonly device_class?: string | null;
  /** Home Assistant's `options_domain` and `options`: the options of one domain replaced (null removes them). */
  readonly options_domain?: string;
  readonly options?: JsonObject | null;
}

const DEVICE_CLASS = /^[a-z0-9_]{1,64}$/;
const OPTIONS_DOMAIN = /^[a-z0-9_]{1,64}(?:\.[a-z0-9_]{1,64})?$/;
/** One domain's options, serialized, at most this long: they are a few settings, kept in memory and on disk. */
const MAX_OPTIONS_JSON = 2048;
/** A display precision above this shows nothing a float holds. */
const MAX_PRECISION = 15;

/** What an update is checked against: the hub's entities and devices, the areas and labels, the registry's own ids. */
export interface EntityUpdateDeps {
  readonly core: Core;
  hasArea(id: string): boolean;
  hasLabel(id: string): boolean;
  /** Whether an entry of the registry holds this entity id. */
  registered(entityId: string): boolean;
}

/** The fields an update sets, checked (HubError naming the field otherwise); a new entity id must be free. */
export function checkEntityUpdate(entry: MutableEntry, u: EntityUpdate, deps: EntityUpdateDeps): Partial<EntryFields> {
  const next: Partial<EntryFields> = {};
  if (u.new_entity_id !== undefined && u.new_entity_id !== entry.entity_id) {
    const id = u.new_entity_id;
    const problem = typeof id === 'string' ? entityIdProblem(id) : 'expected str';
    if (problem !== undefined) throw invalid('new_entity_id', `Entity ID ${describeValue(id)} is an invalid entity ID: ${problem}`);
    if (domainOf(id) !== domainOf(entry.entity_id)) throw invalid('new_entity_id', 'Entity domain change is not supported');
    const { core } = deps;
    if (deps.registered(id) || core.entities.find(id) !== undefined || core.states.has(id)) {
      throw new HubError('invalid_format', 'Entity with this ID is already registered');
    }
    next.entity_id = id;
  }
  if (u.name !== undefined) {
    next.name = checkOptionalText(u.name, 'name');
    if (next.name !== null && next.name.length > MAX_NAME_LENGTH)
      throw invalid('name', `length of value must be at most ${MAX_NAME_LENGTH}`);
  }
  if (u.icon !== undefined) next.icon = checkIcon(u.icon);
  if (u.area_id !== undefined) {
    next.area_id = checkOptionalText(u.area_id, 'area_id');
    if (next.area_id !== null && !deps.hasArea(next.area_id))
      throw invalid('area_id', `no area with id ${describeValue(next.area_id)} exists`);
  }
  if (u.labels !== undefined) {
    next.labels = checkStringList(u.labels, 'labels');
    const unknown = next.labels.find((l) => !deps.hasLabel(l));
    if (unknown !== undefined) throw invalid('labels', `no label with id ${describeValue(unknown)} exists`);
  }
  if (u.aliases !== undefined) next.aliases = checkStringList(u.aliases, 'aliases');
  if (u.disabled_by !== undefined) {
    if (u.disabled_by !== null && u.disabled_by !== 'user')
      throw invalid('disabled_by', `expected user or None. Got ${describeValue(u.disabled_by)}`);
    if (u.disabled_by === null && entry.disabled_by !== null) {
      const device = entry.device_id === null ? undefined : deps.core.devices.get(entry.device_id);
      if (device?.disabled_by) throw new HubError('invalid_format', 'Device is disabled');
    }
    next.disabled_by = u.disabled_by;
  }
  if (u.hidden_by !== undefined) {
    if (u.hidden_by !== null && u.hidden_by !== 'user')
      throw invalid('hidden_by', `expected user or None. Got ${describeValue(u.hidden_by)}`);
    next.hidden_by = u.hidden_by;
  }
  if (u.entity_category !== undefined) {
    if (u.entity_category !== null && !ENTITY_CATEGORIES.includes(u.entity_category)) {
      throw invalid('entity_category', `expected one of ${ENTITY_CATEGORIES.join(', ')} or None. Got ${describeValue(u.entity_category)}`);
    }
    next.entity_category = u.entity_category;
  }
  if (u.device_class !== undefined) {
    if (u.device_class !== null && (typeof u.device_class !== 'string' || !DEVICE_CLASS.test(u.device_class)))
      throw invalid(
        'device_class',
        `expected a device class (lower-case letters, digits and _) or None. Got ${describeValue(u.device_class)}`,
      );
    next.device_class = u.device_class;
  }
  if (u.options_domain !== undefined || u.options !== undefined) next.options = checkOptions(entry.options, u.options_domain, u.options);
  return next;
}

/** The entry's options with one domain's replaced, checked; a sensor's are the unit and display precision HA knows. */
function checkOptions(current: EntityOptions, domain: string | undefined, options: JsonObject | null | undefined): EntityOptions {
  if (domain === undefined || options === undefined) throw invalid('options', 'options and options_domain go together');
  if (typeof domain !== 'string' || !OPTIONS_DOMAIN.test(domain))
    throw invalid('options_domain', `expected a domain such as sensor. Got ${describeValue(domain)}`);
  if (options !== null) {
    if (typeof options !== 'object' || Array.isArray(options)) throw invalid('options', 'expected a dictionary or None');
    if (JSON.stringify(options).length > MAX_OPTIONS_JSON) throw invalid('options', `at most ${MAX_OPTIONS_JSON} characters`);
    if (domain === 'sensor') checkSensorOptions(options);
  }
  const next = Object.create(null) as Record<string, JsonObject>;
  for (const key of Object.keys(current)) if (key !== domain) next[key] = current[key] as JsonObject;
  if (options !== null) next[domain] = options;
  return Object.keys(next).length === 0 ? NO_OPTIONS : next;
}

function checkSensorOptions(options: JsonObject): void {
  const unit = options.unit_of_measurement;
  if (unit !== undefined && unit !== null && (typeof unit !== 'string' || unit.length > 64))
    throw invalid('options', `unit_of_measurement: expected a unit such as °C or None. Got ${describeValue(unit)}`);
  for (const key of ['display_precision', 'suggested_display_precision']) {
    const p = options[key];
    if (p !== undefined && p !== null && (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > MAX_PRECISION))
      throw invalid('options', `${key}: expected a whole number from 0 to ${MAX_PRECISION} or None. Got ${describeValue(p)}`);
  }
}
