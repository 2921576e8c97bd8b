import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated vacuum device.
export const virtualVacuum: VirtualPlatform<null> = {
  domain: 'vacuum',
  parse() {
    return null;
  },
  create() {},
};
