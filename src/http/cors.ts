import type { Handler } from './http.js';

/** The request headers a cross-origin client may send (components/http/cors.py ALLOWED_CORS_HEADERS), upper case. */
const ALLOWED_HEADERS: ReadonlySet<string> = new Set(['ORIGIN', 'ACCEPT', 'X-REQUESTED-WITH', 'CONTENT-TYPE', 'AUTHORIZATION']);

/** The headers a preflight handler reads (lower case, as RouteOptions.headers takes them). */
export const PREFLIGHT_HEADERS: readonly string[] = ['origin', 'access-control-request-method', 'access-control-request-headers'];

/**
 * Cross-origin access as Home Assistant grants it (aiohttp_cors with every method and the headers above, for the
 * origins of `http: cors_allowed_origins`): a request whose Origin is one of them gets
 * `Access-Control-Allow-Origin: <that origin>` on its answer; any other origin gets no CORS header, so the
 * browser keeps the answer from its page. As in Home Assistant, no Access-Control-Allow-Credentials: a
 * cross-origin client authenticates with a bearer token, never with the hub's cookies.
 */
export class CorsPolicy {
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.origins = new Set(origins);
  }

  /** Whether a request's Origin header (exactly as sent; '' when none) is allowed. */
  allows(origin: string): boolean {
    return origin !== '' && this.origins.has(origin);
  }

  /**
   * The OPTIONS preflight (aiohttp_cors's _preflight_handler): 200 with the origin, the requested method and
   * the requested headers when all are allowed, else 403 with aiohttp_cors's reason.
   */
  readonly preflight: Handler = (req, reply) => {
    const origin = req.header('origin');
    if (origin === '') return reply.text(403, 'CORS preflight request failed: origin header is not specified in the request');
    const method = req.header('access-control-request-method');
    if (method === '') return reply.text(403, "CORS preflight request failed: 'Access-Control-Request-Method' header is not specified");
    if (!this.allows(origin)) return reply.text(403, `CORS preflight request failed: origin '${origin}' is not allowed`);
    const requested = requestedHeaders(req.header('access-control-request-headers'));
    const refused = requested.filter((h) => !ALLOWED_HEADERS.has(h));
    if (refused.length > 0) return reply.text(403, `CORS preflight request failed: headers are not allowed: ${refused.join(', ')}`);
    const headers: [string, string][] = [
      ['Access-Control-Allow-Origin', origin],
      ['Access-Control-Allow-Methods', method],
    ];
    if (requested.length > 0) headers.push(['Access-Control-Allow-Headers', requested.join(',')]);
    reply.text(200, '', headers);
  };
}

/** Access-Control-Request-Headers as a list of distinct upper-case names (bounded: a header line is at most a few kB). */
function requestedHeaders(value: string): string[] {
  const out = new Set<string>();
  for (const part of value.split(',')) {
    const name = part.trim().toUpperCase();
    if (name !== '') out.add(name);
  }
  return [...out];
}
