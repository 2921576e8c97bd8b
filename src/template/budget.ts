/**
 * The hub's time budget for templates (docs/templates.md, "Time budget"). nunjucks renders synchronously on
 * the event loop, so a template's time is the loop's time; the budget bounds it four ways:
 *
 * - each render (compiling included) stops at `renderMs`;
 * - a source (an automation, a template entity, a render_template subscription, an adopted MQTT entity...)
 *   whose renders run out of that time twice in a row is suspended: its renders fail at once, without running,
 *   until its owner resumes it (its input or its configuration changed); one warning says so;
 * - a source, and each group above it (the WebSocket connection of a subscription, the hub), may render for
 *   at most its share of any second;
 * - work that can wait (re-renders, runs of automations, messages of MQTT entities with templates, API
 *   requests) starts only while the current turn of the event loop has room for a whole render (`turnMs`)
 *   and the hub's share has room; the rest waits for a later turn, in order.
 */

/** The budget's figures, in milliseconds (TemplateLimits carries them). */
export interface BudgetLimits {
  readonly renderMs: number;
  readonly turnMs: number;
  readonly sourceShareMs: number;
  readonly hubShareMs: number;
}

const BUCKET_MS = 50;
/** A second in 50 ms buckets, plus the bucket now filling: every window of one second ending now lies inside them. */
const BUCKETS = 21;
const WINDOW_MS = (BUCKETS - 1) * BUCKET_MS;

/**
 * Render time over the last second, in 50 ms buckets (a fixed ring: no allocation per render). `used` is a
 * running total, so checking and charging cost a few additions.
 */
export class Share {
  private readonly ms = new Float64Array(BUCKETS);
  private readonly bucketOf = new Float64Array(BUCKETS).fill(-1);
  private total = 0;
  private head = -1;

  constructor(readonly capMs: number) {}

  /** Render time in the window ending at `now` (performance.now()). */
  used(now: number): number {
    this.advance(Math.floor(now / BUCKET_MS));
    return this.total;
  }

  charge(now: number, ms: number): void {
    const bucket = Math.floor(now / BUCKET_MS);
    this.advance(bucket);
    const i = bucket % BUCKETS;
    if (this.bucketOf[i] !== bucket) {
      this.total -= this.ms[i] as number;
      this.ms[i] = 0;
      this.bucketOf[i] = bucket;
    }
    this.ms[i] = (this.ms[i] as number) + ms;
    this.total += ms;
  }

  /** Milliseconds from `now` until `need` more fits in the share (0: it fits now). */
  waitFor(now: number, need: number): number {
    let excess = this.used(now) + need - this.capMs;
    if (excess <= 0) return 0;
    const order = [...this.bucketOf.keys()]
      .filter((i) => (this.ms[i] as number) > 0)
      .sort((a, b) => (this.bucketOf[a] as number) - (this.bucketOf[b] as number));
    for (const i of order) {
      excess -= this.ms[i] as number;
      if (excess <= 0) return Math.max(1, ((this.bucketOf[i] as number) + BUCKETS) * BUCKET_MS - now);
    }
    return WINDOW_MS;
  }

  private advance(bucket: number): void {
    if (bucket <= this.head) return;
    const oldest = bucket - (BUCKETS - 1);
    for (let i = 0; i < BUCKETS; i++) {
      if ((this.bucketOf[i] as number) < oldest && (this.ms[i] as number) !== 0) {
        this.total -= this.ms[i] as number;
        this.ms[i] = 0;
      }
    }
    if (this.total < 1e-9) this.total = 0;
    this.head = bucket;
  }
}

export interface SourceOptions {
  /** Who renders, for the warning and errors: `automation.lights`, `sensor.average`, `render_template 12`. */
  readonly name: string;
  /** A group whose share the source also counts against (a subscription's WebSocket connection). */
  readonly parent?: RenderSource;
  /**
   * Whether a render that runs out of time suspends the source (default true). Sources whose every render is
   * another template (POST /api/template, a connection) are not suspended: their share bounds them.
   */
  readonly suspends?: boolean;
  /** What resumes it, for the messages: `an entity it read changes`, `its configuration changes`. */
  readonly until?: string;
  /** Told once per episode (until a render succeeds again): the source was suspended, or its share ran out. */
  readonly onWarning?: (message: string) => void;
}

