import type { Action } from '../automation/model.js';
import { ScriptRunner } from '../automation/runner.js';
import { liveThis } from '../automation/templating.js';
import type { Context } from '../core/context.js';
import type { JsonValue } from '../core/json.js';
import type { PlatformContext } from './platform-context.js';

/** Runs one of a template entity's action lists with the service's variables and `this`. */
export type RunActions = (variables: Record<string, JsonValue>, context: Context) => Promise<void>;

const POLICY = { mode: 'single' as const, max: 10, maxExceeded: 'warning' as const };

/**
 * The runner of a template entity's `name` actions (turn_on, set_value...), stopped with its component: as Home
 * Assistant's template entities run their scripts, with the entity's live state as `this`.
 */
export function actionRunner(ctx: PlatformContext, entityId: string, name: string, actions: readonly Action[] | undefined): RunActions {
  const runner = new ScriptRunner(ctx.env, `${entityId} ${name}`, POLICY, actions ?? [], () => undefined);
  ctx.runners.push(runner);
  return async (variables, context) => {
    await runner.start({ variables: { ...variables, this: liveThis(ctx.core, entityId) }, context });
  };
}
