/** Timers on a ManualClock for anything that takes a Scheduler (helpers' timers, the Zigbee driver). */
export { ManualScheduler } from '../fixtures/zigbee/manual-scheduler.js';
