import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated lock device.
export const virtualLock: VirtualPlatform<null> = {
  domain: 'lock',
  parse() {
    return null;
  },
  create() {},
};
