import { DRIVER_KINDS } from '../drivers/index.js';
import { HTTP_SECTION_VALIDATOR } from './auth/http-section.js';
import { AUTOMATION_SECTION_VALIDATORS } from './automation/index.js';
import type { SectionValidators } from './config/load.js';
import { HELPER_SECTION_VALIDATORS } from './helpers/index.js';
import { MQTT_SECTION_VALIDATORS } from './mqtt/config.js';
import { RECORDER_SECTION_VALIDATORS } from './recorder/config.js';
import { REGISTRY_SECTION_VALIDATORS } from './registry/index.js';
import { TEMPLATE_SECTION_VALIDATORS } from './template-entities/index.js';
import { CLIMATE_SECTION_VALIDATORS } from './thermostat/index.js';

/**
 * Every top-level config section besides `hub:`, with the validator check-config runs on it. Kept apart from
 * hub.ts so that check-config validates a file without loading the HTTP server and the native uWS binary.
 */
export const SECTION_VALIDATORS: SectionValidators = {
  ...Object.fromEntries(DRIVER_KINDS.map((k) => [k.section, k.validate])),
  ...AUTOMATION_SECTION_VALIDATORS,
  http: HTTP_SECTION_VALIDATOR,
  ...REGISTRY_SECTION_VALIDATORS,
  ...RECORDER_SECTION_VALIDATORS,
  ...MQTT_SECTION_VALIDATORS,
  ...HELPER_SECTION_VALIDATORS,
  ...TEMPLATE_SECTION_VALIDATORS,
  ...CLIMATE_SECTION_VALIDATORS,
  // Home Assistant's "load the default integrations"; hearth's are built in, so it is accepted and does nothing.
  default_config: (value, path, issues) => {
    if (value !== null) issues.push({ path, message: 'takes no options: write `default_config:` alone (or leave it out)' });
  },
};

/**
 * Driver commands the CLI runs (`hearth zigbee import`). The CLI may not import drivers/ itself; it reaches them
 * here, loaded only when such a command runs.
 */
export const loadZigbeeImport = () => import('../drivers/zigbee/z2m-import.js');
