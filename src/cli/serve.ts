import type { Level } from 'pino';
import type { Logger } from '../core/log.js';
import { exposedGc } from '../hub/heap-trim.js';
import type { Hub } from '../hub.js';
import { CODE_CACHE_MOMENT } from './code-cache.js';
import { ParsedConfigCache } from './config-cache.js';
import { setServeV8Flags } from './serve-flags.js';
import { holdOptimizingCompiler } from './start-up-compiler.js';
import { createSystemdNotifier } from './systemd-notify.js';
import { DEFAULT_DATA_DIR, EXIT_FAILURE, EXIT_OK, optionalString, parseCommandArgs, SERVE_USAGE, UsageError } from './usage.js';

const LEVELS: readonly Level[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
/** How long a stop may take before the process exits anyway (systemd's TimeoutStopSec is longer). */
export const STOP_DEADLINE_MS = 5_000;

interface ServeOptions {
  readonly config: string | null;
  readonly dataDir: string;
  readonly host: string | undefined;
  readonly port: number | undefined;
  readonly level: Level;
}

function parseServeArgs(args: readonly string[]): ServeOptions | 'help' {
  const { values } = parseCommandArgs(
    args,
    {
      config: { type: 'string' },
      data: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'log-level': { type: 'string' },
    },
    SERVE_USAGE,
  );
  if (values.help) return 'help';
  const portText = optionalString(values, 'port');
  let port: number | undefined;
  if (portText !== undefined) {
    port = /^\d{1,5}$/.test(portText) ? Number(portText) : Number.NaN;
    if (!(port >= 0 && port <= 65535))
      throw new UsageError(`--port ${JSON.stringify(portText)} is not allowed: expected an integer from 0 to 65535`, SERVE_USAGE);
  }
  const level = optionalString(values, 'log-level') ?? 'info';
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new UsageError(`--log-level ${JSON.stringify(level)} is not allowed: expected one of ${LEVELS.join(', ')}`, SERVE_USAGE);
  }
  const host = optionalString(values, 'host');
  if (host === '') throw new UsageError('--host must not be empty', SERVE_USAGE);
  return {
    config: optionalString(values, 'config') ?? null,
    dataDir: optionalString(values, 'data') ?? DEFAULT_DATA_DIR,
    host,
    port,
    level: level as Level,
  };
}

/**
 * `hearth serve`: loads the configuration, starts the hub and runs until SIGTERM or SIGINT. Exits the
 * process itself (0 after a clean stop, 1 when it cannot start or stop), so it never returns normally.
 */
