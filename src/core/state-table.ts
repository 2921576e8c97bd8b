import type { Clock, Micros } from './clock.js';
import { type Context, createContext } from './context.js';
import { entityIdProblem, MAX_STATE_LENGTH } from './entity-id.js';
import { HubError } from './errors.js';
import { type EventBus, StateChangedData } from './event-bus.js';
import { type Attributes, type ComposedAttributes, State, sameAttributes } from './state.js';

export const DEFAULT_MAX_ENTITIES = 16384;

export interface SetOptions {
  readonly context?: Context;
  /** Write and fire even when nothing changed (moves both timestamps), as Home Assistant's force_update. */
  readonly forceUpdate?: boolean;
  /** How `attributes` were composed, when they are `{...fixed, ...reported}` (lets their JSON reuse the fixed part's). */
  readonly composedOf?: ComposedAttributes;
  /** When the write happened, if the caller already read the clock for it (one reading per change, not three). */
  readonly timeUs?: Micros;
}

export interface SetResult {
  readonly state: State;
  /** True when the write fired `state_changed`. */
  readonly changed: boolean;
  /** True when the entity did not exist before. */
  readonly created: boolean;
}

const EMPTY: Attributes = Object.freeze({});

/**
 * The current state of every entity, in a table preallocated to a fixed number of slots. An entity keeps
 * its slot for its lifetime, so drivers can write by slot without a lookup; freed slots are reused.
 * Writes follow Home Assistant's rules (core.py StateMachine.async_set): no event and no timestamp move
 * when nothing changed; `last_changed` moves only with the state string.
 */
export class StateTable {
  private readonly slots: (State | undefined)[];
  private readonly index = new Map<string, number>();
  private readonly freeSlots: Int32Array;
  private freeCount: number;
  private allJson: string | undefined;
  private version = 0;
  /** The entity whose writes coalesce() is holding back, and the state listeners last saw of it. */
  private quietId: string | undefined;
  private quietFrom: State | null = null;

  constructor(
    readonly capacity: number,
    private readonly bus: EventBus,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.slots = new Array<State | undefined>(capacity).fill(undefined);
    this.freeSlots = new Int32Array(capacity);
    // Hand out low slots first.
    for (let i = 0; i < capacity; i++) this.freeSlots[i] = capacity - 1 - i;
    this.freeCount = capacity;
  }

  get size(): number {
    return this.index.size;
  }

  /** Bumped on every change; lets readers cache anything derived from the whole table. */
  get changeCount(): number {
    return this.version;
  }

  get(entityId: string): State | undefined {
    const slot = this.index.get(entityId);
    return slot === undefined ? undefined : this.slots[slot];
  }

  has(entityId: string): boolean {
    return this.index.has(entityId);
  }

  /** The slot of an entity, or -1. */
  slotOf(entityId: string): number {
    return this.index.get(entityId) ?? -1;
  }

  /** Reserves a slot for an entity that has no state yet (drivers do this at registration). */
  reserve(entityId: string): number {
    const existing = this.index.get(entityId);
    if (existing !== undefined) return existing;
    const problem = entityIdProblem(entityId);
    if (problem !== undefined) {
      throw new HubError('invalid_entity_id', `Invalid entity id encountered: ${entityId}. ${problem}`);
    }
    if (this.freeCount === 0) {
      throw new HubError(
        'entity_table_full',
        `The state table is full: all ${this.capacity} slots are in use (hub.max_entities). Cannot add ${entityId}.`,
      );
    }
    const slot = this.freeSlots[--this.freeCount] as number;
    this.index.set(entityId, slot);
    return slot;
  }

