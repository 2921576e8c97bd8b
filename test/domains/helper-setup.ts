import { TimeZone } from '../../src/automation/local-time.js';
import { parseConfigText } from '../../src/config/load.js';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import type { JsonObject } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import { DOMAINS } from '../../src/domains/index.js';
import { Helpers, type HelperYaml } from '../../src/helpers/index.js';
import { SECTION_VALIDATORS } from '../../src/sections.js';
import { ManualScheduler } from '../helpers/manual-scheduler.js';
import { type Teardown, tempDir } from '../storage/helpers.js';

/** 07:00 in Amsterdam on Thursday 15 January 2026. */
export const START_US = Date.UTC(2026, 0, 15, 6, 0, 0) * 1000;

/** The helpers component alone on a core with a manual clock and scheduler, its YAML under `hub:`. */
export async function helperHub(t: Teardown, yaml: string) {
  const clock = new ManualClock(START_US);
  const scheduler = new ManualScheduler(clock);
  const core = new Core({ log: silentLogger, clock });
  for (const domain of DOMAINS) domain.registerServices(core);
  const config = parseConfigText(`hub: {name: Test, time_zone: Europe/Amsterdam}\n${yaml}`, null, SECTION_VALIDATORS);
  const zone = TimeZone.of('Europe/Amsterdam') as TimeZone;
  const helpers = new Helpers({
    core,
    yaml: Object.fromEntries(config.parsed) as HelperYaml,
    reloadConfig: async () => config,
    dataDir: await tempDir(t),
    log: silentLogger,
    scheduler,
    offsetMs: (ms) => zone.offsetMs(ms),
  });
  await helpers.start();
  t.teardown(() => helpers.stop());
  const events: { type: string; data: JsonObject }[] = [];
  core.bus.on('test', '*', (e) => {
    if (e.event_type.startsWith('timer.')) events.push({ type: e.event_type, data: e.data as JsonObject });
  });
  return {
    core,
    clock,
    scheduler,
    helpers,
    events,
    call: (domain: string, service: string, entityId: string, data: JsonObject = {}) =>
      core.services.call(domain, service, { entity_id: entityId, ...data }),
    state: (entityId: string) => core.states.get(entityId)?.state,
    attrs: (entityId: string) => core.states.get(entityId)?.attributes,
  };
}
