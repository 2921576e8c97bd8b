import type { Clock, Micros } from './clock.js';
import { isoFromMicros } from './clock.js';
import { type Context, contextJson } from './context.js';
import type { JsonObject } from './json.js';
import type { State } from './state.js';

export type EventOrigin = 'LOCAL' | 'REMOTE';

/** Data of a `state_changed` event; serialized from the states' cached JSON, never re-stringified. */
export class StateChangedData {
  constructor(
    readonly entity_id: string,
    readonly old_state: State | null,
    readonly new_state: State | null,
  ) {}
  toJsonString(): string {
    return `{"entity_id":${JSON.stringify(this.entity_id)},"old_state":${this.old_state ? this.old_state.json : 'null'},"new_state":${this.new_state ? this.new_state.json : 'null'}}`;
  }
}

/** Events the hub itself fires, with their data types. Any other event type carries a JSON object. */
export interface KnownEvents {
  state_changed: StateChangedData;
  service_registered: { domain: string; service: string };
  service_removed: { domain: string; service: string };
  call_service: { domain: string; service: string; service_data: JsonObject };
  homeassistant_start: JsonObject;
  homeassistant_started: JsonObject;
  homeassistant_stop: JsonObject;
  core_config_updated: JsonObject;
  automation_triggered: { name: string; entity_id: string; source?: string };
  script_started: { name: string; entity_id: string };
  device_registry_updated: { action: RegistryAction; device_id: string; changes?: JsonObject };
  /** `changes` holds the old value of each changed field; `old_entity_id` is set when the entity was renamed. */
  entity_registry_updated:
    | { action: 'create' | 'remove'; entity_id: string }
    | { action: 'update'; entity_id: string; changes: JsonObject; old_entity_id?: string };
  area_registry_updated: { action: RegistryAction; area_id: string };
  floor_registry_updated: { action: RegistryAction; floor_id: string };
  label_registry_updated: { action: RegistryAction; label_id: string };
}

/** What a `*_registry_updated` event reports. */
export type RegistryAction = 'create' | 'update' | 'remove';

export type EventType = keyof KnownEvents | (string & {});
export type EventData<T extends string> = T extends keyof KnownEvents ? KnownEvents[T] : JsonObject;

interface HasJsonString {
  toJsonString(): string;
}

/** One fired event. Its JSON is built once, on first use, and shared by every subscriber. */
export class HubEvent<T extends string = string> {
  private cachedJson: string | undefined;
  constructor(
    readonly event_type: T,
    readonly data: EventData<T>,
    readonly origin: EventOrigin,
    readonly timeFiredUs: Micros,
    readonly context: Context,
  ) {}

  get json(): string {
    if (this.cachedJson === undefined) {
      const data = this.data as unknown as Partial<HasJsonString>;
      const dataJson = typeof data.toJsonString === 'function' ? data.toJsonString() : JSON.stringify(this.data);
      this.cachedJson = `{"event_type":${JSON.stringify(this.event_type)},"data":${dataJson},"origin":"${this.origin}","time_fired":"${isoFromMicros(this.timeFiredUs)}","context":${contextJson(this.context)}}`;
    }
    return this.cachedJson;
  }
}

export type Listener<T extends string> = (event: HubEvent<T>) => void;
type AnyListener = (event: HubEvent) => void;

interface Registration {
  readonly owner: string;
  readonly type: string;
  readonly fn: AnyListener;
}

export type BusErrorSink = (owner: string, eventType: string, err: unknown) => void;

/** The one event type match-all (`*`) listeners never receive, as in Home Assistant (a comparison, not a lookup). */
const NOT_FOR_MATCH_ALL = 'state_reported';

/** The queue of events fired from inside listeners starts this small and doubles up to QUEUE_MAX. */
const QUEUE_INITIAL = 16;
/** Beyond this many waiting events (one listener firing a flood) an event is delivered at once instead. */
const QUEUE_MAX = 1 << 16;
/**
 * An event fired by a listener of an event fired by a listener ... this many times over is a feedback loop
 * between listeners: it is delivered at once (nested), as before the queue, so the loop ends where the stack
 * does instead of holding the event loop for ever.
 */
const MAX_CHAIN = 64;

/**
 * Typed events with listeners registered under an owner key and removed in bulk when the owner stops.
 * Dispatch is synchronous; a throwing listener is logged and the others still run. Listener arrays are
 * copy-on-write so that dispatch allocates nothing.
 *
 * Every listener sees events in the order they were fired: an event fired from inside a listener waits in a
 * FIFO until the event being delivered has reached every listener, and is delivered before the outermost
 * fire() returns. (Delivered at once, a listener registered after the one that fired would see the second
 * event before the first: the recorder kept a restored state's stale first report as the last row.)
 */
export class EventBus {
  private readonly byType = new Map<string, readonly Registration[]>();
  private matchAll: readonly Registration[] = [];
  /** True while an event is being delivered: fire() then queues. */
  private delivering = false;
  /** How many listener-fired generations deep the event being delivered is (0: fired from outside). */
  private depth = 0;
  /** A ring of waiting events and their depths; its length is a power of two. */
  private queue: (HubEvent | undefined)[] = new Array<HubEvent | undefined>(QUEUE_INITIAL).fill(undefined);
  private queueDepth = new Uint8Array(QUEUE_INITIAL);
  private head = 0;
  private count = 0;

