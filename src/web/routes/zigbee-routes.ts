import type { HttpServer } from '../../http/server.js';
import { loggedIn, type WebEnv, zigbeeConfigured } from '../context.js';
import { redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { zigbeePage } from '../pages/zigbee-page.js';

/** GET /zigbee: pairing, the live log of joins and interviews, and the device list (all over the WebSocket API). */
export function registerZigbeeRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/zigbee',
    {
      get: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) return redirect(reply, '/login?next=/zigbee');
        const assets = await env.assets.bundle();
        sendPage(
          reply,
          200,
          zigbeePage({
            hubName: env.ctx.config.hub.name,
            assets,
            csrf: who.session.csrf,
            user: who.user,
            configured: zigbeeConfigured(env),
          }),
        );
      },
    },
    { headers: WEB_HEADERS },
  );
}
