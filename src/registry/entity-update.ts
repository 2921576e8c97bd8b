// Checking a client's update of an entity registry entry (`config/entity_registry/update`) before it is applied.
import type { Core } from '../core/core.js';
import { domainOf, entityIdProblem } from '../core/entity-id.js';
import { describeValue, HubError } from '../core/errors.js';
import { checkIcon, checkOptionalText, checkStringList, invalid, MAX_NAME_LENGTH } from './common.js';
import { ENTITY_CATEGORIES, type EntityCategory, type EntryFields, type MutableEntry } from './entity-entry.js';

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
}

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
  return next;
}
