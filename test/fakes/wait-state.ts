import type { Core } from '../../src/core/core.js';

export { waitForState } from '../helpers/wait.js';

/** Every state string `entityId` is written with from now on (one per state_changed). */
export function recordStates(core: Core, entityId: string, t: { teardown(fn: () => unknown): void }): string[] {
  const seen: string[] = [];
  const off = core.bus.on('test-record', 'state_changed', (event) => {
    if (event.data.entity_id === entityId) seen.push(event.data.new_state?.state ?? '<removed>');
  });
  t.teardown(off);
  return seen;
}
