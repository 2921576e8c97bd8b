/** The logging surface core and drivers need; pino's Logger satisfies it. */
export interface LogFn {
  (obj: object, msg?: string): void;
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
