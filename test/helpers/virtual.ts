import { parse } from 'yaml';
import { parseVirtualSection, seededRandom, VirtualDriver } from '../../drivers/virtual/index.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonValue } from '../../src/core/json.js';
import { silentLogger } from '../../src/core/log.js';
import type { Domain } from '../../src/domains/domain.js';
import type { Teardown } from './hub.js';

/** The problems a `virtual:` list (YAML) has, as `path: message` lines. */
export function virtualIssues(yaml: string): string[] {
  const issues: ConfigIssue[] = [];
  parseVirtualSection(parse(yaml) as JsonValue, ['virtual'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** Starts the virtual driver on a fresh core with the given domains and `virtual:` list; stopped at teardown. */
export async function startVirtual(t: Teardown, yaml: string, domains: readonly Domain[], seed = 7): Promise<Core> {
  const core = new Core({ log: silentLogger });
  for (const domain of domains) domain.registerServices(core);
  const issues: ConfigIssue[] = [];
  const items = parseVirtualSection(parse(yaml) as JsonValue, ['virtual'], issues);
  if (issues.length > 0) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const driver = new VirtualDriver({ core, log: silentLogger, owner: 'virtual', dataDir: '' }, { items, random: seededRandom(seed) });
  await driver.start();
  t.teardown(() => driver.stop());
  return core;
}
