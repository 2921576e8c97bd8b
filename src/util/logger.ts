import { Writable } from 'node:stream';
import pino, { type DestinationStream, type Level } from 'pino';
import type { Logger } from '../core/log.js';
import { ErrorLog, formatLogRecord } from './error-log.js';
import { boundFields, boundText, formatLogMessage, MAX_LOG_MESSAGE } from './log-bounds.js';
import { LogRateLimit, type LogRateOptions } from './log-rate.js';

export const LOG_LEVELS: readonly Level[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/**
 * The levels lines are written at, changed while the hub runs (Home Assistant's `logger:` section and its
 * logger.set_level service): a default, and one level per module (the `module` binding of a child logger: `mqtt`,
 * `recorder`, `automation`...).
 */
export interface LogLevels {
  setDefault(level: Level): void;
  /** undefined: the module follows the default again. */
  setModule(module: string, level: Level | undefined): void;
}

/** At most this many child loggers are followed for level changes (components make a few dozen). */
const MAX_TRACKED_CHILDREN = 10_000;

export interface LoggerBundle {
  readonly log: Logger;
  readonly levels: LogLevels;
  readonly errorLog: ErrorLog;
  /** Flushes buffered lines (call before exit). */
  flush(): void;
}

/**
 * pino's error serializer, with the type taken from the error's `name` rather than its constructor's: the
 * shipped bundle shortens identifiers, class names included (scripts/bundle.mjs), and every error class here
 * names itself, as Node's and the bundled packages' do.
 */
function serializeError(err: Error): ReturnType<typeof pino.stdSerializers.err> {
  const out = pino.stdSerializers.err(err);
  if (err instanceof Error && typeof err.name === 'string') out.type = err.name;
  if (!(err instanceof Error)) return out;
  // An error's message may carry input (an id, a payload): bounded, and the stack's copy of it too.
  const message = typeof out.message === 'string' ? out.message : '';
  if (message.length > MAX_LOG_MESSAGE) {
    out.message = boundText(message, MAX_LOG_MESSAGE);
    if (typeof out.stack === 'string') {
      const at = out.stack.indexOf(message);
      if (at !== -1) out.stack = out.stack.slice(0, at) + out.message + out.stack.slice(at + message.length);
    }
  }
  if (typeof out.stack === 'string') out.stack = boundText(out.stack, MAX_STACK);
  return out;
}

/** Characters of an error's stack. */
const MAX_STACK = 4000;
/** A line longer than this (bindings or a serializer gone wrong) is replaced by a line saying so. */
const MAX_LINE = 16_384;

/** The last guard: a line is never longer than MAX_LINE, whatever its parts were. */
function capLine(line: string): string {
  if (line.length <= MAX_LINE) return line;
  const level = /"level":(\d+)/.exec(line)?.[1] ?? '50';
  const time = /"time":(\d+)/.exec(line)?.[1] ?? String(Date.now());
  const msg = /"msg":"((?:[^"\\]|\\.){0,200})/.exec(line)?.[1] ?? '';
  return `{"level":${level},"time":${time},"msg":"${msg} (a log line of ${line.length} characters, cut)"}\n`;
}

/**
 * JSON lines to stdout (or a given stream) for journald, and warnings and errors also into the in-memory
 * ring behind `/api/error_log`.
 */
