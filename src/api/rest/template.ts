import { isJsonObject } from '../../core/json.js';
import type { ApiContext } from '../../http/context.js';
import type { HttpServer } from '../../http/server.js';
import type { TemplateEngine } from '../../template/index.js';
import { templateEngineOf } from '../templates.js';
import type { RequestAuth } from './auth-check.js';
import { readJsonBody, TOO_DEEP_MESSAGE } from './json-body.js';
import { messageJson } from './messages.js';

const NOT_AN_OBJECT = messageJson('Template data should be a JSON object');
const INVALID_JSON = messageJson('Error rendering template: the body is not valid JSON.');
const NO_TEMPLATE = messageJson('Error rendering template: the body needs "template", a string.');
const BAD_VARIABLES = messageJson('Error rendering template: "variables" must be a JSON object.');
const TOO_DEEP = messageJson(TOO_DEEP_MESSAGE);

/** POST /api/template's renders count against one source of the hub's budget (each request is another template: no suspension). */
const restEngines = new WeakMap<TemplateEngine, TemplateEngine>();

function restEngine(hub: TemplateEngine): TemplateEngine {
  let engine = restEngines.get(hub);
  if (engine === undefined) {
    engine = hub.forSource({ name: 'POST /api/template', suspends: false });
    restEngines.set(hub, engine);
  }
  return engine;
}

/**
 * POST `/api/template` (admins only, as in Home Assistant): `{"template": "...", "variables": {...}}` is
 * rendered and answered as text/plain; a template that fails gets 400 `{"message": "Error rendering
 * template: <kind>: <what> (template ..., line, column)"}`.
 */
export function registerTemplate(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  server.resource('/api/template', {
    post: auth.guard(
      async (_req, reply) => {
        const body = await readJsonBody(reply);
        if (body.kind === 'invalid' || body.kind === 'empty') return reply.json(400, INVALID_JSON);
        if (body.kind === 'too_deep') return reply.json(400, TOO_DEEP);
        const data = body.value;
        if (!isJsonObject(data)) return reply.json(400, NOT_AN_OBJECT);
        if (typeof data.template !== 'string') return reply.json(400, NO_TEMPLATE);
        const variables = data.variables ?? {};
        if (!isJsonObject(variables)) return reply.json(400, BAD_VARIABLES);
        const engine = restEngine(templateEngineOf(ctx));
        // Waits for room in the template budget, as every render that can wait does.
        await engine.ready();
        const outcome = engine.tryRender(data.template, { name: 'POST /api/template', variables });
        if (!outcome.ok) return reply.json(400, messageJson(`Error rendering template: ${outcome.error.message}`));
        reply.text(200, outcome.text);
      },
      { admin: true },
    ),
  });
}
