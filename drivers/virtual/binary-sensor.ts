import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated binary_sensor device.
export const virtualBinarySensor: VirtualPlatform<null> = {
  domain: 'binary_sensor',
  parse() {
    return null;
  },
  create() {},
};
