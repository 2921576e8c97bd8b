import type { Context } from '../core/context.js';
import type { JsonObject } from '../core/json.js';
import { TemplateError } from '../template/index.js';
import type { RunTrace } from '../trace/trace.js';
import type { ConditionScope } from './conditions.js';
import { errorText, type TemplateVars } from './templating.js';
import { timeoutOn } from './timer-set.js';
import type { TriggerEnv } from './triggers.js';

/** How a run ended. */
export type RunOutcome = 'finished' | 'stopped' | 'condition_failed' | 'aborted' | 'failed';

/** Thrown inside a run to end it early: a `stop` action, a failed condition, a stop from outside. */
export class Halt extends Error {
  constructor(
    readonly outcome: RunOutcome,
    message: string,
    readonly response: JsonObject | null = null,
    /** Set for a template error: logged once per automation or script, then only at debug level. */
    readonly onceKey?: string,
  ) {
    super(message);
    this.name = 'Halt';
  }

  /**
   * What first went wrong, for callers that answer with it (WebSocket `execute_script`): the HubError or
   * unexpected error an action threw, or the innermost Halt, before steps around it prefixed its message.
   */
  get rootCause(): unknown {
    return this.cause ?? this;
  }
}

/** A template error that ends a run (Home Assistant stops the run on one). */
export function templateHalt(err: unknown, where = ''): Halt {
  const message = `${where}${errorText(err)}`;
  return new Halt('failed', message, null, err instanceof TemplateError ? message : undefined);
}

/** One execution of a sequence of actions. */
export class Run {
  /** Shared with the branches of `parallel` actions: stopping the run stops them all. */
  readonly abort: AbortController;
  /** What templates see: `trigger`, `this`, the automation's, the script's and the run's variables. */
  readonly variables: Record<string, unknown>;
  /** Service calls in flight, counted across parallel branches. */
  private readonly calls: { count: number };
  /** The trace this run records into (shared with its parallel branches); undefined for untraced runs. */
  trace: RunTrace | undefined;

  constructor(
    readonly env: TriggerEnv,
    /** For log messages: `automation.x` or `script.y`. */
    readonly name: string,
    readonly context: Context,
    variables: TemplateVars,
    readonly triggerId: string | undefined,
    /** Reports a condition's template error (the runner logs each message once). */
    readonly reportError: (message: string) => void,
    parent?: Run,
  ) {
    this.variables = { ...variables };
    this.abort = parent?.abort ?? new AbortController();
    this.calls = parent?.calls ?? { count: 0 };
    this.trace = parent?.trace;
  }

  /** Service calls in flight; a queued or restart script called (and waited for) from inside its own run would deadlock or loop. */
  get inCall(): number {
    return this.calls.count;
  }

  set inCall(count: number) {
    this.calls.count = count;
  }

  /** A branch of a `parallel` action: its own copy of the variables, the same context, stop signal and error log. */
  fork(): Run {
    return new Run(this.env, this.name, this.context, this.variables, this.triggerId, this.reportError, this);
  }

  checkAborted(): void {
    if (this.abort.signal.aborted) throw new Halt('aborted', 'stopped');
  }

  /** The scope conditions inside this run evaluate in. */
  scope(): ConditionScope {
    return { triggerId: this.triggerId, variables: this.variables, name: this.name, onError: this.reportError, trace: this.trace };
  }
}

/** Waits `ms`, or throws Halt at once when the run is stopped; the timer never outlives the run. */
export function delay(run: Run, ms: number): Promise<void> {
  const { signal } = run.abort;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Halt('aborted', 'stopped'));
      return;
    }
    const onAbort = () => {
      cancel();
      reject(new Halt('aborted', 'stopped'));
    };
    const cancel = timeoutOn(run.env.scheduler, ms, () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
