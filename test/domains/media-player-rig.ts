import { parseVirtualSection, seededRandom } from '../../drivers/virtual/index.js';
import type { VirtualContext } from '../../drivers/virtual/types.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { type Clock, ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { State } from '../../src/core/state.js';
import { mediaPlayerDomain } from '../../src/domains/media-player-services.js';
import { Timers } from '../../src/util/timers.js';
import type { Teardown } from '../helpers/hub.js';
import { waitForState } from '../helpers/wait.js';

/** The media player tests' shared setup: the virtual driver's simulated player on a core of its own. */

export const ID = 'media_player.living_room';

/** The virtual "Living Room" player with `item`'s options, and ways to read it, call it and wait for it. */
export function setup(t: Teardown, item: JsonObject = {}, clock: Clock = new ManualClock()) {
  const core = new Core({ log: silentLogger, clock });
  mediaPlayerDomain.registerServices(core);
  const timers = new Timers((err) => {
    throw err;
  });
  t.teardown(() => timers.stopAll());
  const issues: ConfigIssue[] = [];
  const [parsed] = parseVirtualSection(
    [{ platform: 'media_player', name: 'Living Room', buffering_time: 0.02, ...item }],
    ['virtual'],
    issues,
  );
  if (parsed === undefined || issues.length > 0) throw new Error(`bad test config: ${JSON.stringify(issues)}`);
  const ctx: VirtualContext = { core, log: silentLogger, owner: 'virtual', timers, random: seededRandom(7) };
  parsed.platform.create(ctx, { entityId: parsed.entityId, name: parsed.name }, parsed.options);
  const state = () => core.states.get(ID) as State;
  return {
    core,
    state,
    attrs: () => state().attributes,
    call: (service: string, data: Record<string, JsonValue> = {}) =>
      core.services.call('media_player', service, { entity_id: ID, ...data }, { collectChanges: true }),
    waitFor: (pred: (s: State) => boolean, ms?: number) => waitForState(core, ID, pred, ms),
  };
}
