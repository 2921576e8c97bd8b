import type { JsonValue } from '../core/json.js';
import { PyDateTime } from '../template/datetime.js';
import { LiveVariable } from '../template/live.js';
import { TemplateObject } from '../template/objects.js';
import { TemplateState } from '../template/states.js';

/**
 * How a trace shows the template objects a run's variables hold (`trigger.to_state`, `this`, `now()`): a state
 * as Home Assistant serializes it, a datetime in ISO form, anything else as templates print it.
 */
export function traceValue(value: object): JsonValue | undefined {
  if (value instanceof LiveVariable) {
    // `this`: what it is when the trace is read.
    const now = value.read();
    return now === null || typeof now !== 'object' ? ((now ?? null) as JsonValue) : traceValue(now);
  }
  if (value instanceof TemplateState) return value.state.toJSON();
  if (value instanceof PyDateTime) return value.isoformat();
  if (value instanceof TemplateObject) return value.pyStr();
  return undefined;
}
