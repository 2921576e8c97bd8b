import type { ApiContext } from '../../http/context.js';
import type { HttpServer } from '../../http/server.js';
import { configObject } from '../config-object.js';
import type { RequestAuth } from './auth-check.js';
import { messageJson } from './messages.js';

const API_RUNNING = messageJson('API running.');

/** GET `/api/`, `/api/config`, `/api/core/state` and `/api/components`. */
export function registerConfig(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  // The trailing slash is part of the path, as in Home Assistant.
  server.resource('/api/', {
    get: auth.guard((_req, reply) => reply.json(200, API_RUNNING)),
  });

  server.resource('/api/config', {
    get: auth.guard((_req, reply) => reply.json(200, JSON.stringify(configObject(ctx.config, ctx.core.runState, ctx.components())))),
  });

  server.resource('/api/core/state', {
    get: auth.guard((_req, reply) =>
      reply.json(
        200,
        JSON.stringify({
          state: ctx.core.runState,
          // There is no recorder database to migrate; the keys are kept for clients that read them.
          recorder_state: { migration_in_progress: false, migration_is_live: false },
        }),
      ),
    ),
  });

  server.resource('/api/components', {
    get: auth.guard((_req, reply) => reply.json(200, JSON.stringify(ctx.components()))),
  });
}
