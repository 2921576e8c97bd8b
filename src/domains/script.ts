import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const scriptDomain: Domain = { name: 'script', registerServices() {} };
