import type { HttpServer } from '../../http/server.js';
import { loggedIn, type WebEnv, zigbeeConfigured } from '../context.js';
import { redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { zigbeeDevicePage, zigbeePage } from '../pages/zigbee-page.js';

/** An IEEE address as herdsman writes it (0x and 16 lowercase hex digits); a device page's only path parameter. */
const IEEE = /^0x[0-9a-f]{16}$/;

/**
 * GET /zigbee: pairing, the live log of joins and interviews, and the device list; GET /zigbee/device/<ieee>: one
 * device's page (all over the WebSocket API).
 */
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
  server.resource(
    '/zigbee/device/:ieee',
    {
      get: async (req, reply) => {
        const ieee = (req.params[0] ?? '').toLowerCase();
        const who = await loggedIn(env, req);
        if (who === undefined) return redirect(reply, `/login?next=${encodeURIComponent(`/zigbee/device/${ieee}`)}`);
        const assets = await env.assets.bundle();
        const o = { hubName: env.ctx.config.hub.name, assets, csrf: who.session.csrf, user: who.user, configured: zigbeeConfigured(env) };
        if (!IEEE.test(ieee)) return sendPage(reply, 404, zigbeeDevicePage({ ...o, ieee: undefined }));
        sendPage(reply, 200, zigbeeDevicePage({ ...o, ieee }));
      },
    },
    { headers: WEB_HEADERS },
  );
}
