import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const sensorDomain: Domain = { name: 'sensor', registerServices() {} };
