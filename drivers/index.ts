import type { AnyIntegration, Integration, SectionParser } from '../src/integration/integration.js';
import { gpioIntegration } from './gpio/index.js';
import { i2cIntegration } from './i2c/index.js';
import { onewireIntegration } from './onewire/index.js';
import { serialIntegration } from './serial/index.js';
import { type ParsedItem, parseVirtualSection, VirtualDriver } from './virtual/index.js';
import { zigbeeIntegration } from './zigbee/index.js';

/** `virtual:`: simulated devices of every domain (the demo, and tests). */
export const virtualIntegration: Integration<{ virtual: SectionParser<ParsedItem[]> }, VirtualDriver> = {
  name: 'virtual',
  sections: { virtual: parseVirtualSection },
  create: (ctx, { virtual }) => (virtual.length === 0 ? undefined : new VirtualDriver(ctx, { items: virtual, random: ctx.random })),
};

/** Every driver kind, in start order. */
export const DRIVER_INTEGRATIONS: readonly AnyIntegration[] = [
  virtualIntegration,
  gpioIntegration,
  i2cIntegration,
  onewireIntegration,
  serialIntegration,
  zigbeeIntegration,
];
