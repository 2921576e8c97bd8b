import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const coverDomain: Domain = { name: 'cover', registerServices() {} };
