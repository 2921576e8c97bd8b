import { isoFromMicros, type Micros } from './clock.js';
import { type Context, contextJson } from './context.js';
import type { JsonObject } from './json.js';

export type Attributes = JsonObject;

/**
 * One immutable snapshot of an entity. Its JSON is built at most once and then shared by every REST
 * response, WebSocket message and event that carries it.
 */
export class State {
  private cachedJson: string | undefined;

  constructor(
    readonly entity_id: string,
    readonly state: string,
    readonly attributes: Attributes,
    readonly lastChangedUs: Micros,
    readonly lastUpdatedUs: Micros,
    readonly context: Context,
    private attributesJsonText?: string,
  ) {}

  get last_changed(): string {
    return isoFromMicros(this.lastChangedUs);
  }

  get last_updated(): string {
    return this.lastUpdatedUs === this.lastChangedUs ? this.last_changed : isoFromMicros(this.lastUpdatedUs);
  }

  /** The attributes' JSON; reused by the next state when only the state string changes. */
  get attributesJson(): string {
    if (this.attributesJsonText === undefined) this.attributesJsonText = JSON.stringify(this.attributes);
    return this.attributesJsonText;
  }

  /** The state object as Home Assistant serializes it (same key order), cached. */
  get json(): string {
    if (this.cachedJson === undefined) {
      const lc = this.last_changed;
      const lu = this.lastUpdatedUs === this.lastChangedUs ? lc : isoFromMicros(this.lastUpdatedUs);
      this.cachedJson = `{"entity_id":${JSON.stringify(this.entity_id)},"state":${JSON.stringify(this.state)},"attributes":${this.attributesJson},"last_changed":"${lc}","last_updated":"${lu}","context":${contextJson(this.context)}}`;
    }
    return this.cachedJson;
  }

  /** Plain form for code that embeds a state in a larger JSON.stringify (not the hot path). */
  toJSON(): JsonObject {
    return JSON.parse(this.json) as JsonObject;
  }
}
