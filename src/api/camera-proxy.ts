import type { ApiContext } from './context.js';
import type { HttpServer } from './server.js';

// Stub: replaced by GET /api/camera_proxy/<entity_id>.
export function registerCameraProxy(_server: HttpServer, _ctx: ApiContext): void {}
