import type { Clock } from '../core/clock.js';
import { type Context, newContextId } from '../core/context.js';
import type { JsonObject } from '../core/json.js';
import { RunTrace, type TraceDomain, type TraceLimits } from './trace.js';
import { extendedJson, type PlainHook, shortJson } from './trace-json.js';

/** Home Assistant's stored_traces default. */
export const DEFAULT_STORED_TRACES = 5;

export interface TraceStoreOptions {
  readonly clock: Clock;
  /** Turns the run's objects (template states, dates) into JSON when a trace is read. */
  readonly plain?: PlainHook;
  readonly limits?: TraceLimits;
}

/** What a run being traced needs to begin. */
export interface TraceStart {
  readonly domain: TraceDomain;
  readonly itemId: string;
  readonly context: Context;
  readonly config: JsonObject | null;
  /** How many runs of this item to keep (`trace: stored_traces:`); 0 keeps none. */
  readonly storedTraces: number;
}

/**
 * The traces of the last runs of every automation and script, in memory only: the newest `stored_traces` per
 * item (a running one included), oldest dropped first. Survives reloads, as the item ids do.
 */
export class TraceStore {
  private readonly items = new Map<string, Map<string, RunTrace>>();

  constructor(private readonly options: TraceStoreOptions) {}

  begin(start: TraceStart): RunTrace {
    const { clock } = this.options;
    const now = clock.now();
    const trace = new RunTrace(
      start.domain,
      start.itemId,
      newContextId(now),
      start.context,
      start.config,
      now,
      () => clock.now(),
      this.options.limits,
    );
    const key = `${start.domain}.${start.itemId}`;
    let runs = this.items.get(key);
    if (runs === undefined) {
      runs = new Map();
      this.items.set(key, runs);
    }
    runs.set(trace.runId, trace);
    for (const runId of runs.keys()) {
      if (runs.size <= start.storedTraces) break;
      runs.delete(runId);
    }
    if (runs.size === 0) this.items.delete(key);
    return trace;
  }

  /** The summaries of one item's runs, or of every item of a domain (or of all), oldest first. */
  list(domain?: TraceDomain, itemId?: string): JsonObject[] {
    const out: JsonObject[] = [];
    for (const trace of this.traces(domain, itemId)) out.push(shortJson(trace));
    return out;
  }

  /** One run in full; undefined when it is not (or no longer) kept. */
  get(domain: TraceDomain, itemId: string, runId: string): JsonObject | undefined {
    const trace = this.items.get(`${domain}.${itemId}`)?.get(runId);
    return trace === undefined ? undefined : extendedJson(trace, this.options.plain);
  }

  /** context id -> the run it started, for the traces kept. */
  contexts(domain?: TraceDomain, itemId?: string): JsonObject {
    const out: Record<string, JsonObject> = {};
    for (const trace of this.traces(domain, itemId)) {
      out[trace.context.id] = { run_id: trace.runId, domain: trace.domain, item_id: trace.itemId };
    }
    return out;
  }

  private *traces(domain: TraceDomain | undefined, itemId: string | undefined): Generator<RunTrace> {
    if (domain !== undefined && itemId !== undefined) {
      const runs = this.items.get(`${domain}.${itemId}`);
      if (runs !== undefined) yield* runs.values();
      return;
    }
    for (const runs of this.items.values()) {
      for (const trace of runs.values()) if (domain === undefined || trace.domain === domain) yield trace;
    }
  }
}
