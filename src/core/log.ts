/**
 * The logging surface core and drivers need; pino's Logger satisfies it. Values from outside go into the
 * fields or, through `%s`, into the message (`log.warn({ entity_id: ids }, 'Referenced entities %s are
 * missing', ids)`), never into the template itself: the logger bounds each value (a list reads "a, b and
 * 9,990 more") and rate-limits lines per template, so a flood of one kind of line is summed up, not written.
 */
export interface LogFn {
  (obj: object, msg?: string, ...values: unknown[]): void;
  (msg: string): void;
}
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

/** A logger that drops everything (unit tests). */
export const silentLogger: Logger = {
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
  fatal() {},
  child() {
    return silentLogger;
  },
};
