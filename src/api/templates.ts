import type { ApiContext } from '../http/context.js';
import { TemplateEngine } from '../template/index.js';

const engines = new WeakMap<ApiContext, TemplateEngine>();

/**
 * The template engine of one API context: REST and WebSocket share it (and so its cache of compiled
 * templates), made on first use with the hub's states, registries and time zone.
 */
export function templateEngineOf(ctx: ApiContext): TemplateEngine {
  let engine = engines.get(ctx);
  if (engine === undefined) {
    engine = new TemplateEngine({ core: ctx.core, registries: ctx.registries, timeZone: ctx.config.hub.time_zone });
    engines.set(ctx, engine);
  }
  return engine;
}
