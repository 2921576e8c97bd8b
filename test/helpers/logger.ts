import type { Logger } from '../../src/core/log.js';
import { formatLogMessage } from '../../src/util/log-bounds.js';

export interface LogEntry {
  readonly level: string;
  readonly msg: string;
}

/** A logger that keeps what it is told, so tests can assert Home Assistant's log messages. */
export function memoryLogger(entries: LogEntry[] = []): Logger & { entries: LogEntry[] } {
  const at =
    (level: string) =>
    (a: object | string, b?: string, ...values: unknown[]): void => {
      entries.push({ level, msg: typeof a === 'string' ? a : formatLogMessage(b ?? '', values) });
    };
  const log: Logger & { entries: LogEntry[] } = {
    entries,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    child: () => log,
  };
  return log;
}
