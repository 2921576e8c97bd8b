import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const vacuumDomain: Domain = { name: 'vacuum', registerServices() {} };
