import type { HttpServer } from '../../http/server.js';
import { loggedIn, type WebEnv } from '../context.js';
import { redirect, sendPage, WEB_HEADERS } from '../http-util.js';
import { matterPage } from '../pages/matter-page.js';

/** GET /matter: the bridge's pairing code and QR code, for admins. */
export function registerMatterRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/matter',
    {
      get: async (req, reply) => {
        const who = await loggedIn(env, req);
        if (who === undefined) return redirect(reply, '/login?next=/matter');
        const bridge = who.user.isAdmin ? env.ctx.matter : undefined;
        const [assets, qr] = await Promise.all([env.assets.bundle(), bridge?.qrSvg() ?? Promise.resolve(undefined)]);
        sendPage(
          reply,
          200,
          matterPage({
            hubName: env.ctx.config.hub.name,
            assets,
            csrf: who.session.csrf,
            userName: who.user.name,
            admin: who.user.isAdmin,
            running: bridge !== undefined,
            pairing: bridge?.pairing,
            commissioned: bridge?.commissioned ?? false,
            endpoints: bridge?.endpointCount ?? 0,
            qrDataUrl: qr === undefined ? undefined : `data:image/svg+xml;base64,${Buffer.from(qr).toString('base64')}`,
          }),
        );
      },
    },
    { headers: WEB_HEADERS },
  );
}
