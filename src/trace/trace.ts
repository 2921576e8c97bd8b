import type { Micros } from '../core/clock.js';
import type { Context } from '../core/context.js';
import type { JsonObject } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import { approxBytes } from './size.js';

export type TraceDomain = 'automation' | 'script';
export const TRACE_DOMAINS: readonly TraceDomain[] = ['automation', 'script'];

/** Home Assistant's script_execution values. */
export type ScriptExecution = 'finished' | 'failed_conditions' | 'failed_single' | 'failed_max_runs' | 'aborted' | 'cancelled' | 'error';

/** How much one trace may keep; past the steps or bytes, later steps are counted as dropped. */
export interface TraceLimits {
  /** Elements per path: a repeat's inner steps keep their last iterations (Home Assistant keeps the last 20 per path). */
  readonly perPath: number;
  /** Elements in the whole trace. */
  readonly steps: number;
  /** About this many bytes of results and variables in the whole trace. */
  readonly bytes: number;
  /** One element's results and variables; larger values are replaced by a note. */
  readonly elementBytes: number;
}

export const DEFAULT_TRACE_LIMITS: TraceLimits = { perPath: 20, steps: 500, bytes: 256 * 1024, elementBytes: 16 * 1024 };

/** What a value too large to keep is replaced by. */
export const NOT_KEPT = '(not kept: too large for the trace)';

/** One step: Home Assistant's TraceElement. Values are kept as references and serialized on `trace/get`. */
export class TraceStep {
  changedVariables: Record<string, unknown> | undefined;
  result: Record<string, unknown> | undefined;
  error: string | undefined;
  /** The variables when the step began, until it ends (then dropped, so the trace holds no extra copies). */
  baseline: Readonly<Record<string, unknown>> | undefined;
  /** What it counts against the trace's byte budget, given back when a later iteration replaces it. */
  size = 0;

  constructor(
    readonly path: string,
    readonly timestampUs: Micros,
    /** False for a step past the trace's limits: it is filled in as usual and thrown away. */
    readonly kept: boolean,
  ) {}
}

/** The variables that differ from the baseline (by identity: run variables are replaced, never changed in place). */
function changed(
  variables: Readonly<Record<string, unknown>>,
  baseline: Readonly<Record<string, unknown>>,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key in variables) {
    const value = variables[key];
    if (!Object.hasOwn(baseline, key) || baseline[key] !== value) {
      out ??= {};
      setOwn(out, key, value);
    }
  }
  return out;
}

const EMPTY: Readonly<Record<string, unknown>> = Object.freeze({});

/** Replaces the values of a mapping that are too large by a note. */
function shrink(values: Record<string, unknown>, limit: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in values) setOwn(out, key, approxBytes(values[key], limit) > limit ? NOT_KEPT : values[key]);
  return out;
}

/**
 * The trace of one automation or script run (Home Assistant's ActionTrace): its steps by path in the order
 * first reached, the outcome, the error. Bounded by TraceLimits; nothing is serialized until someone asks.
 */
export class RunTrace {
  readonly steps = new Map<string, TraceStep[]>();
  finishUs: Micros | null = null;
  execution: ScriptExecution | null = null;
  /** Set by a step that ends the run in a way the outcome alone does not tell (a wait that timed out). */
  executionOverride: ScriptExecution | undefined;
  error: string | undefined;
  /** The trigger's description (automations). */
  trigger: string | null = null;
  /** The path of the last step reached, kept or not. */
  lastStep: string | null = null;
  dropped = 0;
  private count = 0;
  private bytes = 0;
  private lastVariables: Readonly<Record<string, unknown>> = EMPTY;

  constructor(
    readonly domain: TraceDomain,
    readonly itemId: string,
    readonly runId: string,
    readonly context: Context,
    readonly config: JsonObject | null,
    readonly startUs: Micros,
    private readonly now: () => Micros,
    private readonly limits: TraceLimits = DEFAULT_TRACE_LIMITS,
  ) {}

  /** Where the steps of the item's own sequence are: `action/0` for automations, `sequence/0` for scripts. */
  get root(): string {
    return this.domain === 'automation' ? 'action' : 'sequence';
  }

  get running(): boolean {
    return this.finishUs === null;
  }

  /** A step begins: its element, with the variables changed since the previous one. */
  enter(path: string, variables: Readonly<Record<string, unknown>>): TraceStep {
    this.lastStep = path;
    const list = this.steps.get(path);
    // A path keeps its last iterations, as Home Assistant's deque(maxlen=20): where a loop ended is what is debugged.
    const full = list !== undefined && list.length >= this.limits.perPath;
    const kept = full || (this.count < this.limits.steps && this.bytes < this.limits.bytes);
    const step = new TraceStep(path, this.now(), kept);
    if (!kept) {
      this.dropped++;
      return step;
    }
    if (full) {
      const oldest = list.shift() as TraceStep;
      this.bytes -= oldest.size;
      this.dropped++;
    } else this.count++;
    step.baseline = this.lastVariables;
    step.changedVariables = changed(variables, this.lastVariables);
    this.lastVariables = { ...variables };
    if (list === undefined) this.steps.set(path, [step]);
    else list.push(step);
    return step;
  }

  /** A step ended: what it changed (a response, a `variables` action, `wait`) joins its changed variables. */
  leave(step: TraceStep, variables: Readonly<Record<string, unknown>>, error?: string): void {
    if (error !== undefined) step.error = error;
    if (!step.kept) return;
    const baseline = step.baseline ?? EMPTY;
    step.baseline = undefined;
    const now = changed(variables, baseline);
    if (now !== undefined) this.lastVariables = { ...variables };
    step.changedVariables = now;
    this.account(step);
  }

  /** A step with no end of its own (a condition, the trigger): recorded whole. */
  record(path: string, variables: Readonly<Record<string, unknown>> | undefined, result?: Record<string, unknown>, error?: string): void {
    const step = this.enter(path, variables ?? this.lastVariables);
    step.result = result;
    if (error !== undefined) step.error = error;
    step.baseline = undefined;
    if (step.kept) this.account(step);
  }

  finish(execution: ScriptExecution, error?: string): void {
    if (this.finishUs !== null) return;
    this.finishUs = this.now();
    this.execution = this.executionOverride ?? execution;
    if (error !== undefined) this.error = error;
  }

  private account(step: TraceStep): void {
    const { elementBytes } = this.limits;
    let size = step.path.length + 64 + (step.error?.length ?? 0);
    if (step.result !== undefined) {
      const n = approxBytes(step.result, elementBytes);
      if (n > elementBytes / 2) step.result = shrink(step.result, elementBytes / 4);
      size += Math.min(n, elementBytes);
    }
    if (step.changedVariables !== undefined) {
      const n = approxBytes(step.changedVariables, elementBytes);
      if (n > elementBytes / 2) step.changedVariables = shrink(step.changedVariables, elementBytes / 4);
      size += Math.min(n, elementBytes);
    }
    step.size = size;
    this.bytes += size;
  }
}
