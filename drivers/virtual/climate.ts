import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated climate device.
export const virtualClimate: VirtualPlatform<null> = {
  domain: 'climate',
  parse() {
    return null;
  },
  create() {},
};
