import type { DriverKind } from '../index.js';

// Stub: replaced by the onewire driver.
export const onewireKind: DriverKind = {
  section: 'onewire',
  validate: () => {},
  create: () => undefined,
};