/**
 * One user of templates, as the budget accounts for it. Two renders in a row stopped at the deadline suspend it
 * (one could be the machine's fault: a GC pause, another process); after a resume, one more does.
 */
export class RenderSource {
  readonly share: Share;
  private suspendedFor: string | undefined;
  private strikes = 0;
  private warned = false;

  constructor(
    private readonly budget: TemplateBudget,
    private readonly options: SourceOptions,
  ) {
    this.share = new Share(budget.limits.sourceShareMs);
  }

  get name(): string {
    return this.options.name;
  }

  get parent(): RenderSource | undefined {
    return this.options.parent;
  }

  /** Why renders fail at once (undefined: they run). */
  get suspension(): string | undefined {
    return this.suspendedFor;
  }

  /** The input or the configuration changed: renders run again. */
  resume(): void {
    if (this.suspendedFor === undefined) return;
    this.suspendedFor = undefined;
    this.strikes = 1;
  }

  /** A render was stopped at the deadline. */
  timedOut(): void {
    if (this.options.suspends === false || this.suspendedFor !== undefined) return;
    this.strikes++;
    if (this.strikes < 2) return;
    const until = this.options.until ?? 'its configuration changes';
    const limit = this.budget.limits.renderMs;
    this.suspendedFor = `suspended: its renders took longer than ${limit} ms and were stopped; until ${until}`;
    this.warn(`${this.name}: templates took longer than ${limit} ms and were stopped; its templates are suspended until ${until}`);
  }

  /** A warning, once until a render succeeds again. */
  warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.options.onWarning?.(message);
  }

  succeeded(): void {
    this.strikes = 0;
    this.warned = false;
  }
}

type Job = () => void;

/** Render time in a turn from which its end is watched for (TemplateBudget.charge). */
const TURN_CHECK_MS = 1;

/**
 * The budget of one template engine (the hub's): the hub's share, the current turn's render time, and the
 * renders waiting for room, in order, each job at most once (a job queued again before it ran runs once).
 */
export class TemplateBudget {
  readonly hub: Share;
  private turnUsed = 0;
  /** Room promised in this turn to runs let go (ready()), which render after the drain that let them go. */
  private turnPromised = 0;
  private turnOpen = false;
  private readonly waiting = new Map<Job, RenderSource | undefined>();
  private wakeTimer: NodeJS.Timeout | undefined;
  private drainQueued = false;

  constructor(
    readonly limits: BudgetLimits,
    /** A job that threw later (a job run at once throws to its caller). */
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.hub = new Share(limits.hubShareMs);
  }

  source(options: SourceOptions): RenderSource {
    return new RenderSource(this, options);
  }

  /** Whether a render of `source` may start a stretch now: room in this turn for a whole render, and in every share. */
  canStart(source: RenderSource | undefined, now = performance.now()): boolean {
    const need = this.limits.renderMs;
    if (this.turnFull() || this.hub.used(now) + need > this.hub.capMs) return false;
    for (let s = source; s !== undefined; s = s.parent) if (s.share.used(now) + need > s.share.capMs) return false;
    return true;
  }

  /**
   * Why a render is refused now (undefined: it may run): its source (or a group of it) has used its share of
   * the last second. Only a source that renders heavily and often meets this; the turn and the hub's share
   * decide when waiting work starts (canStart), never whether a render runs.
   */
  refusal(source: RenderSource | undefined, now: number): string | undefined {
    const { renderMs } = this.limits;
    for (let s = source; s !== undefined; s = s.parent) {
      if (s.share.used(now) + renderMs > s.share.capMs) {
        return `refused: ${s.name} rendered templates for more than ${s.share.capMs - renderMs} ms in the last second`;
      }
    }
    return undefined;
  }

