import type { HttpServer } from '../../http/server.js';
import type { WebEnv } from '../context.js';
import { WEB_HEADERS } from '../http-util.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Whether the client takes gzip (and did not refuse it with q=0). */
export function acceptsGzip(header: string): boolean {
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((s) => s.trim());
    if (coding !== 'gzip' && coding !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  }
  return false;
}

/**
 * GET /static/<bundle id>/<file>: the pages' scripts, styles and icon, and preact/htm from node_modules.
 * The id changes whenever any file does, so every answer may be cached for a year; gzip when accepted.
 */
export function registerStaticRoutes(server: HttpServer, env: WebEnv): void {
  server.resource(
    '/static/*',
    {
      get: async (req, reply) => {
        const bundle = await env.assets.bundle();
        const rest = req.url.slice('/static/'.length);
        const slash = rest.indexOf('/');
        const asset = slash === -1 || rest.slice(0, slash) !== bundle.id ? undefined : bundle.files.get(rest.slice(slash + 1));
        if (asset === undefined) {
          reply.text(404, '404: Not Found', [['Cache-Control', 'no-store']]);
          return;
        }
        const headers: [string, string][] = [
          ['Cache-Control', IMMUTABLE],
          ['Vary', 'Accept-Encoding'],
        ];
        if (asset.gzip !== undefined && acceptsGzip(req.header('accept-encoding'))) {
          headers.push(['Content-Encoding', 'gzip']);
          reply.send(200, asset.gzip, asset.type, headers);
        } else reply.send(200, asset.body, asset.type, headers);
      },
    },
    { headers: WEB_HEADERS },
  );
}
