import type { VirtualPlatform } from './types.js';

// Stub: replaced by the simulated alarm_control_panel device.
export const virtualAlarmControlPanel: VirtualPlatform<null> = {
  domain: 'alarm_control_panel',
  parse() {
    return null;
  },
  create() {},
};