  constructor(
    private readonly clock: Clock,
    private readonly onListenerError: BusErrorSink = () => {},
  ) {}

  on<T extends EventType>(owner: string, type: T | '*', fn: Listener<T>): () => void {
    const reg: Registration = { owner, type, fn: fn as unknown as AnyListener };
    if (type === '*') this.matchAll = [...this.matchAll, reg];
    else this.byType.set(type, [...(this.byType.get(type) ?? []), reg]);
    return () => this.removeRegistration(reg);
  }

  /** Removes every listener that `owner` registered. */
  removeOwner(owner: string): void {
    this.matchAll = this.matchAll.filter((r) => r.owner !== owner);
    for (const [type, regs] of this.byType) {
      const kept = regs.filter((r) => r.owner !== owner);
      if (kept.length === 0) this.byType.delete(type);
      else if (kept.length !== regs.length) this.byType.set(type, kept);
    }
  }

  /**
   * `timeUs` is a clock reading the caller already took for the same moment (a state's last_updated, as Home
   * Assistant's time_fired is). Fired from inside a listener, the event reaches listeners once the current one
   * has reached them all (still before the outermost fire() returns).
   */
  fire<T extends EventType>(
    type: T,
    data: EventData<T>,
    context: Context,
    origin: EventOrigin = 'LOCAL',
    timeUs: Micros = this.clock.now(),
  ): HubEvent<T> {
    const event = new HubEvent<T>(type, data, origin, timeUs, context);
    if (this.delivering) this.enqueue(event as unknown as HubEvent);
    else this.deliver(event as unknown as HubEvent);
    return event;
  }

  hasListeners(type: string): boolean {
    return this.byType.has(type) || this.matchAll.length > 0;
  }

  /** `[{event, listener_count}]` as `GET /api/events` reports it. */
  listenerCounts(): { event: string; listener_count: number }[] {
    const out: { event: string; listener_count: number }[] = [];
    if (this.matchAll.length > 0) out.push({ event: '*', listener_count: this.matchAll.length });
    for (const [type, regs] of this.byType) out.push({ event: type, listener_count: regs.length });
    return out;
  }

  /** Delivers an event fired from outside any listener, then every event its listeners fired, in order. */
  private deliver(event: HubEvent): void {
    this.delivering = true;
    try {
      // Left over only when a delivery threw past its listeners' own catch (the error sink threw).
      if (this.count > 0) this.drain();
      this.dispatch(event);
      if (this.count > 0) this.drain();
    } finally {
      this.delivering = false;
      this.depth = 0;
    }
  }

  private drain(): void {
    while (this.count > 0) {
      const i = this.head;
      const event = this.queue[i] as HubEvent;
      this.depth = this.queueDepth[i] as number;
      this.queue[i] = undefined;
      this.head = (i + 1) & (this.queue.length - 1);
      this.count--;
      this.dispatch(event);
    }
  }

  /** An event fired by a listener: after the current one, unless its chain is a feedback loop or the queue is full. */
  private enqueue(event: HubEvent): void {
    const depth = this.depth + 1;
    if (depth > MAX_CHAIN || (this.count === this.queue.length && !this.grow())) {
      const outer = this.depth;
      this.depth = depth;
      try {
        this.dispatch(event);
      } finally {
        this.depth = outer;
      }
      return;
    }
    const i = (this.head + this.count) & (this.queue.length - 1);
    this.queue[i] = event;
    this.queueDepth[i] = depth;
    this.count++;
  }

  /** Doubles the queue (up to QUEUE_MAX); false when it may not grow. */
  private grow(): boolean {
    const size = this.queue.length;
    if (size >= QUEUE_MAX) return false;
    const queue = new Array<HubEvent | undefined>(size * 2).fill(undefined);
    const depths = new Uint8Array(size * 2);
    for (let k = 0; k < this.count; k++) {
      const from = (this.head + k) & (size - 1);
      queue[k] = this.queue[from];
      depths[k] = this.queueDepth[from] as number;
    }
    this.queue = queue;
    this.queueDepth = depths;
    this.head = 0;
    return true;
  }

  private dispatch(event: HubEvent): void {
    const regs = this.byType.get(event.event_type);
    if (regs !== undefined) {
      for (let i = 0; i < regs.length; i++) this.call(regs[i] as Registration, event);
    }
    if (this.matchAll.length > 0 && event.event_type !== NOT_FOR_MATCH_ALL) {
      const all = this.matchAll;
      for (let i = 0; i < all.length; i++) this.call(all[i] as Registration, event);
    }
  }

  private call(reg: Registration, event: HubEvent): void {
    try {
      reg.fn(event);
    } catch (err) {
      this.onListenerError(reg.owner, event.event_type, err);
    }
  }

  private removeRegistration(reg: Registration): void {
    if (reg.type === '*') {
      this.matchAll = this.matchAll.filter((r) => r !== reg);
      return;
    }
    const regs = this.byType.get(reg.type);
    if (regs === undefined) return;
    const kept = regs.filter((r) => r !== reg);
    if (kept.length === 0) this.byType.delete(reg.type);
    else this.byType.set(reg.type, kept);
  }
}
