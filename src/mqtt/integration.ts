import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { type Integration, optionalSection, type SectionParser } from '../integration/integration.js';
import { textRenderer } from '../template/index.js';
import { HUB_VERSION } from '../version.js';
import { MqttComponent } from './component.js';
import { type MqttConfig, parseMqttSection } from './config.js';

export interface MqttIntegrationOptions {
  /** The client's first reconnect delay (tests of a broker restart shorten it). */
  readonly minReconnectMs?: number;
}

/** `mqtt:`: the broker connection, discovery both ways, `mqtt.publish` and the `mqtt` trigger's subscriptions. */
export function createMqttIntegration(
  options: MqttIntegrationOptions = {},
): Integration<{ mqtt: SectionParser<MqttConfig | undefined> }, MqttComponent> {
  return {
    name: 'mqtt',
    // The hub's name gives the default base topic.
    sections: { mqtt: optionalSection((value, path, issues, hub) => parseMqttSection(value, path, issues, hub?.name)) },
    create: (ctx, { mqtt }) =>
      mqtt === undefined
        ? undefined
        : new MqttComponent({
            core: ctx.core,
            registries: ctx.registries,
            config: mqtt,
            hubName: ctx.hub.name,
            hubVersion: HUB_VERSION,
            // The same host and data directory: the same hub, across restarts.
            instanceId: createHash('sha256')
              .update(`${hostname()}\u0000${resolve(ctx.dataDir)}`)
              .digest('hex')
              .slice(0, 16),
            log: ctx.log,
            // value_template, command_template, mqtt.publish payloads and the mqtt trigger: Home Assistant's templates.
            render: textRenderer(ctx.templates, 'mqtt'),
            minReconnectMs: options.minReconnectMs,
            temperatureUnit: ctx.hub.unit_system === 'us_customary' ? 'F' : 'C',
          }),
  };
}

export const mqttIntegration = createMqttIntegration();
