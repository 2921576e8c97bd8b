import type { ApiContext } from '../http/context.js';
import type { HttpServer } from '../http/server.js';
import { registerCameraProxy } from './camera-proxy.js';
import { RequestAuth } from './rest/auth-check.js';
import { registerAuthFlow } from './rest/auth-flow.js';
import { registerAutomationConfig } from './rest/automation-config.js';
import { registerConfig } from './rest/config.js';
import { registerErrorLog } from './rest/error-log.js';
import { registerEvents } from './rest/events.js';
import { registerHistory } from './rest/history.js';
import { registerLogbook } from './rest/logbook.js';
import { registerMobileApp } from './rest/mobile-app.js';
import { registerOnboarding } from './rest/onboarding.js';
import { registerServices } from './rest/services.js';
import { registerStates } from './rest/states.js';
import { registerTemplate } from './rest/template.js';

/**
 * Home Assistant's REST API under `/api/`. Every endpoint needs a bearer token; unknown paths (404) and
 * wrong methods (405) are answered by the HttpServer before any auth check, as aiohttp does.
 */
export function registerRestApi(server: HttpServer, ctx: ApiContext): void {
  const auth = new RequestAuth(ctx.auth, Date.now, ctx.guard);
  registerConfig(server, ctx, auth);
  registerStates(server, ctx, auth);
  registerServices(server, ctx, auth);
  registerEvents(server, ctx, auth);
  registerErrorLog(server, ctx, auth);
  registerTemplate(server, ctx, auth);
  registerAutomationConfig(server, ctx, auth);
  registerCameraProxy(server, ctx);
  registerAuthFlow(server, ctx);
  registerOnboarding(server, ctx, auth);
  registerMobileApp(server, ctx, auth);
  // Without the recorder these paths do not exist (404), as in Home Assistant without it.
  if (ctx.history !== undefined) {
    registerHistory(server, ctx, auth, ctx.history);
    registerLogbook(server, ctx, auth, ctx.history);
  }
}
