import { HubError } from '../../core/errors.js';
import type { JsonValue } from '../../core/json.js';
import type { CallResult, ServiceDefinition } from '../../core/services.js';
import type { State } from '../../core/state.js';
import type { ApiContext } from '../../http/context.js';
import type { Reply } from '../../http/http.js';
import { hasQueryKey } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import type { RequestAuth } from './auth-check.js';
import { type JsonBody, parseJsonBody, TOO_DEEP_MESSAGE } from './json-body.js';
import { messageJson } from './messages.js';
import { pathParam } from './params.js';

const INVALID_JSON = messageJson('Data should be valid JSON.');
const TOO_DEEP = messageJson(TOO_DEEP_MESSAGE);
// Home Assistant's REST wording for a return_response that does not fit the service (api/__init__.py).
const NO_RESPONSE_SUPPORT = messageJson('Service does not support responses. Remove return_response from request.');
const RESPONSE_REQUIRED = messageJson(
  'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.',
);

/** GET `/api/services` (the catalogue, keyed by domain) and POST `/api/services/<domain>/<service>`. */
export function registerServices(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  const { services } = ctx.core;

  server.resource('/api/services', {
    get: auth.guard((_req, reply) => reply.json(200, services.catalogueJson())),
  });

  server.resource(
    '/api/services/:domain/:service',
    {
      // Synchronous to the end for a service that acts at once (most do): the body is read without a promise
      // and the answer written from uWS's data callback.
      post: auth.guard((req, reply, principal) => {
        const domain = pathParam(req, 0, 'domain');
        const service = pathParam(req, 1, 'service');
        const wantsResponse = returnResponseAsked(req.query);
        const userId = principal.user.id;
        reply.readBody(
          (bytes) => {
            try {
              callService(reply, domain, service, wantsResponse, userId, bytes);
            } catch (err) {
              reply.error(err);
            }
          },
          (err) => reply.error(err),
        );
      }),
    },
    // Everything the call needs is read before the body comes in.
    { readsLater: false },
  );

  function callService(reply: Reply, domain: string, service: string, wantsResponse: boolean, userId: string, bytes: Uint8Array): void {
    // REST has no `target` wrapper: the body is the service data, target keys at its top level.
    const body = parseJsonBody(bytes);
    const def = admitted(body, services.get(domain, service), wantsResponse, domain, service);
    if (typeof def === 'string') {
      reply.json(400, def);
      return;
    }
    const outcome = services.callDefinition(def, body.kind === 'json' ? (body.value as JsonValue) : undefined, {
      userId,
      returnResponse: wantsResponse,
      collectChanges: true,
    });
    if (outcome instanceof Promise) {
      outcome.then(
        (result) => answer(reply, wantsResponse, result),
        (err: unknown) => reply.error(err),
      );
    } else answer(reply, wantsResponse, outcome);
  }
}

/**
 * The service to call, or the 400 body for a call refused before it runs: a body that is not JSON, an unknown
 * service, a response asked wrongly.
 */
function admitted(
  body: JsonBody,
  def: ServiceDefinition | undefined,
  wantsResponse: boolean,
  domain: string,
  service: string,
): ServiceDefinition | string {
  if (body.kind === 'invalid') return INVALID_JSON;
  if (body.kind === 'too_deep') return TOO_DEEP;
  if (def === undefined) return messageJson(`Service ${domain}.${service} not found.`);
  const support = def.response ?? 'none';
  if (wantsResponse && support === 'none') return NO_RESPONSE_SUPPORT;
  if (!wantsResponse && support === 'only') return RESPONSE_REQUIRED;
  return def;
}

function answer(reply: Reply, wantsResponse: boolean, result: CallResult): void {
  const changed = statesArrayJson(result.changed);
  if (!wantsResponse) {
    reply.json(200, changed);
    return;
  }
  reply.json(200, `{"changed_states":${changed},"service_response":${JSON.stringify(result.response)}}`);
}

/** Whether `?return_response` is present (any value, as in Home Assistant); a malformed query is a 400 naming it. */
function returnResponseAsked(query: string): boolean {
  try {
    return hasQueryKey(query, 'return_response');
  } catch {
    throw new HubError('invalid_format', `Malformed percent-encoding in the query string: ${JSON.stringify(query.slice(0, 80))}`);
  }
}

/** A JSON array built from the states' cached JSON. */
function statesArrayJson(states: readonly State[]): string {
  if (states.length === 0) return '[]';
  let out = '[';
  for (let i = 0; i < states.length; i++) out += i === 0 ? (states[i] as State).json : `,${(states[i] as State).json}`;
  return `${out}]`;
}
