import type { StateTable } from '../core/state-table.js';
import { readArgs } from './args.js';
import { itemsOfFunction, TemplateObject } from './objects.js';
import { pyEquals } from './py-ops.js';
import { step } from './scope.js';
import { stateOf, TemplateState } from './states.js';

/** is_state, state_attr, is_state_attr, has_value and expand, as Home Assistant defines them. */
export function stateFunctions(table: StateTable): Record<string, (...args: unknown[]) => unknown> {
  const stateAttr = (entityId: unknown, name: unknown): unknown => {
    const s = stateOf(table, entityId);
    if (s === undefined || typeof name !== 'string' || !Object.hasOwn(s.attributes, name)) return undefined;
    return s.attributes[name];
  };
  return {
    is_state: (...args) => {
      const a = readArgs('is_state', args, ['entity_id', 'state']);
      const s = stateOf(table, a.values.entity_id);
      if (s === undefined) return false;
      const wanted = a.values.state;
      return s.state === wanted || (Array.isArray(wanted) && wanted.includes(s.state));
    },
    state_attr: (...args) => {
      const a = readArgs('state_attr', args, ['entity_id', 'name']);
      return stateAttr(a.values.entity_id, a.values.name) ?? null;
    },
    is_state_attr: (...args) => {
      const a = readArgs('is_state_attr', args, ['entity_id', 'name', 'value']);
      // A missing attribute is never equal, not even to None; an attribute that is None is (HA's is_state_attr).
      const value = stateAttr(a.values.entity_id, a.values.name);
      return value !== undefined && pyEquals(value, a.values.value);
    },
    has_value: (...args) => {
      const a = readArgs('has_value', args, ['entity_id']);
      const s = stateOf(table, a.values.entity_id);
      return s !== undefined && s.state !== 'unknown' && s.state !== 'unavailable';
    },
    expand: (...args) => expand(table, args),
  };
}

/** The entities named, listed or grouped in the arguments, each once, groups opened up, in entity id order. */
export function expand(table: StateTable, args: unknown[]): TemplateState[] {
  const search: unknown[] = [...args];
  const found = new Map<string, TemplateState>();
  const seen = new Set<string>();
  // Groups can contain each other; every entity id is opened at most once, so this ends.
  while (search.length > 0) {
    step();
    const item = search.pop();
    let entity: TemplateState;
    if (typeof item === 'string' || item instanceof TemplateState) {
      const s = stateOf(table, item);
      if (s === undefined) continue;
      entity = TemplateState.of(s);
    } else if (Array.isArray(item)) {
      search.push(...item);
      continue;
    } else if (item instanceof TemplateObject) {
      search.push(...(item.iterate() ?? []));
      continue;
    } else if (typeof item === 'function') {
      // `states` itself: every entity.
      search.push(...(itemsOfFunction(item)?.() ?? []));
      continue;
    } else continue;
    const id = entity.entityId;
    if (seen.has(id)) continue;
    seen.add(id);
    const members = entity.state.attributes.entity_id;
    if (Array.isArray(members) && (id.startsWith('group.') || id.startsWith('light.') || id.startsWith('switch.'))) {
      search.push(...members);
    } else found.set(id, entity);
  }
  return [...found.values()].sort((a, b) => (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : 0));
}
