import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated sensor device.
export const virtualSensor: VirtualPlatform<null> = {
  domain: 'sensor',
  parse() {
    return null;
  },
  create() {},
};
