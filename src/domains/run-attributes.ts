import { isoFromMicros, type Micros } from '../core/clock.js';
import type { JsonValue } from '../core/json.js';

/** What automations and scripts both report about their runs. */
export interface RunModel {
  readonly lastTriggeredUs: Micros | null;
  readonly mode: string;
  /** Running and queued runs. */
  readonly current: number;
  /** Shown for the queued and parallel modes only. */
  readonly max?: number;
}

/** The run attributes in Home Assistant's order (last_triggered, mode, current, max); the caller appends its own. */
export function runAttributes(model: RunModel): Record<string, JsonValue> {
  const attrs: Record<string, JsonValue> = {
    last_triggered: model.lastTriggeredUs === null ? null : isoFromMicros(model.lastTriggeredUs),
    mode: model.mode,
    current: model.current,
  };
  if (model.max !== undefined) attrs.max = model.max;
  return attrs;
}
