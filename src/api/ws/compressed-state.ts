import { epochSeconds } from '../../core/clock.js';
import { type Context, contextJson } from '../../core/context.js';
import type { HubEvent } from '../../core/event-bus.js';
import { jsonEqual } from '../../core/json.js';
import type { State } from '../../core/state.js';
import type { HeadSlab } from './head-slab.js';
import { eventHead, internHead } from './messages.js';
import type { Chunk } from './queue.js';

/**
 * Home Assistant's compressed state format for `subscribe_entities` (core.py `as_compressed_state`,
 * websocket_api/messages.py `_state_diff`): `s` state, `a` attributes, `c` context (the id alone when it has
 * no parent or user), `lc` last_changed and `lu` last_updated as float epoch seconds, `lu` left out when it
 * equals `lc`.
 */

/** Compressed JSON per state object; states are immutable and shared, so this is built once per state. */
const compressedCache = new WeakMap<State, string>();

export function compressedStateJson(state: State): string {
  let json = compressedCache.get(state);
  if (json === undefined) {
    json = compressedStateText(state);
    compressedCache.set(state, json);
  }
  return json;
}

/**
 * The same, not kept: for a state's one message to every subscriber (a diff replaced in full is built once per state
 * and shared, entity-message cache below). Kept, a flood's every state held its JSON for as long as the state lived,
 * which under a burst was long enough for both to be promoted, and the weak map's table grew with them.
 */
function compressedStateOnce(state: State): string {
  return compressedCache.get(state) ?? compressedStateText(state);
}

function compressedStateText(state: State): string {
  const ctx = state.context;
  const c = ctx.parent_id === null && ctx.user_id === null ? JSON.stringify(ctx.id) : contextJson(ctx);
  const lu = state.lastUpdatedUs === state.lastChangedUs ? '' : `,"lu":${epochSeconds(state.lastUpdatedUs)}`;
  return `{"s":${JSON.stringify(state.state)},"a":${state.attributesJson},"c":${c},"lc":${epochSeconds(state.lastChangedUs)}${lu}}`;
}

/** `{"+":{...},"-":{"a":[...]}}`: what changed from `old` to `next` of one entity. */
export function stateDiffJson(old: State, next: State): string {
  const plus: string[] = [];
  if (old.state !== next.state) plus.push(`"s":${JSON.stringify(next.state)}`);
  if (old.lastChangedUs !== next.lastChangedUs) plus.push(`"lc":${epochSeconds(next.lastChangedUs)}`);
  else if (old.lastUpdatedUs !== next.lastUpdatedUs) plus.push(`"lu":${epochSeconds(next.lastUpdatedUs)}`);
  const c = contextDiffJson(old.context, next.context);
  if (c !== undefined) plus.push(`"c":${c}`);
  let minus = '';
  if (old.attributes !== next.attributes) {
    const oldAttrs = old.attributes;
    const newAttrs = next.attributes;
    const added: string[] = [];
    for (const key of Object.keys(newAttrs)) {
      if (!Object.hasOwn(oldAttrs, key) || !jsonEqual(oldAttrs[key], newAttrs[key])) {
        added.push(`${JSON.stringify(key)}:${JSON.stringify(newAttrs[key])}`);
      }
    }
    if (added.length > 0) plus.push(`"a":{${added.join(',')}}`);
    const removed = Object.keys(oldAttrs).filter((key) => !Object.hasOwn(newAttrs, key));
    if (removed.length > 0) minus = `,"-":{"a":${JSON.stringify(removed)}}`;
  }
  return `{"+":{${plus.join(',')}}${minus}}`;
}

/** The id alone when only it changed; otherwise the changed members; undefined when nothing changed. */
function contextDiffJson(old: Context, next: Context): string | undefined {
  if (old === next) return undefined;
  const parts: string[] = [];
  if (old.parent_id !== next.parent_id) parts.push(`"parent_id":${JSON.stringify(next.parent_id)}`);
  if (old.user_id !== next.user_id) parts.push(`"user_id":${JSON.stringify(next.user_id)}`);
  const idChanged = old.id !== next.id;
  if (parts.length === 0) return idChanged ? JSON.stringify(next.id) : undefined;
  if (idChanged) parts.push(`"id":${JSON.stringify(next.id)}`);
  return `{${parts.join(',')}}`;
}

/** The event body for one entity appearing (`a`), changing (`c`) or going away (`r`). */
export function entityChangeJson(entityId: string, old: State | null, next: State | null): string {
  const key = JSON.stringify(entityId);
  if (next === null) return `{"r":[${key}]}`;
  if (old === null) return `{"a":{${key}:${compressedStateJson(next)}}}`;
  return `{"c":{${key}:${stateDiffJson(old, next)}}}`;
}

/** `{"a":{...}}` for a set of states: the first event of a subscription. */
export function snapshotJson(states: Iterable<State>): string {
  const parts: string[] = [];
  for (const s of states) parts.push(`${JSON.stringify(s.entity_id)}:${compressedStateJson(s)}`);
  return `{"a":{${parts.join(',')}}}`;
}

/**
 * The shared heads of entity event messages. A state change's diff message is built once and
 * shared by every `subscribe_entities` subscriber, as `EventMessageCache` does for plain events (in the slab too).
 */
export class EntityMessageCache {
  private event: HubEvent<'state_changed'> | undefined;
  private head: Chunk = '';
  private replacementState: State | null | undefined;
  private replacementId = '';
  private replacement: Chunk = '';

  constructor(private readonly heads?: HeadSlab) {}

  /** `{"type":"event","event":<diff>,"id":` for a state_changed event. */
  diffHeadFor(event: HubEvent<'state_changed'>): Chunk {
    if (event !== this.event) {
      this.event = event;
      const { entity_id, old_state, new_state } = event.data;
      this.head = internHead(this.heads, eventHead(entityChangeJson(entity_id, old_state, new_state)), this.head);
    }
    return this.head;
  }

  /**
   * The message head that replaces a client's still-waiting diff of an entity with that entity's latest
   * state in full (`a`) or its removal (`r`). A full replacement is right whatever diffs it stands for.
   */
  replacementHeadFor(entityId: string, state: State | null): Chunk {
    if (state !== this.replacementState || entityId !== this.replacementId) {
      this.replacementState = state;
      this.replacementId = entityId;
      const body =
        state === null ? entityChangeJson(entityId, null, null) : `{"a":{${JSON.stringify(entityId)}:${compressedStateOnce(state)}}}`;
      this.replacement = internHead(this.heads, eventHead(body), this.replacement);
    }
    return this.replacement;
  }
}
