import { SerialPortMock } from 'serialport';
import { parse } from 'yaml';
import { parseSerialSection } from '../../drivers/serial/config.js';
import { SerialDriver } from '../../drivers/serial/index.js';
import type { SerialStreamFactory } from '../../drivers/serial/port.js';
import type { ConfigIssue } from '../../src/config/reader.js';
import { Core } from '../../src/core/core.js';
import type { JsonValue } from '../../src/core/json.js';
import { RecordingLogger } from './recording-logger.js';

/**
 * serialport's own mock binding, reached through SerialPortMock.binding: importing
 * @serialport/binding-mock from ESM would load a second copy that serialport does not use.
 */
export const mockBinding = SerialPortMock.binding;

/** Problems the `serial:` validator reports for a YAML section, as "path: message". */
export function serialIssues(yaml: string): string[] {
  const issues: ConfigIssue[] = [];
  parseSerialSection(parse(yaml) as JsonValue, ['serial'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** Streams the driver creates, as SerialPortMock over the mock binding, and a way to wait for one to open. */
export class MockPorts {
  readonly created: SerialPortMock[] = [];
  private readonly waiters = new Set<(port: SerialPortMock) => void>();
  private readonly createWatchers = new Set<() => void>();

  readonly factory: SerialStreamFactory = async ({ path, baudRate }) => {
    const port = new SerialPortMock({ path, baudRate, autoOpen: false });
    this.created.push(port);
    for (const w of [...this.createWatchers]) w();
    port.on('open', () => {
      for (const w of [...this.waiters]) w(port);
    });
    return port;
  };

  /** Resolves once the driver has created `count` streams in all (one per open attempt); rejects after `ms`. */
  createdAtLeast(count: number, ms = 3000): Promise<void> {
    if (this.created.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.createWatchers.delete(watch);
        reject(new Error(`only ${this.created.length} of ${count} open attempts within ${ms} ms`));
      }, ms);
      const watch = () => {
        if (this.created.length < count) return;
        this.createWatchers.delete(watch);
        clearTimeout(timer);
        resolve();
      };
      this.createWatchers.add(watch);
    });
  }

  /** The open stream for `path`, now or when it next opens; rejects after `ms`. */
  opened(path: string, ms = 3000): Promise<SerialPortMock> {
    const open = this.created.find((p) => p.path === path && p.isOpen);
    if (open !== undefined) return Promise.resolve(open);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${path} did not open within ${ms} ms`));
      }, ms);
      const waiter = (port: SerialPortMock) => {
        if (port.path !== path) return;
        this.waiters.delete(waiter);
        clearTimeout(timer);
        resolve(port);
      };
      this.waiters.add(waiter);
    });
  }
}

/** Bytes arriving on an open mock port, as the device would send them. */
export function send(port: SerialPortMock, data: Buffer | string): void {
  const binding = port.port;
  if (binding === undefined) throw new Error(`${port.path} is not open`);
  binding.emitData(data);
}

export interface SerialHarness {
  readonly core: Core;
  readonly driver: SerialDriver;
  readonly log: RecordingLogger;
  readonly ports: MockPorts;
}

/** Starts the serial driver on a fresh core over SerialPortMock, with short backoff; stopped at teardown. */
export async function startSerial(
  t: { teardown(fn: () => unknown): void },
  yaml: string,
  /** Runs on the core before the driver starts (to add a conflicting entity, say). */
  before?: (core: Core) => void,
): Promise<SerialHarness> {
  const log = new RecordingLogger();
  const core = new Core({ log });
  before?.(core);
  const issues: ConfigIssue[] = [];
  const config = parseSerialSection(parse(yaml) as JsonValue, ['serial'], issues);
  if (issues.length > 0) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const ports = new MockPorts();
  const driver = new SerialDriver({ core, log, owner: 'serial', dataDir: '' }, config, {
    factory: ports.factory,
    backoff: { initialMs: 20, maxMs: 80 },
  });
  await driver.start();
  t.teardown(() => driver.stop());
  return { core, driver, log, ports };
}
