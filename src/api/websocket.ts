import type { ApiContext } from './context.js';
import type { HttpServer } from './server.js';

/** Handle for stopping the WebSocket API. */
export interface WebSocketApi {
  close(): void;
}

// Stub: replaced by the WebSocket API.
export function registerWebSocketApi(_server: HttpServer, _ctx: ApiContext): WebSocketApi {
  return { close() {} };
}
