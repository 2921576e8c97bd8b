import { registerRestApi } from '../api/rest.js';
import { registerWebSocketApi, type WebSocketApi } from '../api/websocket.js';
import type { HttpSettings } from '../auth/http-section.js';
import type { Component } from '../core/component.js';
import type { Logger } from '../core/log.js';
import { forwardedFor } from '../http/client-address.js';
import type { ApiContext } from '../http/context.js';
import { CorsPolicy } from '../http/cors.js';
import { HttpServer } from '../http/server.js';
import { registerWebUi, type WebUi } from '../web/index.js';

export interface HttpOptions {
  readonly log: Logger;
  readonly settings: HttpSettings;
  readonly host: string;
  readonly port: number;
  /** Built on start, once the components it refers to (auth, registries, login guard) have started. */
  readonly api: () => ApiContext;
  /** The pages' logger (`module: web`): a child of the API's would carry `module` twice. */
  readonly webLog: Logger;
}

/**
 * The uWS server with its REST, WebSocket and page routes, listening once started. Required: a hub that cannot
 * serve its API stops its start (unusable TLS files, a port in use) and says why.
 */
export class HttpComponent implements Component {
  readonly name = 'http';
  private server: HttpServer | undefined;
  private ws: WebSocketApi | undefined;
  private web: WebUi | undefined;

  constructor(private readonly options: HttpOptions) {}

  /** The listening server (tests and the CLI read its port). */
  get listening(): HttpServer {
    if (this.server === undefined) throw new Error('http is not started');
    return this.server;
  }

  async start(): Promise<void> {
    const { log, settings } = this.options;
    const api = this.options.api();
    // Throws for unusable TLS files; the lifecycle then stops what already started.
    const server = new HttpServer(log, {
      gate: api.guard,
      tls: settings.tls,
      forwarded: forwardedFor(settings.trustedProxies, log),
      cors: settings.corsOrigins.length > 0 ? new CorsPolicy(settings.corsOrigins) : undefined,
    });
    this.server = server;
    registerRestApi(server, api);
    this.ws = registerWebSocketApi(server, api);
    // Not a spread: that would read the context's getters now, before the parts of the devices stage (automations,
    // the bridges) run; a context inheriting from the API's keeps them live.
    const webContext = Object.create(api, { log: { value: this.options.webLog, enumerable: true } }) as ApiContext;
    this.web = registerWebUi(server, webContext, { secureCookies: settings.tls !== undefined });
    server.finish();
    const port = await server.listen(this.options.host, this.options.port);
    log.info({ host: this.options.host, port, scheme: server.scheme }, 'API listening');
  }

  async stop(): Promise<void> {
    this.ws?.close();
    this.server?.close();
    await this.web?.close();
  }
}
