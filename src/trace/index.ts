export { DEFAULT_STORED_TRACES, type TraceStart, TraceStore, type TraceStoreOptions } from './store.js';
export {
  DEFAULT_TRACE_LIMITS,
  NOT_KEPT,
  RunTrace,
  type ScriptExecution,
  TRACE_DOMAINS,
  type TraceDomain,
  type TraceLimits,
  TraceStep,
} from './trace.js';
export { extendedJson, type PlainHook, plain, shortJson } from './trace-json.js';
