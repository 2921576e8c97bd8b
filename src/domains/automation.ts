import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const automationDomain: Domain = { name: 'automation', registerServices() {} };
