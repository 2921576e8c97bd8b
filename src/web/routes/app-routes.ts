import type { Request } from '../../http/http.js';
import type { HttpServer } from '../../http/server.js';
import { loggedIn, type WebEnv, zigbeeConfigured } from '../context.js';
import { redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { appPage, notFoundPage } from '../pages/app-page.js';
import { APP_ROUTES } from '../pages/app-paths.js';

const ROUTE = { headers: WEB_HEADERS };

/** A path of this site safe to hand to the login page as `next` (the request's own path, query dropped). */
function nextOf(req: Request): string {
  return encodeURIComponent(req.url);
}

/** The app pages, then a styled 404 for every other GET outside `/api/` (API clients keep the plain one). */
export function registerAppRoutes(server: HttpServer, env: WebEnv): void {
  for (const [path, route] of APP_ROUTES) {
    server.resource(
      path,
      {
        get: async (req, reply) => {
          const who = await loggedIn(env, req);
          if (who === undefined) return redirect(reply, `/login?next=${nextOf(req)}`);
          const assets = await env.assets.bundle();
          sendPage(
            reply,
            200,
            appPage({
              hubName: env.ctx.config.hub.name,
              assets,
              csrf: who.session.csrf,
              user: who.user,
              zigbee: zigbeeConfigured(env),
              title: route.title,
              current: route.current ?? path,
              script: route.script,
            }),
          );
        },
      },
      ROUTE,
    );
  }
}

/** GET of a path nothing else serves: a page saying so, with the navigation (call after every other route). */
export function registerNotFoundPage(server: HttpServer, env: WebEnv): void {
  server.notFound(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.url === '/api') return reply.text(404, '404: Not Found');
    const who = await loggedIn(env, req);
    const assets = await env.assets.bundle();
    sendPage(
      reply,
      404,
      notFoundPage({
        hubName: env.ctx.config.hub.name,
        assets,
        zigbee: zigbeeConfigured(env),
        path: req.url.slice(0, 200),
        who: who === undefined ? undefined : { user: who.user, csrf: who.session.csrf },
      }),
    );
  }, ROUTE);
}
