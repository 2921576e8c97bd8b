import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated media_player device.
export const virtualMediaPlayer: VirtualPlatform<null> = {
  domain: 'media_player',
  parse() {
    return null;
  },
  create() {},
};