  /**
   * Counts a render's time against the turn, its source, the source's groups and the hub. The turn ends in an
   * immediate, queued once it has rendered for a millisecond: ordinary renders take microseconds, and an
   * immediate per turn would cost them more than the rest of the budget; until then, time carries over to the
   * next turn, which only ever makes the turn look fuller than it is.
   */
  charge(source: RenderSource | undefined, now: number, ms: number): void {
    this.turnUsed += ms;
    if (this.turnUsed >= TURN_CHECK_MS) this.watchTurnEnd();
    for (let s = source; s !== undefined; s = s.parent) s.share.charge(now, ms);
    this.hub.charge(now, ms);
  }

  /**
   * Runs `job` (which renders for `source`) now when it may start, else once it may, in order with the others
   * waiting. A job already waiting is not queued twice.
   */
  run(source: RenderSource | undefined, job: Job): void {
    if (this.waiting.has(job)) return;
    // Jobs already waiting wait for their own share, or for the next turn, which canStart refuses too.
    if (this.canStart(source)) {
      job();
      return;
    }
    this.waiting.set(job, source);
    this.schedule();
  }

  /**
   * undefined when a render of `source` may start now; else a promise that resolves when it may. A run let go
   * renders after the drain that let it go, so it is promised a whole render of the turn: one a turn.
   */
  ready(source: RenderSource | undefined): Promise<void> | undefined {
    if (this.canStart(source)) return undefined;
    return new Promise((resolve) => {
      const letGo = (): void => {
        this.turnPromised += this.limits.renderMs;
        this.watchTurnEnd();
        resolve();
      };
      this.waiting.set(letGo, source);
      this.schedule();
    });
  }

  /** Forgets a job that no longer needs to run (its subscription or entity stopped). */
  cancel(job: Job): void {
    this.waiting.delete(job);
  }

  /** Jobs waiting for room (bounded by the sources: each job is queued once). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  private turnFull(): boolean {
    return this.turnUsed + this.turnPromised + this.limits.renderMs > this.limits.turnMs;
  }

  private watchTurnEnd(): void {
    if (this.turnOpen) return;
    this.turnOpen = true;
    setImmediate(this.endTurn);
  }

  private readonly endTurn = (): void => {
    this.turnUsed = 0;
    this.turnPromised = 0;
    this.turnOpen = false;
    this.drain();
  };

  private schedule(): void {
    // A turn that rendered for a while ends in an immediate, which drains; otherwise one is queued here.
    if (this.turnOpen || this.drainQueued) return;
    this.drainQueued = true;
    setImmediate(() => {
      this.drainQueued = false;
      this.drain();
    });
  }

  /** Runs waiting jobs in order while the turn has room; a source out of share is skipped until it has some. */
  private drain(): void {
    if (this.wakeTimer !== undefined) {
      clearTimeout(this.wakeTimer);
      this.wakeTimer = undefined;
    }
    let wake = Number.POSITIVE_INFINITY;
    for (const [job, source] of this.waiting) {
      if (this.turnFull()) {
        // The turn is full: the immediate that ends it (queued by the charge) carries on.
        this.schedule();
        return;
      }
      const now = performance.now();
      const wait = this.waitFor(source, now);
      if (wait > 0) {
        wake = Math.min(wake, wait);
        continue;
      }
      this.waiting.delete(job);
      try {
        job();
      } catch (err) {
        this.onError(err);
      }
    }
    if (this.waiting.size > 0 && Number.isFinite(wake)) {
      // Not unref'd: work is waiting (a process with nothing else to do would end with it undone).
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = undefined;
        this.drain();
      }, wake);
    }
  }

  /** Milliseconds until a whole render of `source` fits in its share, its groups' and the hub's. */
  private waitFor(source: RenderSource | undefined, now: number): number {
    const need = this.limits.renderMs;
    let wait = this.hub.waitFor(now, need);
    for (let s = source; s !== undefined; s = s.parent) wait = Math.max(wait, s.share.waitFor(now, need));
    return wait;
  }
}
