import type { LogFn, Logger } from '../../src/core/log.js';
import { formatLogMessage } from '../../src/util/log-bounds.js';

export interface LogLine {
  readonly level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  readonly msg: string;
  readonly obj: Readonly<Record<string, unknown>>;
}

/** A logger that keeps every line (with its child bindings merged in), for asserting what was logged and how often. */
export class RecordingLogger implements Logger {
  readonly trace: LogFn;
  readonly debug: LogFn;
  readonly info: LogFn;
  readonly warn: LogFn;
  readonly error: LogFn;
  readonly fatal: LogFn;

  constructor(
    readonly lines: LogLine[] = [],
    private readonly bindings: Readonly<Record<string, unknown>> = {},
    private readonly watchers: Set<(line: LogLine) => void> = new Set(),
  ) {
    const at =
      (level: LogLine['level']): LogFn =>
      (objOrMsg: object | string, msg?: string, ...values: unknown[]) => {
        const line: LogLine =
          typeof objOrMsg === 'string'
            ? { level, msg: objOrMsg, obj: { ...this.bindings } }
            : { level, msg: formatLogMessage(msg ?? '', values), obj: { ...this.bindings, ...(objOrMsg as Record<string, unknown>) } };
        this.lines.push(line);
        for (const w of [...this.watchers]) w(line);
      };
    this.trace = at('trace');
    this.debug = at('debug');
    this.info = at('info');
    this.warn = at('warn');
    this.error = at('error');
    this.fatal = at('fatal');
  }

  child(bindings: Record<string, unknown>): Logger {
    return new RecordingLogger(this.lines, { ...this.bindings, ...bindings }, this.watchers);
  }

  /** Resolves with the first line (already logged or to come) at `level` containing `text`; rejects after `ms`. */
  waitFor(level: LogLine['level'], text: string, ms = 3000): Promise<LogLine> {
    const done = this.matching(level, text)[0];
    if (done !== undefined) return Promise.resolve(done);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(watch);
        reject(new Error(`no ${level} line containing ${JSON.stringify(text)} within ${ms} ms`));
      }, ms);
      const watch = (line: LogLine) => {
        if (line.level !== level || !line.msg.includes(text)) return;
        this.watchers.delete(watch);
        clearTimeout(timer);
        resolve(line);
      };
      this.watchers.add(watch);
    });
  }

  /** Lines at `level` whose message contains `text`. */
  matching(level: LogLine['level'], text: string): LogLine[] {
    return this.lines.filter((l) => l.level === level && l.msg.includes(text));
  }
}
