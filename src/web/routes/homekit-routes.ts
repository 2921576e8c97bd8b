import type { HttpServer } from '../../http/server.js';
import { loggedIn, type WebEnv } from '../context.js';
import { redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { homekitPage } from '../pages/homekit-page.js';

/** GET /homekit: the bridge's pairing code and QR code, for admins. */
export function registerHomekitRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/homekit',
    {
      get: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) return redirect(reply, '/login?next=/homekit');
        const bridge = who.user.isAdmin ? env.ctx.homekit : undefined;
        const [assets, qr] = await Promise.all([env.assets.bundle(), bridge?.qrSvg() ?? Promise.resolve(undefined)]);
        sendPage(
          reply,
          200,
          homekitPage({
            hubName: env.ctx.config.hub.name,
            assets,
            csrf: who.session.csrf,
            userName: who.user.name,
            admin: who.user.isAdmin,
            setup: bridge?.setup,
            accessories: bridge?.accessoryCount ?? 0,
            qrDataUrl: qr === undefined ? undefined : `data:image/svg+xml;base64,${Buffer.from(qr).toString('base64')}`,
          }),
        );
      },
    },
    { headers: WEB_HEADERS },
  );
}
