import { customizer, EMPTY_CUSTOMIZE } from '../config/core-section.js';
import type { HubConfig, HubSection } from '../config/types.js';
import type { Component } from '../core/component.js';
import { createContext } from '../core/context.js';
import { HubError } from '../core/errors.js';
import type { Integration, IntegrationContext } from '../integration/integration.js';

/** What reload_core_config changes while the hub runs; the rest (port, host, time zone, state table size) waits for a restart. */
type LiveFields = Omit<HubSection, 'port' | 'host' | 'time_zone' | 'max_entities' | 'restore_flush_s' | 'restore_report_flush_s'>;

/**
 * `homeassistant.reload_core_config` (Home Assistant's homeassistant integration): reads `homeassistant:` again, the
 * location, name, units, currency, country, language and URLs that /api/config and templates show, and customize,
 * which every entity's state is written again with; then fires core_config_updated.
 */
export class CoreConfigPart implements Component {
  readonly name = 'core_config';
  readonly optional = true;
  readonly owner = 'core_config';

  constructor(private readonly ctx: IntegrationContext) {}

  async start(): Promise<void> {
    this.ctx.core.services.register(this.owner, {
      domain: 'homeassistant',
      service: 'reload_core_config',
      name: 'Reload core configuration',
      description: 'Reloads the core configuration from the YAML-configuration.',
      schema: { fields: {} },
      handler: (call) => this.reload(call.context),
    });
  }

  async stop(): Promise<void> {
    this.ctx.core.services.removeOwner(this.owner);
  }

  private async reload(context: Parameters<IntegrationContext['core']['bus']['fire']>[2] | undefined): Promise<void> {
    let config: HubConfig;
    try {
      config = await this.ctx.reloadConfig();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new HubError(
        'hub_error',
        `Cannot reload the core configuration: the configuration has errors, keeping the current one. ${message}`,
      );
    }
    const { port: _p, host: _h, time_zone: _t, max_entities: _m, restore_flush_s: _r, restore_report_flush_s: _s, ...live } = config.hub;
    // The hub's settings are one object every part and the API read: changed in place.
    Object.assign(this.ctx.hub as LiveFields, live satisfies LiveFields);
    this.ctx.registries.entities.setStateCustomize(customizer(config.core?.customize ?? EMPTY_CUSTOMIZE));
    const { core } = this.ctx;
    core.bus.fire('core_config_updated', {}, context ?? createContext(core.clock.now()));
  }
}

export const coreConfigIntegration: Integration<Record<string, never>, CoreConfigPart> = {
  name: 'core_config',
  sections: {},
  stage: 'core',
  create: (ctx) => new CoreConfigPart(ctx),
};
