import type { SectionValidator } from '../src/config/load.js';
import type { JsonValue } from '../src/core/json.js';
import type { Driver, DriverContext } from './driver.js';
import { gpioKind } from './gpio/index.js';
import { i2cKind } from './i2c/index.js';
import { onewireKind } from './onewire/index.js';
import { serialKind } from './serial/index.js';
import { parseVirtualSection, VirtualDriver } from './virtual/index.js';

/**
 * A kind of driver, configured by one top-level YAML section. Hardware drivers load their packages
 * (onoff, i2c-bus, serialport) lazily inside `create`, so a hub without that hardware never pays for them.
 */
export interface DriverKind {
  readonly section: string;
  readonly validate: SectionValidator;
  /** The driver for the section's value, or undefined when the section configures nothing. */
  create(ctx: DriverContext, value: JsonValue): Driver | undefined;
}

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

export const DRIVER_KINDS: readonly DriverKind[] = [virtualKind, gpioKind, i2cKind, onewireKind, serialKind];
