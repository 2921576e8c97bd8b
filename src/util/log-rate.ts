import { templateShape } from './log-bounds.js';

/** How a suppressed kind of line is summed up at the end of its window: at its level, through its own logger. */
export type SummaryWriter = (fields: object, message: string) => void;

interface Tally {
  passed: number;
  suppressed: number;
  readonly template: string;
  readonly write: SummaryWriter;
}

export interface LogRateOptions {
  /** Length of a window (ms): each kind of line has its allowance per window. */
  readonly windowMs?: number;
  /** Lines of one kind let through per window at warning level and above. */
  readonly warnBurst?: number;
  /** Lines of one kind let through per window below warning level (start-up reports a line per device). */
  readonly infoBurst?: number;
  /** Kinds counted at once; lines of kinds beyond these share one allowance. */
  readonly maxKinds?: number;
  /** Milliseconds now (tests pass a manual clock). */
  readonly now?: () => number;
  /** Runs `fn` after `ms` (tests pass a manual scheduler); the default is an unref'd timer. */
  readonly timeout?: (fn: () => void, ms: number) => void;
}

const WARN_LEVEL = 40;

/**
 * Rate limit of log lines per kind: a kind (level, logger bindings, message template) passes its allowance in
 * each window; further lines of it are counted, not written, and summed up in one line when the window ends
 * ("… and 57 more like this in the last minute"). The number of kinds counted is bounded too: input that
 * makes every line a kind of its own shares one allowance once the table is full.
 */
export class LogRateLimit {
  private readonly tallies = new Map<string, Tally>();
  private windowEnd = 0;
  private timerSet = false;
  private readonly windowMs: number;
  private readonly warnBurst: number;
  private readonly infoBurst: number;
  private readonly maxKinds: number;
  private readonly now: () => number;
  private readonly timeout: (fn: () => void, ms: number) => void;

  constructor(options: LogRateOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000;
    this.warnBurst = options.warnBurst ?? 10;
    this.infoBurst = options.infoBurst ?? 100;
    this.maxKinds = options.maxKinds ?? 500;
    this.now = options.now ?? Date.now;
    this.timeout =
      options.timeout ??
      ((fn, ms) => {
        setTimeout(fn, ms).unref();
      });
  }

  /**
   * True when a line of this kind may be written now. `key` tells kinds apart; `template` names the kind in a
   * summary; `write` writes that summary.
   */
  admit(level: number, key: string, template: string, write: SummaryWriter, overflowWrite: SummaryWriter): boolean {
    const now = this.now();
    if (now >= this.windowEnd) {
      this.flush();
      this.windowEnd = now + this.windowMs;
    }
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      if (this.tallies.size >= this.maxKinds) {
        const overflow = level >= WARN_LEVEL ? '\u0000warn' : '\u0000info';
        tally = this.tallies.get(overflow);
        if (tally === undefined) {
          tally = { passed: 0, suppressed: 0, template: 'log lines of other kinds', write: overflowWrite };
          this.tallies.set(overflow, tally);
        }
      } else {
        tally = { passed: 0, suppressed: 0, template, write };
        this.tallies.set(key, tally);
      }
    }
    if (tally.passed < (level >= WARN_LEVEL ? this.warnBurst : this.infoBurst)) {
      tally.passed++;
      return true;
    }
    tally.suppressed++;
    if (!this.timerSet) this.arm(now);
    return false;
  }

  /** A timer for the end of the window, so a summary is written even when no line comes after it. */
  private arm(now: number): void {
    this.timerSet = true;
    this.timeout(
      () => {
        this.timerSet = false;
        const at = this.now();
        if (this.windowEnd === 0) return;
        if (at >= this.windowEnd) this.flush();
        else this.arm(at);
      },
      Math.max(1, this.windowEnd - now),
    );
  }

  /** Writes the summary of every kind that had lines suppressed, and starts a new window. */
  flush(): void {
    const tallies = [...this.tallies.values()];
    this.tallies.clear();
    this.windowEnd = 0;
    const span = this.windowMs === 60_000 ? 'minute' : `${this.windowMs / 1000} s`;
    for (const t of tallies) {
      if (t.suppressed === 0) continue;
      t.write({ suppressed: t.suppressed }, `… and ${t.suppressed} more like this in the last ${span}: ${templateShape(t.template)}`);
    }
  }
}
