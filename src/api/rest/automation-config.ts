import { HubError } from '../../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';
import type { ApiContext, EditorFiles } from '../../http/context.js';
import type { Request } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import type { RequestAuth } from './auth-check.js';
import { readJsonBody } from './json-body.js';
import { messageJson } from './messages.js';
import { pathParam } from './params.js';

/**
 * Home Assistant's config editor endpoints (components/config/automation.py, script.py, view.py), admins only:
 * `GET|POST|DELETE /api/config/automation/config/<id>` over automations.yaml (a list, items found by `id`) and
 * `/api/config/script/config/<id>` over scripts.yaml (a mapping by script id). POST checks the item with the
 * parsers the hub runs it with (400 `Message malformed: ...` naming the key), writes the file and reloads;
 * answers `{"result": "ok"}`; an unknown id is 404 `Resource not found`.
 */

type Section = 'automation' | 'script';

const OK = '{"result":"ok"}';
const NOT_FOUND = messageJson('Resource not found');
const INVALID_JSON = messageJson('Invalid JSON specified.');
const ID_PATTERN: Record<Section, RegExp> = { automation: /^[A-Za-z0-9_.-]{1,100}$/, script: /^[a-z0-9_]{1,100}$/ };
const ID_RULE: Record<Section, string> = {
  automation: 'an automation id has 1 to 100 letters, digits, _ . or -',
  script: 'a script id has 1 to 100 lower-case letters, digits or _',
};

function register(server: HttpServer, ctx: ApiContext, auth: RequestAuth, section: Section): void {
  const files = (): EditorFiles => {
    if (ctx.editorFiles === undefined) throw new HubError('not_found', 'This hub has no automation editor');
    return ctx.editorFiles;
  };
  const key = (req: Request): string => {
    const id = pathParam(req, 0, 'id');
    if (!ID_PATTERN[section].test(id)) throw new HubError('invalid_format', `${ID_RULE[section]}; got ${JSON.stringify(id.slice(0, 120))}`);
    return id;
  };
  const reload = (userId: string) => ctx.core.services.call(section, 'reload', {}, { userId });

  server.resource(`/api/config/${section}/config/:id`, {
    get: auth.guard(
      async (req, reply) => {
        const item = await files().get(section, key(req));
        if (item === undefined) return reply.json(404, NOT_FOUND);
        reply.json(200, JSON.stringify(item));
      },
      { admin: true },
    ),
    post: auth.guard(
      async (req, reply, principal) => {
        const id = key(req);
        const body = await readJsonBody(reply);
        if (body.kind !== 'json' || !isJsonObject(body.value as JsonValue)) return reply.json(400, INVALID_JSON);
        const item = body.value as JsonObject;
        const problem = files().check(section, id, item);
        if (problem !== undefined) return reply.json(400, messageJson(`Message malformed: ${problem}`));
        await files().save(section, id, item);
        await reload(principal.user.id);
        reply.json(200, OK);
      },
      { admin: true },
    ),
    del: auth.guard(
      async (req, reply, principal) => {
        if (!(await files().remove(section, key(req)))) return reply.json(404, NOT_FOUND);
        await reload(principal.user.id);
        reply.json(200, OK);
      },
      { admin: true },
    ),
  });
}

export function registerAutomationConfig(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  register(server, ctx, auth, 'automation');
  register(server, ctx, auth, 'script');
}
