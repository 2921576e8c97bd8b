import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const cameraDomain: Domain = { name: 'camera', registerServices() {} };
