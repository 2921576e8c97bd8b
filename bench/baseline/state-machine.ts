/**
 * The baseline of the state-table benchmark: Home Assistant's state-machine rules written the plain way
 * a first implementation would: a Map of plain state objects, attributes compared through
 * JSON.stringify, ISO timestamps from `new Date()`, a random context id, and an EventEmitter for
 * `state_changed`. A subscriber that needs the event as JSON stringifies it itself.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';

export interface PlainState {
  readonly entity_id: string;
  readonly state: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly last_changed: string;
  readonly last_updated: string;
  readonly context: { readonly id: string; readonly parent_id: string | null; readonly user_id: string | null };
}

export interface PlainStateChanged {
  readonly event_type: 'state_changed';
  readonly data: { readonly entity_id: string; readonly old_state: PlainState | null; readonly new_state: PlainState };
  readonly origin: 'LOCAL';
  readonly time_fired: string;
  readonly context: PlainState['context'];
}

export class PlainStateMachine {
  private readonly states = new Map<string, PlainState>();
  readonly events = new EventEmitter();

  constructor() {
    this.events.setMaxListeners(0);
  }

  set(entityId: string, state: string, attributes: Readonly<Record<string, unknown>>): void {
    const old = this.states.get(entityId);
    const sameAttributes = old !== undefined && JSON.stringify(old.attributes) === JSON.stringify(attributes);
    if (old !== undefined && old.state === state && sameAttributes) return;
    const now = new Date().toISOString().replace('Z', '+00:00');
    const context = { id: randomUUID().replace(/-/g, ''), parent_id: null, user_id: null };
    const next: PlainState = {
      entity_id: entityId,
      state,
      attributes: { ...attributes },
      last_changed: old !== undefined && old.state === state ? old.last_changed : now,
      last_updated: now,
      context,
    };
    this.states.set(entityId, next);
    const event: PlainStateChanged = {
      event_type: 'state_changed',
      data: { entity_id: entityId, old_state: old ?? null, new_state: next },
      origin: 'LOCAL',
      time_fired: now,
      context,
    };
    this.events.emit('state_changed', event);
  }
}
