import { isoFromMicros, type Micros } from './clock.js';
import { type Context, contextJson } from './context.js';
import { type JsonObject, jsonEqual, sameJson } from './json.js';

export type Attributes = JsonObject;

/**
 * Attributes written as `{...fixed, ...reported}`: an entity's fixed attributes (the same object on every
 * write) and what one report set. Their JSON is the fixed part's, serialized once per fixed object, then
 * the reported part's, so a write serializes only what it reported. Neither object may change after the
 * write (domains render a fresh reported object for each report; fixed attributes are replaced, never edited).
 */
export interface ComposedAttributes {
  readonly fixed: Attributes;
  readonly reported: Attributes;
}

/**
 * Whether `{...fixed, ...reported}` serializes as fixed's keys followed by reported's: no key in both (the
 * reported value would take the fixed key's place) and no integer-like key in reported (those come first).
 */
export function composable(fixed: Attributes, reported: Attributes): boolean {
  for (const key in reported) {
    if (Object.hasOwn(fixed, key)) return false;
    const c = key.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39) return false;
  }
  return true;
}

/**
 * Per fixed object (so per entity): its JSON without the closing brace ('' for no keys), and the last two
 * reported parts with their JSON. A device goes back and forth between a few attribute sets (a light on at
 * its colour, then off), so a write often reports what the one before the last did: compared, not serialized.
 */
interface FixedJson {
  readonly head: string;
  recent: ReportedJson | undefined;
  older: ReportedJson | undefined;
}

interface ReportedJson {
  readonly reported: Attributes;
  /** The whole attributes' JSON: the fixed part's, then this reported part's. */
  readonly json: string;
  /** `reported`'s keys in order, taken once, so comparing a write with this entry allocates nothing. */
  readonly keys: readonly string[];
}

const fixedJson = new WeakMap<Attributes, FixedJson>();

function composedJson(c: ComposedAttributes): string {
  let cache = fixedJson.get(c.fixed);
  if (cache === undefined) {
    const json = JSON.stringify(c.fixed);
    cache = { head: json === '{}' ? '' : json.slice(0, -1), recent: undefined, older: undefined };
    fixedJson.set(c.fixed, cache);
  }
  const { recent, older } = cache;
  const reported = c.reported;
  if (recent !== undefined && (recent.reported === reported || sameReported(recent, reported))) return recent.json;
  let entry: ReportedJson;
  if (older !== undefined && (older.reported === reported || sameReported(older, reported))) entry = older;
  else {
    const json = JSON.stringify(reported);
    const whole = cache.head === '' ? json : json === '{}' ? `${cache.head}}` : `${cache.head},${json.slice(1)}`;
    entry = { reported, json: whole, keys: Object.keys(reported) };
  }
  cache.older = recent;
  cache.recent = entry;
  return entry.json;
}

/** sameJson of an entry's reported part and a new one, walking the new one's keys against the entry's. */
function sameReported(entry: ReportedJson, b: Attributes): boolean {
  const { keys, reported } = entry;
  let i = 0;
  for (const key in b) {
    if (key !== keys[i] || !sameJson(reported[key], b[key])) return false;
    i++;
  }
  return i === keys.length;
}

/**
 * Whether attributes about to be written equal a state's (as dicts, Home Assistant's ==). Both composed over
 * the same fixed object (an entity's, unchanged), they are equal exactly when their reported parts are, which
 * skips the fixed keys a light or a climate has a dozen of.
 */
export function sameAttributes(old: State, attributes: Attributes, composedOf: ComposedAttributes | undefined): boolean {
  if (old.attributes === attributes) return true;
  const c = old.composition;
  if (c !== undefined && composedOf !== undefined && c.fixed === composedOf.fixed) {
    return c.reported === composedOf.reported || jsonEqual(c.reported, composedOf.reported);
  }
  return jsonEqual(old.attributes, attributes);
}

/**
 * One immutable snapshot of an entity. Its JSON is built at most once and then shared by every REST
 * response, WebSocket message and event that carries it.
 */
export class State {
  private cachedJson: string | undefined;
  /**
   * How the attributes were composed, kept after their JSON is built: two writes over the same fixed object
   * compare by their reported parts only (sameAttributes).
   */
  readonly composition: ComposedAttributes | undefined;

  constructor(
    readonly entity_id: string,
    readonly state: string,
    readonly attributes: Attributes,
    readonly lastChangedUs: Micros,
    readonly lastUpdatedUs: Micros,
    readonly context: Context,
    /** The attributes' JSON when already known, or how they were composed (see ComposedAttributes). */
    private attributesJsonText?: string | ComposedAttributes,
    /** The composition when `attributesJsonText` is already the JSON (a state that keeps its predecessor's attributes). */
    composition?: ComposedAttributes,
  ) {
    this.composition = typeof attributesJsonText === 'object' ? attributesJsonText : composition;
  }

  get last_changed(): string {
    return isoFromMicros(this.lastChangedUs);
  }

  get last_updated(): string {
    return this.lastUpdatedUs === this.lastChangedUs ? this.last_changed : isoFromMicros(this.lastUpdatedUs);
  }

  /** The attributes' JSON; reused by the next state when only the state string changes. */
  get attributesJson(): string {
    const known = this.attributesJsonText;
    if (typeof known === 'string') return known;
    const json = known === undefined ? JSON.stringify(this.attributes) : composedJson(known);
    this.attributesJsonText = json;
    return json;
  }

  /** The state object as Home Assistant serializes it (same key order), cached. */
  get json(): string {
    if (this.cachedJson === undefined) {
      const lc = this.last_changed;
      const lu = this.lastUpdatedUs === this.lastChangedUs ? lc : isoFromMicros(this.lastUpdatedUs);
      // The state table admits only valid entity ids (lower-case letters, digits, `_`, one dot): no escaping.
      this.cachedJson = `{"entity_id":"${this.entity_id}","state":${JSON.stringify(this.state)},"attributes":${this.attributesJson},"last_changed":"${lc}","last_updated":"${lu}","context":${contextJson(this.context)}}`;
    }
    return this.cachedJson;
  }

  /** Plain form for code that embeds a state in a larger JSON.stringify (not the hot path). */
  toJSON(): JsonObject {
    return JSON.parse(this.json) as JsonObject;
  }
}
