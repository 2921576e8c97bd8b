import type { DriverKind } from './driver.js';
import { gpioKind } from './gpio/index.js';
import { i2cKind } from './i2c/index.js';
import { onewireKind } from './onewire/index.js';
import { serialKind } from './serial/index.js';
import { parseVirtualSection, VirtualDriver } from './virtual/index.js';
import { zigbeeKind } from './zigbee/index.js';

const virtualKind: DriverKind = {
  section: 'virtual',
  validate: (value, path, issues) => {
    parseVirtualSection(value, path, issues);
  },
  create(ctx, value) {
    const items = parseVirtualSection(value, ['virtual'], []);
    return items.length === 0 ? undefined : new VirtualDriver(ctx, { items, random: ctx.random });
  },
};

export const DRIVER_KINDS: readonly DriverKind[] = [virtualKind, gpioKind, i2cKind, onewireKind, serialKind, zigbeeKind];
