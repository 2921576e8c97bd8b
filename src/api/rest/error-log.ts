import type { ApiContext } from '../../http/context.js';
import type { HttpServer } from '../../http/server.js';
import type { RequestAuth } from './auth-check.js';

/** GET `/api/error_log`: the recent warnings and errors as plain text (admins only, as in Home Assistant). */
export function registerErrorLog(server: HttpServer, ctx: ApiContext, auth: RequestAuth): void {
  server.resource('/api/error_log', {
    get: auth.guard((_req, reply) => reply.text(200, ctx.errorLog.text()), { admin: true }),
  });
}
