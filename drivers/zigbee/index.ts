import { type Integration, optionalSection, type SectionParser } from '../../src/integration/integration.js';
import { parseZigbeeSection, type ZigbeeConfig } from './config.js';
import { ZigbeeDriver, type ZigbeeDriverOptions } from './controller.js';
import { createDeviceEntities } from './device-entities.js';

/**
 * `zigbee:`: a coordinator stick through zigbee-herdsman. Nothing here loads herdsman or the converters: the driver
 * imports them when it starts, so a hub (or check-config) without the section never pays for them. `options` lets
 * tests put their own device factory in.
 */
export function createZigbeeIntegration(
  options: Partial<ZigbeeDriverOptions> = {},
): Integration<{ zigbee: SectionParser<ZigbeeConfig | undefined> }, ZigbeeDriver> {
  return {
    name: 'zigbee',
    sections: { zigbee: optionalSection(parseZigbeeSection) },
    create: (ctx, { zigbee }) =>
      zigbee === undefined ? undefined : new ZigbeeDriver(ctx, zigbee, { factory: createDeviceEntities, ...options }),
  };
}

export const zigbeeIntegration = createZigbeeIntegration();