export function createLogger(
  options: { level?: Level; destination?: DestinationStream; errorLogSize?: number; rate?: LogRateOptions } = {},
): LoggerBundle {
  const errorLog = new ErrorLog(options.errorLogSize);
  const limit = new LogRateLimit(options.rate);
  const ring = new Writable({
    write(chunk: Buffer, _enc, done) {
      try {
        errorLog.add(formatLogRecord(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>));
      } catch {
        // A line that is not JSON cannot come from pino; ignore it rather than fail logging.
      }
      done();
    },
  });
  const main = options.destination ?? pino.destination({ dest: 1, sync: false });
  // Once stdout is gone (EPIPE: `hearth serve | head`), a synchronous flush would retry forever.
  let destinationFailed = false;
  (main as unknown as NodeJS.EventEmitter).on?.('error', () => {
    destinationFailed = true;
  });
  // The loggers' own levels decide what is written (LogLevels may lower one module's below the default).
  const streams = pino.multistream([
    { level: 'trace', stream: main },
    { level: 'warn', stream: ring },
  ]);
  // Summaries of suppressed lines go through the same method, past the limit.
  let summarizing = false;
  const bypass = (fn: () => void): void => {
    summarizing = true;
    try {
      fn();
    } finally {
      summarizing = false;
    }
  };
  let defaultLevel: Level = options.level ?? 'info';
  const moduleLevels = new Map<string, Level>();
  const children: pino.Logger[] = [];
  const levelOf = (child: pino.Logger): Level => {
    const module = (child.bindings() as { module?: unknown }).module;
    return (typeof module === 'string' ? moduleLevels.get(module) : undefined) ?? defaultLevel;
  };
  const log = pino(
    {
      level: defaultLevel,
      base: undefined,
      onChild(child) {
        if (children.length < MAX_TRACKED_CHILDREN) children.push(child);
        if (moduleLevels.size > 0) child.level = levelOf(child);
      },
      serializers: { err: serializeError },
      hooks: {
        logMethod(args, method, level) {
          const write = (fields: object, msg?: string): void => {
            (method as (...a: unknown[]) => void).apply(this, msg === undefined ? [fields] : [fields, msg]);
          };
          if (summarizing) {
            write(...(args as unknown as [object, string]));
            return;
          }
          const line = parseArgs(args as unknown as unknown[]);
          const chindings = (this as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? '';
          const key = `${level}\u0000${chindings}\u0000${line.template.slice(0, 200)}`;
          const summary = (fields: object, message: string): void => bypass(() => write(fields, message));
          // A kind beyond the table's bounds is summed up by the root logger, at the same level.
          const overflow = (fields: object, message: string): void =>
            bypass(() => (log[pino.levels.labels[level] as Level] as (o: object, m: string) => void).call(log, fields, message));
          if (!limit.admit(level, key, line.template, summary, overflow)) return;
          const fields = line.fields === undefined ? {} : boundFields(line.fields);
          if (line.hasMessage) {
            write(fields, formatLogMessage(line.template, line.params));
            return;
          }
          // pino would take the message of an error whole.
          const err = line.fields instanceof Error ? line.fields : (line.fields as { err?: unknown } | undefined)?.err;
          if (err instanceof Error) write(fields, boundText(err.message, MAX_LOG_MESSAGE));
          else write(fields);
        },
        streamWrite: capLine,
      },
    },
    streams,
  );
  const levels: LogLevels = {
    setDefault(level) {
      defaultLevel = level;
      log.level = level;
      for (const child of children) child.level = levelOf(child);
    },
    setModule(module, level) {
      if (level === undefined) moduleLevels.delete(module);
      else moduleLevels.set(module, level);
      for (const child of children) child.level = levelOf(child);
    },
  };
  return {
    log: log as unknown as Logger,
    levels,
    errorLog,
    flush() {
      limit.flush();
      if (destinationFailed) return;
      const d = main as { flushSync?: () => void };
      try {
        d.flushSync?.();
      } catch {
        // Nothing more can be done about a log that cannot be flushed at exit.
      }
    },
  };
}

/** A call's arguments as pino takes them: fields (optional), then a message template and its values. */
function parseArgs(args: readonly unknown[]): { fields: object | undefined; template: string; hasMessage: boolean; params: unknown[] } {
  const [first, ...rest] = args;
  if (typeof first === 'object' && first !== null) {
    const [msg, ...params] = rest;
    return { fields: first, template: typeof msg === 'string' ? msg : '', hasMessage: msg !== undefined, params };
  }
  return { fields: undefined, template: typeof first === 'string' ? first : String(first), hasMessage: true, params: rest };
}
