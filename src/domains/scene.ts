import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const sceneDomain: Domain = { name: 'scene', registerServices() {} };
