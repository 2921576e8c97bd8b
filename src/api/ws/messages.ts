import type { WsErrorCode } from '../../core/errors.js';
import type { HubEvent } from '../../core/event-bus.js';
import { HA_VERSION, HUB_VERSION } from '../../version.js';
import type { EventLog } from './event-log.js';
import type { HeadSlab } from './head-slab.js';
import type { Chunk } from './queue.js';

/**
 * The JSON of every message the server sends, built as strings: the payloads inside (states, events,
 * the service catalogue) are already cached JSON, so wrapping them never parses or re-serialises them.
 */

export const AUTH_REQUIRED = JSON.stringify({ type: 'auth_required', hub_version: HUB_VERSION, ha_version: HA_VERSION });
/** The official JS client reads `ha_version` from auth_ok (and hangs without it), so it is always sent. */
export const AUTH_OK = JSON.stringify({ type: 'auth_ok', ha_version: HA_VERSION });

export function authInvalid(message: string): string {
  return JSON.stringify({ type: 'auth_invalid', message });
}

/** A success result around an already-serialised value. */
export function resultMessage(id: number, resultJson: string): string {
  return `{"id":${id},"type":"result","success":true,"result":${resultJson}}`;
}

/** A success result with no `result` key: the interface's reply to `subscribe_events`. */
export function bareResultMessage(id: number): string {
  return `{"id":${id},"type":"result","success":true}`;
}

/** The id echoed in an error: the client's own when it is a plain value, else null. */
export type EchoedId = number | string | boolean | null;

export function errorMessage(id: EchoedId, code: WsErrorCode, message: string): string {
  return JSON.stringify({ id, type: 'result', success: false, error: { code, message } });
}

export function pongMessage(id: number): string {
  return `{"id":${id},"type":"pong"}`;
}

/**
 * Event messages are built once per event and shared by every subscriber: the text up to `"id":` is kept
 * for the last event seen (the bus dispatches one event to all listeners before the next), and each
 * subscriber's queue holds that shared head plus its own `<id>}` tail. No subscriber serialises anything.
 * With a HeadSlab the head is encoded at once into the slab shared by every queue (head-slab.ts says why), and
 * the cache holds its bytes there until the next event. With an EventLog the head is its newest entry, so each
 * subscriber's queue holds it as part of a run (queue.ts).
 */
export class EventMessageCache {
  private event: HubEvent | undefined;
  private head: Chunk = '';

  constructor(
    private readonly heads?: HeadSlab,
    private readonly log?: EventLog,
  ) {}

  headFor(event: HubEvent): Chunk {
    if (event !== this.event) {
      this.event = event;
      this.head = internHead(this.heads, eventHead(event.json), this.head);
      this.log?.append(this.head);
    }
    return this.head;
  }
}

/** `head` into the slab (when there is one), letting go of the cache's previous head there. */
export function internHead(heads: HeadSlab | undefined, head: string, previous: Chunk): Chunk {
  if (heads === undefined) return head;
  const chunk = heads.intern(head);
  heads.release(previous);
  return chunk;
}

/** What a subscriber appends to a shared event head: `<id>}`, encoded once per subscription. */
export function idTail(id: number): Buffer {
  return Buffer.from(`${id}}`);
}

/** `{"type":"event","event":<json>,"id":`, for any event body (entity diffs use it too). */
export function eventHead(eventJson: string): string {
  return `{"type":"event","event":${eventJson},"id":`;
}
