import type { EventBus, HubEvent } from '../core/event-bus.js';

export type StateHandler = (event: HubEvent<'state_changed'>) => void;
export type ErrorSink = (err: unknown) => void;

/**
 * One `state_changed` listener for all state-based triggers, dispatching by entity id, so a state change
 * costs one map lookup instead of one call per automation.
 */
export class StateDispatch {
  private readonly byEntity = new Map<string, Set<StateHandler>>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly owner: string,
    private readonly onError: ErrorSink,
  ) {}

  on(entityId: string, handler: StateHandler): () => void {
    let set = this.byEntity.get(entityId);
    if (set === undefined) {
      set = new Set();
      this.byEntity.set(entityId, set);
    }
    set.add(handler);
    this.unsubscribe ??= this.bus.on(this.owner, 'state_changed', (event) => this.dispatch(event));
    const handlers = set;
    return () => {
      handlers.delete(handler);
      if (handlers.size === 0 && this.byEntity.get(entityId) === handlers) this.byEntity.delete(entityId);
    };
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.byEntity.clear();
  }

  private dispatch(event: HubEvent<'state_changed'>): void {
    const set = this.byEntity.get(event.data.entity_id);
    if (set === undefined) return;
    // A snapshot: handlers may attach or detach others (wait_for_trigger) while this runs. The common
    // single-handler case takes it without allocating.
    if (set.size === 1) {
      this.call(set.values().next().value as StateHandler, event);
      return;
    }
    for (const handler of [...set]) this.call(handler, event);
  }

  private call(handler: StateHandler, event: HubEvent<'state_changed'>): void {
    try {
      handler(event);
    } catch (err) {
      this.onError(err);
    }
  }
}
