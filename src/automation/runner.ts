import type { Micros } from '../core/clock.js';
import type { Context } from '../core/context.js';
import type { JsonObject } from '../core/json.js';
import type { RunTrace, ScriptExecution } from '../trace/trace.js';
import { Halt, Run, type RunOutcome, runSequence } from './actions.js';
import type { Action, RunPolicy } from './model.js';
import type { TemplateVars } from './templating.js';
import type { TriggerEnv } from './triggers.js';

export interface RunResult {
  readonly outcome: RunOutcome;
  /** What a `stop` action with response_variable returned. */
  readonly response: JsonObject | null;
  /** Why the run failed, for the caller of `script.<name>`. */
  readonly error?: string;
  /** What first went wrong in a failed run (see Halt.rootCause). */
  readonly cause?: unknown;
}

export interface StartOptions {
  readonly variables: TemplateVars;
  readonly context: Context;
  readonly triggerId?: string;
  /** Called once the mode accepted the run, before it starts (automations fire `automation_triggered`). */
  readonly onAccepted?: () => void;
  /** The run's trace: its steps are recorded there, and it is finished with the run's outcome (or the refusal). */
  readonly trace?: RunTrace;
}

/** Home Assistant's script_execution for each way a run ends. */
const EXECUTION: Record<RunOutcome, ScriptExecution> = {
  finished: 'finished',
  // A `stop` action ends the script normally.
  stopped: 'finished',
  condition_failed: 'aborted',
  aborted: 'cancelled',
  failed: 'error',
};

/** Lets the event loop breathe between runs, so automations that re-trigger each other cannot starve it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs one sequence of actions under a mode (single, restart, queued, parallel), as Home Assistant's
 * Script helper does. `current` counts running and queued runs; runs beyond `max` are logged and dropped.
 */
export class ScriptRunner {
  private readonly runs = new Set<Run>();
  private queueTail: Promise<unknown> = Promise.resolve();
  /** Template errors already logged: each is logged once per automation or script, then at debug level. */
  private readonly loggedErrors = new Set<string>();
  lastTriggeredUs: Micros | null = null;

  constructor(
    private readonly env: TriggerEnv,
    /** For log messages: the entity id. */
    readonly name: string,
    readonly policy: RunPolicy,
    private readonly sequence: readonly Action[],
    /** Called when `current` or `last_triggered` changed; the context is the run's when one started. */
    private readonly onChange: (context: Context | undefined) => void,
  ) {}

  get current(): number {
    return this.runs.size;
  }

  /**
   * True when a run with this context is inside a service call: a waited-for start of a queued or restart
   * script from within its own run would deadlock (queued) or loop forever (restart).
   */
  isRecursive(context: Context): boolean {
    if (this.policy.mode !== 'queued' && this.policy.mode !== 'restart') return false;
    for (const run of this.runs) if (run.context.id === context.id && run.inCall > 0) return true;
    return false;
  }

  /** Starts a run; undefined when the mode refused it. The promise never rejects. */
  start(options: StartOptions): Promise<RunResult> | undefined {
    const { mode, max } = this.policy;
    if (this.runs.size > 0) {
      if (mode === 'single') {
        this.logExceeded('Already running');
        options.trace?.finish('failed_single');
        return undefined;
      }
      if (mode !== 'restart' && this.runs.size >= max) {
        this.logExceeded('Maximum number of runs exceeded');
        options.trace?.finish('failed_max_runs');
        return undefined;
      }
      if (mode === 'restart') {
        this.env.log.info({ script: this.name }, `${this.name}: Restarting`);
        this.abortAll();
      }
    }
    const run = new Run(this.env, this.name, options.context, options.variables, options.triggerId, (message) =>
      this.logOnce(message, 'warn', `${this.name}: %s`, message),
    );
    run.trace = options.trace;
    this.runs.add(run);
    options.onAccepted?.();
    this.lastTriggeredUs = this.env.core.clock.now();
    this.onChange(options.context);

    let done: Promise<RunResult>;
    if (mode === 'queued') {
      done = this.queueTail.then(() => this.execute(run));
      this.queueTail = done;
    } else done = this.execute(run);
    return done.then((result) => {
      if (this.runs.delete(run)) this.onChange(undefined);
      run.trace?.finish(EXECUTION[result.outcome], result.error);
      return result;
    });
  }

  /** Stops every run (and empties the queue); in-flight service calls finish, nothing after them runs. */
  stop(): void {
    if (this.runs.size === 0) return;
    this.abortAll();
    this.onChange(undefined);
  }

  private abortAll(): void {
    for (const run of this.runs) run.abort.abort();
    this.runs.clear();
  }

  private async execute(run: Run): Promise<RunResult> {
    try {
      await nextTurn();
      run.checkAborted();
      await runSequence(run, this.sequence, run.trace?.root ?? 'sequence');
      return { outcome: 'finished', response: null };
    } catch (err) {
      if (!(err instanceof Halt)) {
        this.env.log.error({ err, script: this.name }, `${this.name}: unexpected error`);
        return { outcome: 'failed', response: null, error: 'unexpected error', cause: err };
      }
      if (err.outcome === 'failed') {
        const template = `${this.name}: Error executing script. %s`;
        if (err.onceKey === undefined) this.env.log.error({ script: this.name }, template, err.message);
        else this.logOnce(err.onceKey, 'error', template, err.message);
        return { outcome: 'failed', response: null, error: err.message, cause: err.rootCause };
      }
      if (err.outcome === 'stopped') this.env.log.info({ script: this.name }, `${this.name}: Stop script sequence: %s`, err.message);
      return { outcome: err.outcome, response: err.response };
    }
  }

  /**
   * Logs a template error the first time it happens in this automation or script, and at debug level after.
   * The error's text goes in `values` (it may carry a state's value), so the logger's rate limit counts it as
   * one kind of line however its text changes. The template budget's errors (TimeoutError: stopped, suspended,
   * refused) are at debug level: the budget warned once about the automation or script itself.
   */
  logOnce(key: string, level: 'warn' | 'error', template: string, ...values: unknown[]): void {
    const bindings = { script: this.name };
    if (this.loggedErrors.has(key) || values.some((v) => typeof v === 'string' && v.includes('TimeoutError: '))) {
      this.env.log.debug(bindings, template, ...values);
      return;
    }
    // Bounded: a template whose error text changes each run cannot grow the set without limit.
    if (this.loggedErrors.size < 100) this.loggedErrors.add(key);
    this.env.log[level](bindings, template, ...values);
  }

  private logExceeded(message: string): void {
    const { log } = this.env;
    const bindings = { script: this.name };
    const text = `${this.name}: ${message}`;
    switch (this.policy.maxExceeded) {
      case 'silent':
        return;
      case 'debug':
        log.debug(bindings, text);
        return;
      case 'info':
        log.info(bindings, text);
        return;
      case 'warning':
        log.warn(bindings, text);
        return;
      case 'error':
      case 'critical':
        log.error(bindings, text);
        return;
    }
  }
}
