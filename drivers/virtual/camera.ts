import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated camera device.
export const virtualCamera: VirtualPlatform<null> = {
  domain: 'camera',
  parse() {
    return null;
  },
  create() {},
};
