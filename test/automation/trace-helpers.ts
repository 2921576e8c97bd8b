import type { AutomationExtension } from '../../src/automation/index.js';
import type { JsonObject, JsonValue } from '../../src/core/json.js';
import type { TraceDomain } from '../../src/trace/index.js';

/** A trace as `trace/get` gives it, with the fields tests read typed. */
export interface TraceJson extends JsonObject {
  readonly run_id: string;
  readonly state: string;
  readonly script_execution: string | null;
  readonly trace: Readonly<Record<string, readonly StepJson[]>>;
}

export interface StepJson extends JsonObject {
  readonly path: string;
  readonly timestamp: string;
}

/**
 * Waits until `count` runs of the item are kept and none is running, turning the event loop (bounded: at most
 * 20,000 turns or 10 s), and returns them in full, oldest first.
 */
export async function finishedTraces(extension: AutomationExtension, domain: TraceDomain, itemId: string, count = 1): Promise<TraceJson[]> {
  const deadline = Date.now() + 10_000;
  for (let turn = 0; turn < 20_000 && Date.now() < deadline; turn++) {
    const list = extension.traces.list(domain, itemId);
    if (list.length >= count && list.every((item) => item.state === 'stopped')) {
      return list.map((item) => extension.traces.get(domain, itemId, String(item.run_id)) as TraceJson);
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`${domain}.${itemId}: no ${count} finished traces: ${JSON.stringify(extension.traces.list(domain, itemId))}`);
}

/** The one trace of an item, once finished. */
export async function finishedTrace(extension: AutomationExtension, domain: TraceDomain, itemId: string): Promise<TraceJson> {
  const traces = await finishedTraces(extension, domain, itemId, 1);
  return traces[traces.length - 1] as TraceJson;
}

/** The first element recorded at a path. */
export function stepAt(trace: TraceJson, path: string): StepJson {
  const step = trace.trace[path]?.[0];
  if (step === undefined) throw new Error(`no step at ${path}; paths: ${Object.keys(trace.trace).join(', ')}`);
  return step;
}

export function resultAt(trace: TraceJson, path: string): JsonValue | undefined {
  return stepAt(trace, path).result;
}
