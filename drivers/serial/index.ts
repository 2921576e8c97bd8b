import type { DriverKind } from '../index.js';

// Stub: replaced by the serial driver.
export const serialKind: DriverKind = {
  section: 'serial',
  validate: () => {},
  create: () => undefined,
};
