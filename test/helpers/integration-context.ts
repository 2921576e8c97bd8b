import { parseConfigText } from '../../src/config/load.js';
import type { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import type { IntegrationContext } from '../../src/integration/integration.js';
import { Registries } from '../../src/registry/index.js';
import { templateEngineFor } from '../../src/template/index.js';
import { timersScheduler } from '../../src/util/scheduler.js';

/** A whole integration context on `core` with the hub defaults, for calling an integration's create in a test. */
export function integrationContext(core: Core, owner: string, overrides: Partial<IntegrationContext> = {}): IntegrationContext {
  const config = parseConfigText('', null, {});
  const registries = new Registries({ core, dataDir: '', sections: {}, log: silentLogger });
  return {
    core,
    log: silentLogger,
    owner,
    dataDir: '',
    scheduler: timersScheduler(() => {}),
    hub: config.hub,
    timeZone: { name: 'UTC', offsetMs: () => 0 },
    templates: templateEngineFor(core, registries, 'UTC'),
    lastState: () => undefined,
    registries,
    reloadConfig: async () => config,
    ...overrides,
  };
}
