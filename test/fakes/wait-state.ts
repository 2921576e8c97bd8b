import type { Core } from '../../src/core/core.js';
import type { State } from '../../src/core/state.js';

/** Resolves with the first state of `entityId` that satisfies `pred` (now or on a later state_changed); rejects after `ms`. */
export function waitForState(core: Core, entityId: string, pred: (s: State) => boolean, ms = 3000): Promise<State> {
  const now = core.states.get(entityId);
  if (now && pred(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${entityId}; last: ${JSON.stringify(core.states.get(entityId)?.toJSON())}`));
    }, ms);
    const off = core.bus.on('test-wait', 'state_changed', (event) => {
      const s = event.data.new_state;
      if (event.data.entity_id === entityId && s && pred(s)) {
        clearTimeout(timer);
        off();
        resolve(s);
      }
    });
  });
}

/** Every state string `entityId` is written with from now on (one per state_changed). */
export function recordStates(core: Core, entityId: string, t: { teardown(fn: () => unknown): void }): string[] {
  const seen: string[] = [];
  const off = core.bus.on('test-record', 'state_changed', (event) => {
    if (event.data.entity_id === entityId) seen.push(event.data.new_state?.state ?? '<removed>');
  });
  t.teardown(off);
  return seen;
}
