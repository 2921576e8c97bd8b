import type { AddressGate } from '../auth/bans.js';
import type { TlsFiles } from '../auth/http-section.js';
import type { Logger } from '../core/log.js';
import type { ForwardedFor } from './client-address.js';
import { type CorsPolicy, PREFLIGHT_HEADERS } from './cors.js';
import { type Handler, type RouteOptions, route } from './http.js';
import { closeApp, nativeUwsProblem, type TemplatedApp, type us_listen_socket, uWS } from './uws.js';

export type Method = 'get' | 'post' | 'put' | 'del' | 'patch';
const METHOD_NAMES: Record<Method, string> = { get: 'GET', post: 'POST', put: 'PUT', del: 'DELETE', patch: 'PATCH' };

export interface ResourceHandlers extends Partial<Record<Method, Handler>> {}

/**
 * The one uWS app that serves REST, the WebSocket API and the web pages. Routes are declared per path
 * with their methods, so a known path with another method gets 405 with `Allow`, and an unknown path
 * gets a 404 (uWS would otherwise close the connection without an answer).
 */
export class HttpServer {
  readonly app: TemplatedApp;
  private listenSocket: us_listen_socket | undefined;
  private boundPort = 0;

  /** What every route gets to tell who the client is and whether it is banned. */
  private readonly clients: Pick<RouteOptions, 'gate' | 'forwarded'>;
  /** Cross-origin access for every resource (Home Assistant's configured CORS on its views); undefined: none. */
  private readonly cors: CorsPolicy | undefined;
  /** Serve HTTPS and WSS with these files instead of plain HTTP. */
  readonly tls: TlsFiles | undefined;
  /** Behind trusted reverse proxies: who the client is (X-Forwarded-For). */
  readonly forwarded: ForwardedFor | undefined;

  constructor(
    private readonly log: Logger,
    options: {
      /** Banned addresses get 403 on every route, before any handler or auth check (Home Assistant's ban middleware). */
      readonly gate?: AddressGate;
      readonly tls?: TlsFiles;
      readonly forwarded?: ForwardedFor;
      readonly cors?: CorsPolicy;
    } = {},
  ) {
    const problem = nativeUwsProblem();
    if (problem !== undefined) throw new Error(problem);
    this.clients = { gate: options.gate, forwarded: options.forwarded };
    this.tls = options.tls;
    this.cors = options.cors;
    this.forwarded = options.forwarded;
    this.app = options.tls === undefined ? uWS.App() : sslApp(options.tls);
  }

  /** `https` when serving TLS. */
  get scheme(): 'http' | 'https' {
    return this.tls === undefined ? 'http' : 'https';
  }

  get port(): number {
    return this.boundPort;
  }

  resource(pattern: string, handlers: ResourceHandlers, options: RouteOptions = {}): void {
    const params = options.params ?? pattern.match(/\/:/g)?.length ?? 0;
    const opts = { ...options, params, ...this.clients, cors: this.cors };
    const allow = (Object.keys(handlers) as Method[]).map((m) => METHOD_NAMES[m]);
    for (const [method, handler] of Object.entries(handlers) as [Method, Handler][]) {
      this.app[method](pattern, route(handler, this.log, opts));
    }
    if (this.cors !== undefined)
      this.app.options(pattern, route(this.cors.preflight, this.log, { ...this.clients, params, headers: PREFLIGHT_HEADERS }));
    const allowHeader = allow.join(', ');
    this.app.any(
      pattern,
      route((_req, reply) => reply.text(405, '405: Method Not Allowed', [['Allow', allowHeader]]), this.log, this.clients),
    );
  }

  /** GETs of paths no route serves go to `handler` (the web pages' styled 404); other methods still get finish()'s 404. */
  notFound(handler: Handler, options: RouteOptions = {}): void {
    this.app.get('/*', route(handler, this.log, { ...options, ...this.clients }));
  }

  /** Must be called after every route: unmatched paths get 404. */
  finish(): void {
    this.app.any(
      '/*',
      route((_req, reply) => reply.text(404, '404: Not Found'), this.log, this.clients),
    );
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.app.listen(host, port, (socket) => {
        if (!socket) {
          reject(new Error(`Cannot listen on ${host}:${port}: the address is in use or not available`));
          return;
        }
        this.listenSocket = socket;
        this.boundPort = uWS.us_socket_local_port(socket);
        resolve(this.boundPort);
      });
    });
  }

  /** Stops listening and closes every open connection (keep-alive HTTP and WebSockets). */
  close(): void {
    if (this.listenSocket !== undefined) {
      uWS.us_listen_socket_close(this.listenSocket);
      this.listenSocket = undefined;
    }
    closeApp(this.app);
  }
}

/** uWS reads the files itself and says only "App construction failed"; this says which files and what they must be. */
function sslApp(tls: TlsFiles): TemplatedApp {
  try {
    return uWS.SSLApp({ cert_file_name: tls.certificate, key_file_name: tls.key });
  } catch {
    throw new Error(
      `Cannot serve HTTPS with ssl_certificate ${JSON.stringify(tls.certificate)} and ssl_key ${JSON.stringify(tls.key)}: ` +
        'expected a PEM certificate (chain) and its unencrypted PEM private key, readable by this user',
    );
  }
}
