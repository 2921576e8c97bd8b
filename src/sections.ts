import { DRIVER_INTEGRATIONS } from '../drivers/index.js';
import { HTTP_SECTION_VALIDATOR } from './auth/http-section.js';
import { automationIntegration } from './automation/integration.js';
import type { SectionValidators } from './config/load.js';
import { coreConfigIntegration } from './core-config/core-config.js';
import { loggerIntegration } from './core-config/logger.js';
import { groupIntegration } from './group/index.js';
import { helpersIntegration } from './helpers/index.js';
import { homekitIntegration } from './homekit/index.js';
import type { AnyIntegration } from './integration/integration.js';
import { matterIntegration } from './matter/index.js';
import { mobileAppIntegration } from './mobile-app/index.js';
import { mqttIntegration } from './mqtt/integration.js';
import { notifyIntegration } from './notify/index.js';
import { presenceIntegration } from './presence/index.js';
import { parseEntityFilterSection } from './recorder/config.js';
import { recorderIntegration } from './recorder/integration.js';
import { REGISTRY_SECTION_VALIDATORS } from './registry/index.js';
import { templateIntegration } from './template-entities/index.js';
import { thermostatIntegration } from './thermostat/index.js';
import { zeroconfIntegration } from './zeroconf/index.js';

/**
 * Every optional part of the hub, in start order within its stage (src/integration/integration.ts). Adding a part
 * is its folder and one line here. Kept apart from hub.ts so that check-config reads a file without loading the
 * HTTP server and the native uWS binary.
 */
export const INTEGRATIONS: readonly AnyIntegration[] = [
  recorderIntegration,
  loggerIntegration,
  coreConfigIntegration,
  helpersIntegration,
  // Zones, persons and device trackers: after the helpers, before the drivers and automations that read them.
  presenceIntegration,
  notifyIntegration,
  // The Companion apps' phones: on without a section, as Home Assistant's default_config loads it.
  mobileAppIntegration,
  ...DRIVER_INTEGRATIONS,
  mqttIntegration,
  // Before automations, so their triggers see the template entities from the start.
  templateIntegration,
  // After the switches and sensors they read (drivers, helpers, MQTT, template entities), before automations.
  thermostatIntegration,
  // Old-style groups follow their members' states whenever those appear; before automations, which read them.
  groupIntegration,
  automationIntegration,
  // After the API listens: it announces the API's port.
  zeroconfIntegration,
  // Last: the bridges show what every other part made.
  homekitIntegration,
  matterIntegration,
];

/** `integrations` with each of `replacements` in the place of the one of its name (tests put fakes in). */
export function withIntegrations(integrations: readonly AnyIntegration[], ...replacements: readonly AnyIntegration[]): AnyIntegration[] {
  return integrations.map((i) => replacements.find((r) => r.name === i.name) ?? i);
}

/**
 * Sections the hub reads itself: a problem in `http:` stops the start, since the API could otherwise run wider
 * open than meant (no TLS, the wrong proxies trusted).
 */
export const REQUIRED_SECTIONS: readonly string[] = ['http'];

/** Every top-level section besides `hub:`, with the parse check-config and the loader run on it. */
export const SECTION_VALIDATORS: SectionValidators = {
  ...Object.fromEntries(INTEGRATIONS.flatMap((i) => Object.entries(i.sections))),
  http: HTTP_SECTION_VALIDATOR,
  ...REGISTRY_SECTION_VALIDATORS,
  // Home Assistant's include/exclude for its history panel and logbook (the logbook applies its own).
  history: parseEntityFilterSection,
  logbook: parseEntityFilterSection,
};

/**
 * Driver commands the CLI runs (`hearth zigbee import`). The CLI may not import drivers/ itself; it reaches them
 * here, loaded only when such a command runs.
 */
export const loadZigbeeImport = () => import('../drivers/zigbee/z2m-import.js');
