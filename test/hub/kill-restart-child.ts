/**
 * The hub the kill -9 test starts and kills. It loads its modules and the configuration CONFIG_FILE, prints
 * `loaded`, and waits for one line `go <offset_us> <mint>` on stdin: so the test keeps a spare loaded while the
 * current hub runs, and a kill "during start-up" lands in what reads the data files rather than in tsx's module
 * loading. Then it starts a whole hub (Hub.start, as `hearth serve` does) on DATA_DIR, listening on 127.0.0.1
 * with a free port, on a clock `offset_us` microseconds ahead of the system's, so the test can put an hour's end
 * (an hourly seal) or a day's end (a compaction) a moment into any run. With mint=1 it makes the owner and a
 * long-lived token (the first run only). It exits when stdin closes, so no hub outlives the test.
 *
 *   node --import tsx test/hub/kill-restart-child.ts DATA_DIR CONFIG_FILE
 *
 * (The test runs it bundled by esbuild: see bundleChild in kill-restart-process.ts.)
 *
 * Lines on stdout:
 * - `loaded`, `token <token>` (mint=1), `ready <port>` (the API serves and the drivers started);
 * - `flushed <us>` / `committed <us>`: a restore-state flush / a recorder commit or seal asked for at hub time
 *   `<us>` completed without a failed write, so every change made before `<us>` is on disk (what it printed
 *   before the kill must survive it);
 * - `log <level> <json>` for each warning or error the hub logs (the test fails on those saying a file was torn
 *   or moved aside).
 */
import { createInterface } from 'node:readline';
import { loadConfig } from '../../src/config/load.js';
import { systemClock } from '../../src/core/clock.js';
import type { LogFn, Logger } from '../../src/core/log.js';
import { Hub, SECTION_VALIDATORS } from '../../src/hub.js';

const [dataDir, configFile] = process.argv.slice(2);
if (dataDir === undefined || configFile === undefined) throw new Error('usage: kill-restart-child.ts DATA_DIR CONFIG_FILE');
const out = (line: string) => process.stdout.write(`${line}\n`);

function lineLogger(bindings: Record<string, unknown>): Logger {
  const quiet: LogFn = () => {};
  const loud =
    (level: string): LogFn =>
    (a: object | string, b?: string) => {
      const obj = typeof a === 'string' ? {} : a;
      const err = (obj as { err?: unknown }).err;
      const msg = typeof a === 'string' ? a : (b ?? '');
      out(`log ${level} ${JSON.stringify({ ...bindings, msg, ...(err instanceof Error ? { err: err.message } : {}) })}`);
    };
  return {
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: loud('warn'),
    error: loud('error'),
    fatal: loud('fatal'),
    child: (more) => lineLogger({ ...bindings, ...more }),
  };
}

const config = await loadConfig(configFile, SECTION_VALIDATORS);
const lines = createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
const go = await new Promise<string>((resolve) => {
  lines.once('line', resolve);
  out('loaded');
});
const [, offsetArg, mintArg] = go.split(' ');
const offsetUs = Number(offsetArg);
const clock = { now: () => systemClock.now() + offsetUs };

const hub = await Hub.start({ config, dataDir, log: lineLogger({}), host: '127.0.0.1', port: 0, clock });

/**
 * Reports each write that completed. Both are public methods their own timers call through `this`, so the wrapper
 * sees every timed write and changes nothing in it (the test fails when it sees none).
 */
function observe(target: object, method: 'flush' | 'tick', stats: { failedWrites: number }, line: string): void {
  const original = (target as Record<string, () => Promise<void>>)[method] as () => Promise<void>;
  const observed = function (this: unknown): Promise<void> {
    const at = clock.now();
    const failedBefore = stats.failedWrites;
    const done = original.call(this);
    void done.then(() => {
      if (stats.failedWrites === failedBefore) out(`${line} ${at}`);
    });
    return done;
  };
  Object.defineProperty(target, method, { value: observed, configurable: true, writable: true });
}
observe(hub.restoreState, 'flush', hub.restoreState.stats, 'flushed');
if (hub.recorder !== undefined) observe(hub.recorder, 'tick', hub.recorder.stats, 'committed');

if (mintArg === '1') {
  const owner = await hub.auth.ensureOwner('Kill Test');
  out(`token ${await hub.auth.createToken(owner.id, 'kill-test')}`);
}
out(`ready ${hub.port}`);
