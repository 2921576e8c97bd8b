import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated fan device.
export const virtualFan: VirtualPlatform<null> = {
  domain: 'fan',
  parse() {
    return null;
  },
  create() {},
};
