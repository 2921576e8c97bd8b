import type { Core } from '../core/core.js';
import type { Registries } from '../registry/index.js';
import { TemplateEngine } from './engine.js';
import { RenderInfo } from './render-info.js';

const engines = new WeakMap<Core, TemplateEngine>();

/**
 * The hub's one template engine: the API, MQTT and automations render through it and so share its cache of
 * compiled templates. Made on first use, with the hub's states, registries and time zone.
 */
export function templateEngineFor(core: Core, registries: Registries, timeZone: string | undefined): TemplateEngine {
  let engine = engines.get(core);
  if (engine === undefined) {
    engine = new TemplateEngine({ core, registries, timeZone });
    engines.set(core, engine);
  }
  return engine;
}

/** A render to text for a caller that only needs the text (MQTT payloads and value templates); throws a TemplateError. */
export function textRenderer(engine: TemplateEngine, name: string): (template: string, variables: Record<string, unknown>) => string {
  return (template, variables) => engine.renderText(template, name, new RenderInfo(), { variables });
}
