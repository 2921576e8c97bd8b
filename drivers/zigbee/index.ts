import type { DriverKind } from '../driver.js';
import { parseZigbeeSection } from './config.js';
import { ZigbeeDriver } from './controller.js';
import { createDeviceEntities } from './device-entities.js';

/**
 * `zigbee:`: a coordinator stick through zigbee-herdsman. Nothing here loads herdsman or the converters: the driver
 * imports them when it starts, so a hub (or check-config) without the section never pays for them.
 */
export const zigbeeKind: DriverKind = {
  section: 'zigbee',
  validate: (value, path, issues) => {
    parseZigbeeSection(value, path, issues);
  },
  create(ctx, value) {
    const config = parseZigbeeSection(value, ['zigbee'], []);
    return new ZigbeeDriver(ctx, config, { factory: createDeviceEntities });
  },
};
