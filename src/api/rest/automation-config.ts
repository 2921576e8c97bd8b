import { parseAutomations, parseScripts } from '../../automation/parse-sections.js';
import { readUiFile, type UiSection, uiConfigDir, writeUiFile } from '../../automation/ui-files.js';
import type { ConfigIssue } from '../../config/reader.js';
import { HubError } from '../../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../core/json.js';
import { setOwn } from '../../core/own-keys.js';
import type { ApiContext } from '../../http/context.js';
import type { Reply } from '../../http/http.js';
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

const OK = '{"result":"ok"}';
const NOT_FOUND = messageJson('Resource not found');
const ID_PATTERN = /^[A-Za-z0-9_.-]{1,100}$/;
const SCRIPT_ID = /^[a-z0-9_]{1,100}$/;

/** One write at a time per file: two saves in a row must both land. */
const queues = new Map<string, Promise<unknown>>();
function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).catch(() => {}).then(fn);
  queues.set(key, next);
  return next;
}

function problems(section: UiSection, id: string, item: JsonObject): string | undefined {
  const issues: ConfigIssue[] = [];
  if (section === 'automation') parseAutomations([{ ...item, id }], [], issues);
  else {
    const scripts: JsonObject = {};
    setOwn(scripts, id, item);
    parseScripts(scripts, [], issues);
  }
  if (issues.length === 0) return undefined;
  return issues
    .map(
      (i) =>
        `${i.message}${
          i.path.length > 1
            ? ` @ data${i.path
                .slice(1)
                .map((p) => `[${JSON.stringify(p)}]`)
                .join('')}`
            : ''
        }`,
    )
    .join('; ');
}

function register(server: HttpServer, ctx: ApiContext, auth: RequestAuth, section: UiSection): void {
  const dir = () => uiConfigDir(ctx.config, ctx.auth.dataDir);
  const key = (req: Parameters<typeof pathParam>[0]): string => {
    const id = pathParam(req, 0, 'id');
    if (!(section === 'script' ? SCRIPT_ID : ID_PATTERN).test(id)) {
      throw new HubError(
        'invalid_format',
        `${section === 'script' ? 'script id must be lower-case letters, digits and _' : 'id must be letters, digits, _ . -'} (1 to 100)`,
      );
    }
    return id;
  };
  const reload = async (userId: string) => {
    await ctx.core.services.call(section, 'reload', {}, { userId });
  };
  const find = (file: JsonValue, id: string): JsonObject | undefined => {
    if (Array.isArray(file)) return file.find((a): a is JsonObject => isJsonObject(a) && a.id === id);
    return isJsonObject(file) && Object.hasOwn(file, id) && isJsonObject(file[id] as JsonValue) ? (file[id] as JsonObject) : undefined;
  };
  const answer = (reply: Reply, status: number, body: string) => reply.json(status, body);

  server.resource(`/api/config/${section}/config/:id`, {
    get: auth.guard(
      async (req, reply) => {
        const id = key(req);
        const item = find(await readUiFile(dir(), section), id);
        if (item === undefined) return answer(reply, 404, NOT_FOUND);
        answer(reply, 200, JSON.stringify(item));
      },
      { admin: true },
    ),
    post: auth.guard(
      async (req, reply, principal) => {
        const id = key(req);
        const body = await readJsonBody(reply);
        if (body.kind !== 'json' || !isJsonObject(body.value as JsonValue))
          return answer(reply, 400, messageJson('Invalid JSON specified.'));
        const value = body.value as JsonObject;
        const problem = problems(section, id, value);
        if (problem !== undefined) return answer(reply, 400, messageJson(`Message malformed: ${problem}`));
        await serialized(section, async () => {
          const file = await readUiFile(dir(), section);
          if (Array.isArray(file)) {
            const { id: _drop, ...rest } = value;
            const item: JsonObject = { id, ...rest };
            const at = file.findIndex((a) => isJsonObject(a) && a.id === id);
            if (at === -1) file.push(item);
            else file[at] = item;
          } else if (isJsonObject(file)) setOwn(file as JsonObject & Record<string, JsonValue>, id, value);
          await writeUiFile(dir(), section, file);
        });
        await reload(principal.user.id);
        answer(reply, 200, OK);
      },
      { admin: true },
    ),
    del: auth.guard(
      async (req, reply, principal) => {
        const id = key(req);
        const found = await serialized(section, async () => {
          const file = await readUiFile(dir(), section);
          if (find(file, id) === undefined) return false;
          if (Array.isArray(file))
            await writeUiFile(
              dir(),
              section,
              file.filter((a) => !(isJsonObject(a) && a.id === id)),
            );
          else {
            const rest: JsonObject = {};
            for (const [k, v] of Object.entries(file as JsonObject)) if (k !== id) setOwn(rest, k, v);
            await writeUiFile(dir(), section, rest);
          }
          return true;
        });
        if (!found) return answer(reply, 404, NOT_FOUND);
        await reload(principal.user.id);
        answer(reply, 200, OK);
      },
      { admin: true },
    ),
  });
}

export function registerAutomationConfig(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  register(server, ctx, auth, 'automation');
  register(server, ctx, auth, 'script');
}
