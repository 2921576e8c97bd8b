import type { LogFn, Logger } from '../core/log.js';
import { formatLogMessage } from '../util/log-bounds.js';

/**
 * A Logger for the short-lived commands (token ...): warnings and errors go to stderr as plain
 * `hearth: message` lines, so stdout keeps only the command's output.
 */
export function stderrLogger(): Logger {
  const quiet: LogFn = () => {};
  const loud: LogFn = (a: object | string, b?: string, ...values: unknown[]) => {
    const msg = typeof a === 'string' ? a : formatLogMessage(b ?? '', values);
    const err = typeof a === 'object' ? (a as { err?: unknown }).err : undefined;
    const detail = err instanceof Error ? `: ${err.message}` : '';
    process.stderr.write(`hearth: ${msg}${detail}\n`);
  };
  const log: Logger = { trace: quiet, debug: quiet, info: quiet, warn: loud, error: loud, fatal: loud, child: () => log };
  return log;
}
