import type { DriverKind } from '../index.js';

// Stub: replaced by the gpio driver.
export const gpioKind: DriverKind = {
  section: 'gpio',
  validate: () => {},
  create: () => undefined,
};
