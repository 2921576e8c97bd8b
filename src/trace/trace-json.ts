import { isoFromMicros } from '../core/clock.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { setOwn } from '../core/own-keys.js';
import type { RunTrace, TraceStep } from './trace.js';

/**
 * Turns a value a run holds (template states, dates, anything a template produced) into JSON; undefined when
 * the hook does not know it. Given by the automation layer, which knows those objects.
 */
export type PlainHook = (value: object) => JsonValue | undefined;

const MAX_DEPTH = 32;

/** A run value as JSON: the hook first, then toJSON, then plain data; cycles and deep nesting end as text. */
export function plain(value: unknown, hook: PlainHook | undefined, depth = 0, seen: Set<object> = new Set()): JsonValue {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // Home Assistant refuses NaN and infinities in JSON (allow_nan=False); null keeps the trace readable.
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
      return null;
    case 'function':
    case 'symbol':
      return String(value);
  }
  if (value === null) return null;
  const obj = value as object;
  if (depth >= MAX_DEPTH || seen.has(obj)) return '(nested too deep)';
  const hooked = hook?.(obj);
  if (hooked !== undefined) return hooked;
  const toJson = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJson === 'function') return plain(toJson.call(obj), hook, depth + 1, seen);
  seen.add(obj);
  try {
    if (Array.isArray(obj)) return obj.map((item) => plain(item, hook, depth + 1, seen));
    if (obj instanceof Map) return plain(Object.fromEntries(obj), hook, depth + 1, seen);
    if (obj instanceof Set) return plain([...obj], hook, depth + 1, seen);
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(obj)) if (v !== undefined) setOwn(out, k, plain(v, hook, depth + 1, seen));
    return out;
  } finally {
    seen.delete(obj);
  }
}

/** Home Assistant's trace list item (ActionTrace.as_short_dict, with `trigger` for automations). */
export function shortJson(trace: RunTrace): JsonObject {
  const out: Record<string, JsonValue> = {
    last_step: trace.lastStep,
    run_id: trace.runId,
    state: trace.running ? 'running' : 'stopped',
    script_execution: trace.execution,
    timestamp: {
      start: isoFromMicros(trace.startUs),
      finish: trace.finishUs === null ? null : isoFromMicros(trace.finishUs),
    },
    domain: trace.domain,
    item_id: trace.itemId,
  };
  if (trace.error !== undefined) out.error = trace.error;
  if (trace.domain === 'automation') out.trigger = trace.trigger;
  return out;
}

function stepJson(step: TraceStep, hook: PlainHook | undefined): JsonObject {
  const out: Record<string, JsonValue> = { path: step.path, timestamp: isoFromMicros(step.timestampUs) };
  if (step.changedVariables !== undefined) out.changed_variables = plain(step.changedVariables, hook);
  if (step.error !== undefined) out.error = step.error;
  if (step.result !== undefined) out.result = plain(step.result, hook);
  return out;
}

/** Home Assistant's `trace/get` result (as_extended_dict): the summary, every step by path, config and context. */
export function extendedJson(trace: RunTrace, hook: PlainHook | undefined): JsonObject {
  const steps: Record<string, JsonValue> = {};
  for (const [path, list] of trace.steps) steps[path] = list.map((step) => stepJson(step, hook));
  const { id, parent_id, user_id } = trace.context;
  const out: Record<string, JsonValue> = {
    ...shortJson(trace),
    trace: steps,
    config: trace.config,
    blueprint_inputs: null,
    context: { id, parent_id, user_id },
  };
  // hearth's own key: how many steps the trace's limits left out (the first ones are kept).
  if (trace.dropped > 0) out.steps_dropped = trace.dropped;
  return out;
}
