import type { ApiContext } from './context.js';
import type { HttpServer } from './server.js';

// Stub: replaced by the REST API.
export function registerRestApi(_server: HttpServer, _ctx: ApiContext): void {}