  set(entityId: string, state: string, attributes: Attributes = EMPTY, options: SetOptions = {}): SetResult {
    if (state.length > MAX_STATE_LENGTH) {
      throw new HubError('invalid_state', `Invalid state with length ${state.length}. State max length is ${MAX_STATE_LENGTH} characters.`);
    }
    const existingSlot = this.index.get(entityId);
    const slot = existingSlot ?? this.reserve(entityId);
    const old = this.slots[slot];
    const now = options.timeUs ?? this.clock.now();

    if (old !== undefined && !options.forceUpdate && old.state === state && sameAttributes(old, attributes, options.composedOf)) {
      return { state: old, changed: false, created: false };
    }

    const context = options.context ?? createContext(now);
    let next: State;
    if (old === undefined) {
      next = new State(entityId, state, attributes, now, now, context, options.composedOf);
    } else {
      const sameState = old.state === state && !options.forceUpdate;
      const same = sameAttributes(old, attributes, options.composedOf);
      next = new State(
        entityId,
        state,
        same ? old.attributes : attributes,
        sameState ? old.lastChangedUs : now,
        now,
        context,
        same ? old.attributesJson : options.composedOf,
        same ? old.composition : undefined,
      );
    }
    this.slots[slot] = next;
    this.touch();
    if (entityId === this.quietId) return { state: next, changed: true, created: old === undefined };
    // The event's time_fired is the state's last_updated, as in Home Assistant.
    this.bus.fire('state_changed', new StateChangedData(entityId, old ?? null, next), context, 'LOCAL', now);
    return { state: next, changed: true, created: old === undefined };
  }

  /** Removes an entity and its slot; fires `state_changed` with `new_state: null`. */
  remove(entityId: string, context?: Context): boolean {
    const slot = this.index.get(entityId);
    if (slot === undefined) return false;
    let old = this.slots[slot];
    this.slots[slot] = undefined;
    this.index.delete(entityId);
    this.freeSlots[this.freeCount++] = slot;
    this.touch();
    if (entityId === this.quietId) {
      // Removed while its writes were held back: listeners part from the state they saw.
      old = this.quietFrom ?? undefined;
      this.quietId = undefined;
    }
    if (old !== undefined) {
      const ctx = context ?? createContext(this.clock.now());
      this.bus.fire('state_changed', new StateChangedData(entityId, old, null), ctx);
    }
    return true;
  }

  /**
   * Runs `fn`; the writes of `entityId` it makes change the table at once (readers see them) but reach
   * listeners as one `state_changed`, from the state they last saw to the one `fn` leaves, when it returns.
   * Restore state brings an entity back this way, so that nobody sees a driver's stale first report and then
   * the restored state a moment later. `last_changed` stays what listeners saw when the state string does.
   * One entity at a time: a nested call runs `fn` with nothing held back.
   */
  coalesce(entityId: string, fn: () => void): void {
    if (this.quietId !== undefined) {
      fn();
      return;
    }
    this.quietId = entityId;
    this.quietFrom = this.get(entityId) ?? null;
    try {
      fn();
    } finally {
      const from = this.quietFrom;
      const held = this.quietId === entityId;
      this.quietId = undefined;
      this.quietFrom = null;
      if (held) this.publish(entityId, from);
    }
  }

  /** What coalesce() held back: one change from `from` to the current state, if there is one. */
  private publish(entityId: string, from: State | null): void {
    const slot = this.index.get(entityId);
    let now = slot === undefined ? undefined : this.slots[slot];
    if (now === undefined || now === from) return;
    if (from !== null && from.state === now.state && now.lastChangedUs !== from.lastChangedUs) {
      now = new State(
        entityId,
        now.state,
        now.attributes,
        from.lastChangedUs,
        now.lastUpdatedUs,
        now.context,
        now.attributesJson,
        now.composition,
      );
      this.slots[slot as number] = now;
      this.touch();
    }
    this.bus.fire('state_changed', new StateChangedData(entityId, from, now), now.context, 'LOCAL', now.lastUpdatedUs);
  }

  /** Every current state, in the order the entities were added. */
  *states(): IterableIterator<State> {
    for (const slot of this.index.values()) {
      const s = this.slots[slot];
      if (s !== undefined) yield s;
    }
  }

  statesArray(): State[] {
    return Array.from(this.states());
  }

  entityIds(): IterableIterator<string> {
    return this.index.keys();
  }

  /** The JSON array of all states, rebuilt only after a change. */
  statesJson(): string {
    if (this.allJson === undefined) {
      const parts: string[] = [];
      for (const s of this.states()) parts.push(s.json);
      this.allJson = `[${parts.join(',')}]`;
    }
    return this.allJson;
  }

  private touch(): void {
    this.version++;
    this.allJson = undefined;
  }
}
