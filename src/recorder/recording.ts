// Recording: state changes and events taken from the bus into the hot tier, under the memory budget.

import { entityFilter } from '../config/entity-filter.js';
import type { Context } from '../core/context.js';
import type { HubEvent } from '../core/event-bus.js';
import { type JsonObject, sameJson } from '../core/json.js';
import { EVENTS, newHot, type RecorderState } from './recorder-state.js';
import { seal } from './sealing.js';

/**
 * The hot tier is sealed early (compressed into chunks, a few times smaller, and written) when its encoded
 * points grow past this, or all it holds past the budget's seal mark (large attributes): a flood of changes
 * must not grow the hub's memory by the whole hour.
 */
const SEAL_BYTES = 1024 * 1024;

/** Events the hub fires that carry nothing the logbook or a user reads back. */
const NOT_RECORDED: readonly string[] = ['state_changed', 'state_reported', 'service_registered', 'service_removed'];

/** Logbook-visible entities keep their context; continuous ones (a unit or a state class) do not. */
function isContinuous(attributes: Readonly<Record<string, unknown>>): boolean {
  return attributes.unit_of_measurement !== undefined || attributes.state_class !== undefined;
}

/** Takes the bus's state changes and events into the hot tier; seals early when it grows past its mark. */
export class ChangeRecorder {
  private readonly keep: (entityId: string) => boolean;
  /** The last call_service event's data and its text (eventDataJson). */
  private lastCallService: { readonly data: JsonObject; readonly json: string } | undefined;
  private readonly decided = new Map<string, boolean>();
  /** Event types not recorded: state changes (their own series) and bookkeeping, and those the configuration excludes. */
  private readonly notRecorded: ReadonlySet<string>;

  constructor(private readonly s: RecorderState) {
    const { config } = s.options;
    this.keep = entityFilter(config.include, config.exclude);
    this.notRecorded = new Set([...NOT_RECORDED, ...config.exclude.eventTypes]);
  }

  /** Whether the recorder keeps this entity's changes. */
  records(entityId: string): boolean {
    let keep = this.decided.get(entityId);
    if (keep === undefined) {
      keep = this.keep(entityId);
      // Bounded by the state table's capacity; ids of removed entities are few.
      if (this.decided.size < 65_536) this.decided.set(entityId, keep);
    }
    return keep;
  }

  onStateChanged(event: HubEvent<'state_changed'>): void {
    const next = event.data.new_state;
    if (next === null || !this.records(next.entity_id)) return;
    const context = isContinuous(next.attributes) ? null : next.context;
    this.add(
      next.entity_id,
      next.state,
      next.attributesJson,
      Math.floor(next.lastChangedUs / 1000),
      Math.floor(next.lastUpdatedUs / 1000),
      context,
    );
  }

  onEvent(event: HubEvent): void {
    const type = event.event_type;
    // A state change comes to both listeners: the common case first, without a lookup.
    if (type === 'state_changed' || this.notRecorded.has(type)) return;
    const ms = Math.floor(event.timeFiredUs / 1000);
    this.add(EVENTS, type, this.eventDataJson(event), ms, ms, event.context);
  }

  /**
   * An event's data as text. call_service comes with every call, and mostly the same few calls again (a
   * dashboard's toggles): the last one's text is reused when its data reads the same, which costs a walk
   * instead of a stringify, and the series' dictionary then finds the very same string.
   */
  private eventDataJson(event: HubEvent): string {
    if (event.event_type !== 'call_service') return JSON.stringify(event.data);
    const last = this.lastCallService;
    if (last !== undefined && sameJson(last.data, event.data)) return last.json;
    const json = JSON.stringify(event.data);
    this.lastCallService = { data: event.data, json };
    return json;
  }

  private add(id: string, state: string, attributesJson: string, lcMs: number, luMs: number, context: Context | null): void {
    const s = this.s;
    let attrs: string | undefined = attributesJson;
    if (s.budget.needsDecision(attrs.length, s.hotBytes + s.pendingBytes + s.cache.bytes)) {
      attrs = this.admit(id, attrs);
      if (attrs === undefined) {
        s.stats.droppedPoints++;
        return;
      }
    }
    if (s.hotHour < 0) s.hotHour = s.hourOf(luMs);
    let series = s.hot.get(id);
    if (series === undefined) {
      series = newHot();
      s.hot.set(id, series);
    }
    const writer = series.writer;
    const before = writer.memoryBytes;
    const beforeBody = writer.body.length;
    writer.append(state, attrs, lcMs, luMs, context);
    s.hotBytes += writer.memoryBytes - before;
    s.hotBody += writer.body.length - beforeBody;
    if (this.overSealMark() && !s.sealQueued && s.running) this.sealEarly();
  }

  /** The attributes a change keeps under the memory budget; undefined: it is not recorded. The read cache goes first. */
  private admit(id: string, attributesJson: string): string | undefined {
    const s = this.s;
    if (s.hotBytes + s.pendingBytes + s.cache.bytes + attributesJson.length > s.budget.limit) s.cache.clear();
    const known = s.hot.get(id)?.writer.attrs.has(attributesJson) ?? false;
    return s.budget.admit(id, attributesJson, s.hotBytes + s.pendingBytes, known, s.guard.failing);
  }

  /**
   * Whether the hot tier is to be sealed now: its encoded points past SEAL_BYTES, or all it holds (large
   * attributes, many entities' first points) past the budget's seal mark, which leaves the rest of the budget
   * for what comes while the seal is written.
   */
  private overSealMark(): boolean {
    return this.s.hotBody > SEAL_BYTES || this.s.hotBytes > this.s.budget.sealMark;
  }

  private sealEarly(): void {
    const s = this.s;
    s.sealQueued = true;
    void seal(s, true).finally(() => {
      s.sealQueued = false;
      // What came while the seal was written may be past the mark already.
      if (this.overSealMark() && s.running) this.sealEarly();
    });
  }
}
