import { parse } from 'yaml';
import { parseI2cSection } from '../../drivers/i2c/config.js';
import { I2cDriver } from '../../drivers/i2c/index.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonValue } from '../../src/core/json.js';
import { fanDomain } from '../../src/domains/fan.js';
import { lightDomain } from '../../src/domains/light-services.js';
import type { FakeI2cBus } from './fake-i2c-bus.js';
import { RecordingLogger } from './recording-logger.js';

/** Problems the `i2c:` validator reports for a YAML section, as "path: message". */
export function i2cIssues(yaml: string): string[] {
  const issues: ConfigIssue[] = [];
  parseI2cSection(parse(yaml) as JsonValue, ['i2c'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

export interface I2cHarness {
  readonly core: Core;
  readonly driver: I2cDriver;
  readonly log: RecordingLogger;
}

/**
 * Starts the I²C driver on a fresh core with the given `i2c:` section and simulated buses (by number);
 * short backoff so recovery shows quickly. Stopped at teardown.
 */
export async function startI2c(
  t: { teardown(fn: () => unknown): void },
  yaml: string,
  buses: FakeI2cBus | readonly FakeI2cBus[],
  /** Runs on the core before the driver starts (to add a conflicting entity, say). */
  before?: (core: Core) => void,
): Promise<I2cHarness> {
  const log = new RecordingLogger();
  const core = new Core({ log });
  before?.(core);
  lightDomain.registerServices(core);
  fanDomain.registerServices(core);
  const issues: ConfigIssue[] = [];
  const config = parseI2cSection(parse(yaml) as JsonValue, ['i2c'], issues);
  if (issues.length > 0) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const byNumber = new Map((Array.isArray(buses) ? buses : [buses]).map((b: FakeI2cBus) => [b.busNumber, b]));
  const driver = new I2cDriver({ core, log, owner: 'i2c', dataDir: '' }, config, {
    openBus: async (n) => {
      const bus = byNumber.get(n);
      if (bus === undefined) throw new Error(`no simulated bus ${n}`);
      return bus;
    },
    backoff: { initialMs: 20, maxMs: 80 },
  });
  await driver.start();
  t.teardown(() => driver.stop());
  return { core, driver, log };
}
