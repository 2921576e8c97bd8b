import type { JsonValue } from '../core/json.js';
import { renderDuration } from './durations.js';
import { errorText, levelFor } from './templating.js';
import { type TriggerEnv, type TriggerInfo, type TriggerScope, triggerVariable } from './trigger-info.js';

/**
 * A trigger's `for:` when it fires: undefined without one, its milliseconds, or null when its template failed (logged
 * with the automation's name; the trigger does not fire, as in Home Assistant). The template sees the automation's
 * variables and `trigger` (entity_id, from_state, to_state...).
 */
export function triggerForMs(
  env: TriggerEnv,
  scope: TriggerScope,
  t: { readonly forMs?: number; readonly forTemplate?: JsonValue },
  data: TriggerInfo,
): number | null | undefined {
  if (t.forTemplate === undefined) return t.forMs;
  try {
    return renderDuration(env.templates, t.forTemplate, { ...scope.variables, trigger: triggerVariable(data) }, `${scope.name} for`);
  } catch (err) {
    env.log[levelFor(err, 'error')]({ automation: scope.name }, `${scope.name}: Error rendering for template: %s`, errorText(err));
    return null;
  }
}
