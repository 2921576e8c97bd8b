import type { Principal } from '../../auth/types.js';
import { isValidEntityId, MAX_STATE_LENGTH } from '../../core/entity-id.js';
import { HubError } from '../../core/errors.js';
import { isJsonObject, type JsonObject } from '../../core/json.js';
import type { ApiContext } from '../../http/context.js';
import { JSON_TYPE, type Reply, type Request } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import type { RequestAuth } from './auth-check.js';
import { readJsonBody, TOO_DEEP_MESSAGE } from './json-body.js';
import { messageJson } from './messages.js';
import { pathParam } from './params.js';

const ENTITY_NOT_FOUND = messageJson('Entity not found.');
const ENTITY_REMOVED = messageJson('Entity removed.');
// Home Assistant's wording for each way a state write can be wrong (components/api/__init__.py).
const INVALID_JSON = messageJson('Invalid JSON specified.');
const NOT_AN_OBJECT = messageJson('State data should be a JSON object.');
const NO_STATE = messageJson('No state specified.');
const INVALID_ENTITY_ID = messageJson('Invalid entity ID specified.');
const INVALID_STATE = messageJson('Invalid state specified.');
const TOO_DEEP = messageJson(TOO_DEEP_MESSAGE);
const STATE_TYPE = messageJson('Invalid state specified: state should be a string, a number or a boolean.');
const ATTRIBUTES_TYPE = messageJson('Invalid attributes specified: attributes should be a JSON object.');
const FORCE_UPDATE_TYPE = messageJson('Invalid force_update specified: force_update should be true or false.');

const EMPTY_ATTRIBUTES: JsonObject = Object.freeze({});

/** GET, POST and DELETE `/api/states[/<entity_id>]`. */
export function registerStates(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  const { states } = ctx.core;

  // The whole table as bytes, re-encoded only after a change rather than on every request.
  let allBytes: Buffer | undefined;
  let allVersion = -1;
  server.resource('/api/states', {
    get: auth.guard((_req, reply) => {
      const version = states.changeCount;
      if (allBytes === undefined || version !== allVersion) {
        allBytes = Buffer.from(states.statesJson());
        allVersion = version;
      }
      reply.send(200, allBytes, JSON_TYPE);
    }),
  });

  server.resource('/api/states/:entity_id', {
    get: auth.guard((req, reply) => {
      const id = pathParam(req, 0, 'entity_id');
      // Home Assistant looks the id up as given, then lower-cased; it does not validate it (a bad id is a 404).
      const state = states.get(id) ?? states.get(id.toLowerCase());
      if (state === undefined) reply.json(404, ENTITY_NOT_FOUND);
      else reply.json(200, state.json);
    }),
    post: auth.guard((req, reply, principal) => postState(ctx, req, reply, principal), { admin: true }),
    del: auth.guard(
      (req, reply, principal) => {
        const id = pathParam(req, 0, 'entity_id').toLowerCase();
        const removed = states.remove(id, ctx.core.newContext(principal.user.id));
        reply.json(removed ? 200 : 404, removed ? ENTITY_REMOVED : ENTITY_NOT_FOUND);
      },
      { admin: true },
    ),
  });
}

async function postState(ctx: ApiContext, req: Request, reply: Reply, principal: Principal): Promise<void> {
  const urlId = pathParam(req, 0, 'entity_id');
  const body = await readJsonBody(reply);
  if (body.kind === 'too_deep') return reply.json(400, TOO_DEEP);
  if (body.kind !== 'json') return reply.json(400, INVALID_JSON);
  const data = body.value;
  if (!isJsonObject(data)) return reply.json(400, NOT_AN_OBJECT);

  const rawState = data.state;
  if (rawState === undefined || rawState === null) return reply.json(400, NO_STATE);
  const state = stateText(rawState);
  if (state === undefined) return reply.json(400, STATE_TYPE);

  const entityId = urlId.toLowerCase();
  const { states } = ctx.core;
  // As in Home Assistant, the id is validated only when the entity is new.
  if (!states.has(entityId) && !isValidEntityId(entityId)) return reply.json(400, INVALID_ENTITY_ID);
  if (state.length > MAX_STATE_LENGTH) return reply.json(400, INVALID_STATE);

  const attributes = data.attributes ?? EMPTY_ATTRIBUTES;
  if (!isJsonObject(attributes)) return reply.json(400, ATTRIBUTES_TYPE);
  const forceUpdate = data.force_update ?? false;
  if (typeof forceUpdate !== 'boolean') return reply.json(400, FORCE_UPDATE_TYPE);

  let result: ReturnType<typeof states.set>;
  try {
    result = states.set(entityId, state, attributes, { context: ctx.core.newContext(principal.user.id), forceUpdate });
  } catch (err) {
    if (err instanceof HubError && err.kind === 'invalid_entity_id') return reply.json(400, INVALID_ENTITY_ID);
    if (err instanceof HubError && err.kind === 'invalid_state') return reply.json(400, INVALID_STATE);
    throw err;
  }
  // Home Assistant echoes the id as written in the URL; encoding keeps any odd character out of the header.
  reply.json(result.created ? 201 : 200, result.state.json, [['Location', `/api/states/${encodeURIComponent(urlId)}`]]);
}

/** The state as a string, the way Home Assistant's str() turns JSON scalars into one; undefined for lists and objects. */
function stateText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return undefined;
}
