import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const binarySensorDomain: Domain = { name: 'binary_sensor', registerServices() {} };
