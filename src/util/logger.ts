import { Writable } from 'node:stream';
import pino, { type DestinationStream, type Level } from 'pino';
import type { Logger } from '../core/log.js';
import { ErrorLog, formatLogRecord } from './error-log.js';

export const LOG_LEVELS: readonly Level[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

export interface LoggerBundle {
  readonly log: Logger;
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
  return out;
}

/**
 * JSON lines to stdout (or a given stream) for journald, and warnings and errors also into the in-memory
 * ring behind `/api/error_log`.
 */
export function createLogger(options: { level?: Level; destination?: DestinationStream; errorLogSize?: number } = {}): LoggerBundle {
  const errorLog = new ErrorLog(options.errorLogSize);
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
  const streams = pino.multistream([
    { level: options.level ?? 'info', stream: main },
    { level: 'warn', stream: ring },
  ]);
  const log = pino({ level: options.level ?? 'info', base: undefined, serializers: { err: serializeError } }, streams);
  return {
    log: log as unknown as Logger,
    errorLog,
    flush() {
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
