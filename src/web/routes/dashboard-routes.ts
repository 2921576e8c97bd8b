import { hasQueryKey } from '../../http/query.js';
import type { HttpServer } from '../../http/server.js';
import { loggedIn, sameText, type WebEnv, zigbeeConfigured } from '../context.js';
import { crossSiteProblem, redirect, sendJson, sendPage, WEB_HEADERS } from '../http-util.js';
import { dashboardPage } from '../pages/dashboard-page.js';
import { externalAuthPath } from './external-auth-routes.js';

const ROUTE = { headers: WEB_HEADERS };

/**
 * GET / (the dashboard, or where a visitor must go first) and POST /web/token, which gives the
 * logged-in page a 30-minute access token for the WebSocket API.
 */
export function registerDashboardRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/',
    {
      get: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) {
          // The Companion app's web view asks for `/?external_auth=1`: it signs in with the app's own token.
          if (hasQueryKey(req.query, 'external_auth')) return redirect(reply, externalAuthPath('/'));
          const state = await env.onboarding.state();
          return redirect(reply, state.kind === 'closed' ? '/login' : '/onboarding');
        }
        const assets = await env.assets.bundle();
        sendPage(
          reply,
          200,
          dashboardPage({
            hubName: env.ctx.config.hub.name,
            assets,
            csrf: who.session.csrf,
            user: who.user,
            zigbee: zigbeeConfigured(env),
          }),
        );
      },
    },
    ROUTE,
  );

  server.resource(
    '/web/token',
    {
      // POST and a CSRF header: issuing a credential is not something a cross-site <img> or link may trigger.
      post: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) return sendJson(reply, 401, { message: 'Not logged in; log in again at /login.' });
        const cross = crossSiteProblem(req);
        if (cross !== undefined || !sameText(who.session.csrf, req.header('x-csrf-token'))) {
          return sendJson(reply, 403, { message: 'Missing or wrong X-CSRF-Token header; reload the page.' });
        }
        const issued = env.ctx.auth.issueAccessToken(who.user.id, who.session.tokenGroup);
        sendJson(reply, 200, { access_token: issued.token, token_type: 'Bearer', expires_in: issued.expiresInS });
      },
    },
    ROUTE,
  );
}