export async function serveCommand(args: readonly string[]): Promise<number> {
  const options = parseServeArgs(args);
  if (options === 'help') {
    process.stdout.write(SERVE_USAGE);
    return EXIT_OK;
  }
  // Before the heavy modules load: nothing is optimized until the hub serves (start-up-compiler.ts says why).
  // The built hub's launcher keeps the code compiled so far for the next start (launch.ts), under the flags it
  // compiled with: once the hub serves, or before the optimizer comes back on if that is sooner (a slow start).
  let kept = false;
  const keptWrites: Promise<void>[] = [];
  const keepCompiledCode = (): void => {
    if (kept) return;
    kept = true;
    (process as NodeJS.EventEmitter).emit(CODE_CACHE_MOMENT, keptWrites);
  };
  setServeV8Flags(process.execArgv);
  const compiler = holdOptimizingCompiler(process.execArgv, process.env.NODE_OPTIONS, undefined, keepCompiledCode);
  // The heavy modules load only here, so `hearth token` and `--help` stay quick.
  const [
    { readConfigOrReport },
    { Hub },
    { SECTION_VALIDATORS, REQUIRED_SECTIONS },
    { createLogger },
    { nativeUwsProblem },
    { HUB_VERSION },
  ] = await Promise.all([
    import('./config-problems.js'),
    import('../hub.js'),
    import('../sections.js'),
    import('../util/logger.js'),
    import('../http/uws.js'),
    import('../version.js'),
  ]);

  // A problem in one part's section leaves that part off (the hub names it); the rest of the home still runs.
  const parsedBefore = ParsedConfigCache.in(options.dataDir);
  const config = await readConfigOrReport(options.config, SECTION_VALIDATORS, process.stderr, REQUIRED_SECTIONS, parsedBefore);
  if (config === undefined) return exitNow(EXIT_FAILURE);
  const uwsProblem = nativeUwsProblem();
  if (uwsProblem !== undefined) {
    process.stderr.write(`hearth: ${uwsProblem}\n`);
    return exitNow(EXIT_FAILURE);
  }

  const { log, levels, errorLog, flush } = createLogger({ level: options.level });
  const exit = (code: number): never => {
    flush();
    process.exit(code);
  };
  process.on('uncaughtException', (err) => {
    // stdout (the log) is gone: nothing can be logged, and flushing would retry the write forever.
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') process.exit(EXIT_FAILURE);
    log.fatal({ err }, 'uncaught exception; exiting');
    exit(EXIT_FAILURE);
  });
  process.on('unhandledRejection', (err) => {
    log.fatal({ err }, 'unhandled promise rejection; exiting');
    exit(EXIT_FAILURE);
  });

  // Harmless outside systemd: without NOTIFY_SOCKET it does nothing. The watchdog pings start now, since
  // start-up runs on the same loop a watchdog is meant to watch.
  const notifier = createSystemdNotifier({ log });

  let hub: Hub | undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ signal }, `${signal} again while stopping; exiting now`);
      exit(EXIT_FAILURE);
    }
    stopping = true;
    log.info({ signal }, `${signal} received; stopping`);
    notifier.stopping(`stopping (${signal})`);
    setTimeout(() => {
      log.error({ deadlineMs: STOP_DEADLINE_MS }, `hub did not stop within ${STOP_DEADLINE_MS / 1000} s; forcing exit`);
      exit(EXIT_FAILURE);
    }, STOP_DEADLINE_MS).unref();
    // A signal during start-up: nothing is serving yet, and every file write is atomic, so just go.
    const running = hub;
    if (running === undefined) {
      exit(EXIT_OK);
      return;
    }
    running.stop().then(
      () => {
        log.info('hearth stopped');
        exit(EXIT_OK);
      },
      (err: unknown) => {
        log.error({ err }, 'hub failed to stop cleanly');
        exit(EXIT_FAILURE);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  log.info(
    { version: HUB_VERSION, config: config.path ?? 'bundled demo', dataDir: options.dataDir, node: process.version },
    `hearth ${HUB_VERSION} starting`,
  );
  try {
    hub = await Hub.start({ config, dataDir: options.dataDir, log, errorLog, host: options.host, port: options.port, logLevels: levels });
  } catch (err) {
    reportStartFailure(err, log, options);
    return exit(EXIT_FAILURE);
  }
  if (hub.auth.listTokens().length === 0) {
    log.warn(
      { dataDir: options.dataDir },
      `no access tokens yet; create one with: npx hearth token create --data ${options.dataDir} --name NAME`,
    );
  }
  log.info({ port: hub.port }, 'hearth started');
  // The API listens and the drivers were started (Hub.start resolves after both).
  notifier.ready(`serving the API on port ${hub.port}`);
  keepCompiledCode();
  compiler.serving();
  // What start-up left behind (the configuration's text and parse, the bundle's source as read, first compiles) is
  // given back once the serving hub's loop is first quiet: one compacting collection, with --expose-gc as the unit
  // runs it (heap-trim.ts). About 2 MB of an idle demo's RSS (docs/performance.md). Once the code cache is written,
  // too: its bytes, held until then, are some 3 MB more (code-cache.ts).
  // The configuration as parsed, when it was parsed anew (only the next start's speed depends on it).
  keptWrites.push(parsedBefore.save().catch(() => {}));
  void Promise.all([compiler.released, ...keptWrites]).then(() => setImmediate(() => exposedGc()?.()));
  // Runs until a signal; exit() ends the process.
  return new Promise<number>(() => {});
}

function reportStartFailure(err: unknown, log: Logger, options: ServeOptions): void {
  const message = err instanceof Error ? err.message : String(err);
  if (/^Cannot listen on/.test(message)) {
    const hint = 'Is another hearth or Home Assistant running there? Stop it, or choose another --port (or hub.port in the configuration).';
    process.stderr.write(`hearth: ${message}. ${hint}\n`);
    log.fatal({ host: options.host, port: options.port }, message);
    return;
  }
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EROFS' || code === 'ENOSPC') {
    process.stderr.write(`hearth: cannot use the data directory ${options.dataDir}: ${message}\n`);
    log.fatal({ dataDir: options.dataDir, code }, 'cannot use the data directory');
    return;
  }
  process.stderr.write(`hearth: failed to start: ${message}\n`);
  log.fatal({ err }, 'failed to start');
}

function exitNow(code: number): never {
  process.exit(code);
}
