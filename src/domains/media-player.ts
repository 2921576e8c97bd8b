import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const mediaPlayerDomain: Domain = { name: 'media_player', registerServices() {} };
