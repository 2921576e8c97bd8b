import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated cover device.
export const virtualCover: VirtualPlatform<null> = {
  domain: 'cover',
  parse() {
    return null;
  },
  create() {},
};
