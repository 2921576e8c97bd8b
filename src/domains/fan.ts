import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const fanDomain: Domain = { name: 'fan', registerServices() {} };
