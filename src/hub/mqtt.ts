import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { ConfigIssue } from '../config/reader.js';
import type { HubConfig } from '../config/types.js';
import type { Core } from '../core/core.js';
import type { JsonValue } from '../core/json.js';
import type { Logger } from '../core/log.js';
import { MqttComponent } from '../mqtt/component.js';
import { parseMqttSection } from '../mqtt/config.js';
import type { Registries } from '../registry/index.js';
import { templateEngineFor, textRenderer } from '../template/index.js';
import { HUB_VERSION } from '../version.js';

/** The MQTT component when the configuration has an `mqtt:` section (mqtt.js is loaded only then), else nothing. */
export function mqttComponent(o: {
  core: Core;
  config: HubConfig;
  registries: Registries;
  log: Logger;
  dataDir: string;
  minReconnectMs?: number;
}): MqttComponent | undefined {
  const section = o.config.sections.mqtt;
  if (section === undefined) return undefined;
  const issues: ConfigIssue[] = [];
  const config = parseMqttSection(section as JsonValue, ['mqtt'], issues, o.config.hub.name);
  if (issues.length > 0) return undefined;
  return new MqttComponent({
    core: o.core,
    registries: o.registries,
    config,
    hubName: o.config.hub.name,
    hubVersion: HUB_VERSION,
    // The same host and data directory: the same hub, across restarts.
    instanceId: createHash('sha256')
      .update(`${hostname()}\u0000${resolve(o.dataDir)}`)
      .digest('hex')
      .slice(0, 16),
    log: o.log.child({ module: 'mqtt' }),
    // value_template, command_template, mqtt.publish payloads and the mqtt trigger: Home Assistant's templates.
    render: textRenderer(templateEngineFor(o.core, o.registries, o.config.hub.time_zone), 'mqtt'),
    minReconnectMs: o.minReconnectMs,
  });
}
