import type { DriverKind } from '../index.js';

// Stub: replaced by the i2c driver.
export const i2cKind: DriverKind = {
  section: 'i2c',
  validate: () => {},
  create: () => undefined,
};
