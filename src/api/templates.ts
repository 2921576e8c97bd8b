import type { ApiContext } from '../http/context.js';
import { type TemplateEngine, templateEngineFor } from '../template/index.js';

/** The hub's template engine, which REST and WebSocket share (and so its cache of compiled templates). */
export function templateEngineOf(ctx: ApiContext): TemplateEngine {
  return templateEngineFor(ctx.core, ctx.registries, ctx.config.hub.time_zone);
}
