import { parseDefaultConfig } from '../integration/default-config.js';
import type { Integration, SectionParser } from '../integration/integration.js';
import { AutomationExtension, parseSunSection } from './index.js';
import type { AutomationDefinition, SceneDefinition, ScriptDefinition } from './model.js';
import { parseAutomations, parseScenes, parseScripts } from './parse-sections.js';

type AutomationParsers = {
  readonly automation: SectionParser<AutomationDefinition[]>;
  readonly script: SectionParser<ScriptDefinition[]>;
  readonly scene: SectionParser<SceneDefinition[]>;
  readonly sun: SectionParser<boolean>;
  readonly default_config: SectionParser<boolean>;
};

/**
 * Automations, scripts, scenes and sun.sun (with `sun:` or `default_config:`). Always on: the reload, scene.apply and scene.create services and the
 * WebSocket's subscribe_trigger and execute_script need no section. A broken automation, script or scene is left
 * out alone.
 */
export const automationIntegration: Integration<AutomationParsers, AutomationExtension> = {
  name: 'automation',
  sections: {
    automation: parseAutomations,
    script: parseScripts,
    scene: parseScenes,
    sun: parseSunSection,
    default_config: parseDefaultConfig,
  },
  itemOf: (path) => path.slice(0, 2),
  create: (ctx, definitions, broken) =>
    new AutomationExtension(ctx.core, ctx.hub, ctx.log, {
      // Home Assistant's default_config loads sun: sun.sun exists with either.
      definitions: { ...definitions, sun: definitions.sun || definitions.default_config },
      reloadConfig: ctx.reloadConfig,
      mqtt: ctx.mqtt,
      templates: ctx.templates,
      scheduler: ctx.scheduler,
      broken,
    }),
};
