import { isValidDomain, isValidEntityId } from '../core/entity-id.js';
import type { State } from '../core/state.js';
import type { StateTable } from '../core/state-table.js';
import { readArgs } from './args.js';
import { PyDateTime, UTC_ZONE } from './datetime.js';
import { fault } from './errors.js';
import { callableWithAttributes, TemplateObject } from './objects.js';
import { pyRepr, pyTypeName } from './py-format.js';
import { currentScope, step, undefinedFault } from './scope.js';

/**
 * `states` as Home Assistant's templates see it: `states('sensor.x')`, `states.sensor.x.state`,
 * `for s in states.sensor`, `for s in states`. Every read is recorded in the render's RenderInfo
 * (an entity, a domain, or everything), which is what a subscription re-renders on.
 */

function track(kind: 'entity' | 'domain' | 'all', name = ''): void {
  const info = currentScope()?.info;
  if (info === undefined) return;
  if (kind === 'entity') info.entity(name);
  else if (kind === 'domain') info.domain(name);
  else info.all = true;
}

/** One entity's state as a template reads it (Home Assistant's TemplateState). */
export class TemplateState extends TemplateObject {
  override readonly pyType = 'TemplateState';

  private constructor(readonly state: State) {
    super();
  }

  private static readonly cache = new WeakMap<State, TemplateState>();

  /** States are immutable, so one wrapper per state serves every render. */
  static of(state: State): TemplateState {
    let wrapped = TemplateState.cache.get(state);
    if (wrapped === undefined) {
      wrapped = new TemplateState(state);
      TemplateState.cache.set(state, wrapped);
    }
    return wrapped;
  }

  get entityId(): string {
    return this.state.entity_id;
  }

  getAttr(name: string): unknown {
    const s = this.state;
    const dot = s.entity_id.indexOf('.');
    switch (name) {
      case 'state':
        return s.state;
      case 'attributes':
        return s.attributes;
      case 'entity_id':
        return s.entity_id;
      case 'domain':
        return s.entity_id.slice(0, dot);
      case 'object_id':
        return s.entity_id.slice(dot + 1);
      case 'name': {
        const friendly = s.attributes.friendly_name;
        return typeof friendly === 'string' ? friendly : s.entity_id.slice(dot + 1).replaceAll('_', ' ');
      }
      case 'last_changed':
        return new PyDateTime(s.lastChangedUs, UTC_ZONE);
      case 'last_updated':
      case 'last_reported':
        return new PyDateTime(s.lastUpdatedUs, UTC_ZONE);
      case 'context':
        return { id: s.context.id, parent_id: s.context.parent_id, user_id: s.context.user_id };
      case 'state_with_unit': {
        const unit = s.attributes.unit_of_measurement;
        return typeof unit === 'string' && unit !== '' ? `${s.state} ${unit}` : s.state;
      }
      default:
        return undefined;
    }
  }

  pyStr(): string {
    const s = this.state;
    const attrs = Object.entries(s.attributes)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : pyRepr(v)}`)
      .join(', ');
    return `<template TemplateState(<state ${s.entity_id}=${s.state}; ${attrs} @ ${new PyDateTime(s.lastChangedUs, UTC_ZONE).isoformat()}>)>`;
  }

  override pyEquals(other: unknown): boolean {
    return other instanceof TemplateState && other.state === this.state;
  }
}

/** `states.<domain>`: its entities by object id, iterable in entity id order. */
export class DomainStates extends TemplateObject {
  override readonly pyType = 'DomainStates';

  constructor(
    private readonly table: StateTable,
    readonly domain: string,
  ) {
    super();
  }

  getAttr(objectId: string): unknown {
    const entityId = `${this.domain}.${objectId}`;
    if (!isValidEntityId(entityId)) throw fault('TemplateRuntimeError', `Invalid entity ID '${entityId}'`);
    track('entity', entityId);
    const s = this.table.get(entityId);
    return s === undefined ? null : TemplateState.of(s);
  }

  override iterate(): unknown[] {
    track('domain', this.domain);
    const prefix = `${this.domain}.`;
    return sortedStates(this.table.statesArray().filter((s) => s.entity_id.startsWith(prefix)));
  }

  pyStr(): string {
    return `<template DomainStates('${this.domain}')>`;
  }
}

function sortedStates(states: State[]): TemplateState[] {
  // Counted per state: iterating all states inside a long loop is work the time limit must see.
  return states
    .sort((a, b) => (a.entity_id < b.entity_id ? -1 : a.entity_id > b.entity_id ? 1 : 0))
    .map((s) => {
      step();
      return TemplateState.of(s);
    });
}

/** The state of an entity id as functions read it (tracked), or undefined. */
export function stateOf(table: StateTable, entityId: unknown): State | undefined {
  if (entityId instanceof TemplateState) {
    track('entity', entityId.entityId);
    return table.get(entityId.entityId);
  }
  if (typeof entityId !== 'string') return undefined;
  const id = entityId.toLowerCase();
  track('entity', id);
  return table.get(id);
}

/** Attribute names of `states` that are never domains (Home Assistant's _RESERVED_NAMES). */
const RESERVED = new Set(['contextfunction', 'evalcontextfunction', 'environmentfunction', 'jinja_pass_arg']);

/** `states('sensor.x')` and `'sensor.x' | states`: the state text, 'unknown' for no such entity. */
export function statesFilter(table: StateTable): (...args: unknown[]) => unknown {
  return (...args: unknown[]): unknown => {
    const a = readArgs('states', args, ['entity_id', 'rounded', 'with_unit']);
    const id = a.values.entity_id;
    // HA checks the entity id as a string: an undefined variable or a number is an error, not 'unknown'.
    if (id === undefined) throw undefinedFault();
    if (typeof id !== 'string' && !(id instanceof TemplateState))
      throw fault('TypeError', `expected string or bytes-like object, got '${pyTypeName(id)}'`);
    const s = stateOf(table, id);
    if (s === undefined) return 'unknown';
    if (a.values.with_unit === true) return TemplateState.of(s).getAttr('state_with_unit');
    return s.state;
  };
}

/** The `states` global: callable, with a domain per attribute, iterable over every entity. */
export function statesGlobal(table: StateTable): (...args: unknown[]) => unknown {
  const call = statesFilter(table);
  const attr = (name: string): unknown => {
    if (name.includes('.')) {
      if (!isValidEntityId(name)) throw fault('TemplateRuntimeError', `Invalid entity ID '${name}'`);
      const s = stateOf(table, name);
      return s === undefined ? null : TemplateState.of(s);
    }
    if (RESERVED.has(name)) return null;
    if (!isValidDomain(name)) throw fault('TemplateRuntimeError', `Invalid domain name '${name}'`);
    return new DomainStates(table, name);
  };
  const all = (): unknown[] => {
    track('all');
    return sortedStates(table.statesArray());
  };
  return callableWithAttributes(call, attr, all);
}
