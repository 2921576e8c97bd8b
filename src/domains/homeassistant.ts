import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const homeassistantDomain: Domain = { name: 'homeassistant', registerServices() {} };
