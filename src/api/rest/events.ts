import { MAX_EVENT_TYPE_LENGTH } from '../../core/entity-id.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ApiContext } from '../../http/context.js';
import type { HttpServer } from '../../http/server.js';
import { HUB_EVENT_TYPES } from '../hub-events.js';
import type { RequestAuth } from './auth-check.js';
import { readJsonBody, TOO_DEEP_MESSAGE } from './json-body.js';
import { messageJson } from './messages.js';
import { pathParam } from './params.js';

const INVALID_JSON = messageJson('Event data should be valid JSON.');
// No final period: Home Assistant's wording.
const NOT_AN_OBJECT = messageJson('Event data should be a JSON object');
const TOO_DEEP = messageJson(TOO_DEEP_MESSAGE);
const TOO_LONG = messageJson(`Invalid event_type: an event type has at most ${MAX_EVENT_TYPE_LENGTH} characters.`);

const EMPTY: JsonObject = Object.freeze({});

/** GET `/api/events` (listener counts) and POST `/api/events/<event_type>`. */
export function registerEvents(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  const { bus } = ctx.core;

  server.resource('/api/events', {
    get: auth.guard((_req, reply) => reply.json(200, JSON.stringify(bus.listenerCounts()))),
  });

  server.resource('/api/events/:event_type', {
    post: auth.guard(
      async (req, reply, principal) => {
        const eventType = pathParam(req, 0, 'event_type');
        const body = await readJsonBody(reply);
        if (body.kind === 'invalid') return reply.json(400, INVALID_JSON);
        if (body.kind === 'too_deep') return reply.json(400, TOO_DEEP);
        // An empty body or `null` is an event without data, as in Home Assistant.
        const data = body.kind === 'json' && body.value !== null ? body.value : EMPTY;
        if (!isJsonObject(data)) return reply.json(400, NOT_AN_OBJECT);
        if (eventType.length > MAX_EVENT_TYPE_LENGTH) return reply.json(400, TOO_LONG);
        if (HUB_EVENT_TYPES.has(eventType)) {
          return reply.message(400, `Invalid event_type: ${eventType} is fired by the hub itself and cannot be fired over the API.`);
        }
        bus.fire(eventType, data, ctx.core.newContext(principal.user.id), 'REMOTE');
        reply.message(200, `Event ${eventType} fired.`);
      },
      { admin: true },
    ),
  });
}
