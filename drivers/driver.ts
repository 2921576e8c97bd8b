import type { IntegrationContext } from '../src/integration/integration.js';

/**
 * What a driver uses of its integration's context: the core, its log, its owner key (what it registers goes
 * under it) and the data directory; restore state, a random source and the hub's timers where it needs them.
 * A driver is a Component made by its kind's Integration (drivers/index.ts lists them); `start()` registers
 * entities and begins I/O without waiting on slow hardware (a device that does not answer is marked unavailable
 * and retried with backoff), `stop()` ends all I/O and timers.
 */
export type DriverContext = Pick<IntegrationContext, 'core' | 'log' | 'owner' | 'dataDir'> &
  Partial<Pick<IntegrationContext, 'lastState' | 'random' | 'scheduler'>>;
