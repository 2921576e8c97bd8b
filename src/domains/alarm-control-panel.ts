import type { Domain } from './domain.js';

// Stub: replaced by the domain's implementation.
export const alarmControlPanelDomain: Domain = { name: 'alarm_control_panel', registerServices() {} };
