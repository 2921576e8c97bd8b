import type { EventBus, HubEvent } from '../../core/event-bus.js';
import type { StateTable } from '../../core/state-table.js';
import { type EntityMessageCache, snapshotJson } from './compressed-state.js';
import { type EventMessageCache, eventHead, idTail } from './messages.js';
import type { Outbox } from './outbox.js';

/** Something a `subscribe_*` command started; `unsubscribe_events` or the connection's end stops it. */
export interface Subscription {
  stop(): void;
  /** The outbox sent everything it held (entity subscriptions forget which diffs could still collapse). */
  onDrained?(): void;
}

/** `subscribe_events`: every event of one type (or all, `*`) as `{"type":"event","event":{...},"id":N}`. */
export function subscribeEvents(
  bus: EventBus,
  owner: string,
  eventType: string,
  id: number,
  outbox: Outbox,
  messages: EventMessageCache,
): Subscription {
  const tail = idTail(id);
  const stop = bus.on(owner, eventType, (event: HubEvent) => {
    outbox.push(messages.headFor(event), tail);
  });
  return { stop };
}

/** Stale entries `waiting` may keep after the queue drained (see onDrained). */
const MAX_STALE_WAITING = 1024;

/**
 * `subscribe_entities`: a snapshot `{"a":{...}}` of the matching entities, then one compressed diff per
 * change. While a diff of an entity still waits in the outbox, a newer change of that entity replaces it
 * with the entity's latest state in full, so a slow client gets fewer, newer messages instead of a growing
 * backlog of stale ones.
 */
export class EntitiesSubscription implements Subscription {
  private readonly tail: Buffer;
  /** entity_id -> sequence number of its diff that may still be waiting in the outbox. */
  private readonly waiting = new Map<string, number>();
  private readonly stopListening: () => void;

  constructor(
    bus: EventBus,
    owner: string,
    id: number,
    private readonly filter: ReadonlySet<string> | undefined,
    private readonly outbox: Outbox,
    private readonly messages: EntityMessageCache,
  ) {
    this.tail = idTail(id);
    this.stopListening = bus.on(owner, 'state_changed', this.onStateChanged);
  }

  /** Queues the first event. Called right after the result, and after the listener is registered, so no change is missed. */
  sendSnapshot(states: StateTable, cache: SnapshotCache): void {
    let body: string;
    if (this.filter === undefined) body = cache.all(states);
    else {
      const picked = [];
      for (const id of this.filter) {
        const s = states.get(id);
        if (s !== undefined) picked.push(s);
      }
      body = snapshotJson(picked);
    }
    this.outbox.push(eventHead(body), this.tail);
  }

  stop(): void {
    this.stopListening();
    this.waiting.clear();
  }

  /**
   * Every sequence number in `waiting` is stale now. They are harmless (isWaiting says so), and clearing the map at
   * every flush that empties the queue gave V8 a new table each time, which a flood promoted by the megabyte; so the
   * map is only cleared once it holds more entities than a home usually has, which bounds it.
   */
  onDrained(): void {
    if (this.waiting.size > MAX_STALE_WAITING) this.waiting.clear();
  }

  private readonly onStateChanged = (event: HubEvent<'state_changed'>): void => {
    const entityId = event.data.entity_id;
    if (this.filter !== undefined && !this.filter.has(entityId)) return;
    const seq = this.waiting.get(entityId);
    if (seq !== undefined && this.outbox.isWaiting(seq)) {
      this.outbox.replace(seq, this.messages.replacementHeadFor(entityId, event.data.new_state), this.tail);
      return;
    }
    const next = this.outbox.push(this.messages.diffHeadFor(event), this.tail);
    if (next >= 0) this.waiting.set(entityId, next);
  };
}

/** The unfiltered snapshot, rebuilt only when the table changed: many clients (re)subscribing share it. */
export class SnapshotCache {
  private version = -1;
  private json = '';

  all(states: StateTable): string {
    if (states.changeCount !== this.version) {
      this.version = states.changeCount;
      this.json = snapshotJson(states.states());
    }
    return this.json;
  }
}
