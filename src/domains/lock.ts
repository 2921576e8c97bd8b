import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const lockDomain: Domain = { name: 'lock', registerServices() {} };
