// The Companion apps' web view: GET /auth/external (a page that asks the app for its access token) and
// POST /auth/external/session (that token, as a bearer token, becomes the web view's session cookie).

import { SESSION_IDLE_MS } from '../../auth/sessions.js';
import type { HttpServer } from '../../http/server.js';
import { sessionCookie, type WebEnv } from '../context.js';
import { html } from '../html.js';
import { crossSiteProblem, safeNext, sendJson, sendPage, WEB_HEADERS } from '../http-util.js';
import { page } from '../pages/layout.js';

const ROUTE = { headers: [...WEB_HEADERS, 'authorization', 'x-requested-with'] };

export function registerExternalAuthRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/auth/external',
    {
      get: async (_req, reply) => {
        const assets = await env.assets.bundle();
        sendPage(
          reply,
          200,
          page({
            title: 'Signing in',
            hubName: env.ctx.config.hub.name,
            assets,
            bodyClass: 'narrow',
            scripts: ['external-auth.js'],
            body: html`<main class="card-page"><h1>Signing in</h1><p id="external-auth-status">Signing in with the app\u2026</p></main>`,
          }),
        );
      },
    },
    ROUTE,
  );
  server.resource(
    '/auth/external/session',
    {
      post: async (req, reply) => {
        // A header a plain form cannot send, and same-site only: a page elsewhere cannot make this request.
        if (req.header('x-requested-with') !== 'external-auth' || crossSiteProblem(req) !== undefined) {
          return sendJson(reply, 403, { message: 'Not from the app.' });
        }
        const token = /^Bearer (\S{1,4096})$/.exec(req.authorization)?.[1];
        const principal = token === undefined ? undefined : env.ctx.auth.authenticate(token);
        if (principal === undefined) {
          env.ctx.guard.recordFailure(reply.remoteAddress(), req.url);
          return sendJson(reply, 401, { message: 'Invalid access token.' });
        }
        const { secret } = await (await env.sessions()).create(principal.user.id, req.header('user-agent'));
        sendJson(reply, 200, { result: 'ok' }, [['Set-Cookie', sessionCookie(env, reply, secret, Math.floor(SESSION_IDLE_MS / 1000))]]);
      },
    },
    ROUTE,
  );
}

/** Where the dashboard sends an app's web view that has no session yet (`/?external_auth=1`). */
export function externalAuthPath(next: string): string {
  return `/auth/external?next=${encodeURIComponent(safeNext(next))}`;
}
