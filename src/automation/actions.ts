import type { Context } from '../core/context.js';
import { isHubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { checkConditions } from './conditions.js';
import type { Action, Trigger } from './model.js';
import { attachTriggers, type TriggerEnv } from './triggers.js';

/** How a run ended. */
export type RunOutcome = 'finished' | 'stopped' | 'condition_failed' | 'aborted' | 'failed';

/** Thrown inside a run to end it early: a `stop` action, a failed condition, a stop from outside. */
export class Halt extends Error {
  constructor(
    readonly outcome: RunOutcome,
    message: string,
    readonly response: JsonObject | null = null,
  ) {
    super(message);
    this.name = 'Halt';
  }
}

/** One execution of a sequence of actions. */
export class Run {
  readonly abort = new AbortController();
  readonly variables: Record<string, JsonValue>;
  /** Service calls in flight; a queued or restart script called (and waited for) from inside its own run would deadlock or loop. */
  inCall = 0;

  constructor(
    readonly env: TriggerEnv,
    /** For log messages: `automation.x` or `script.y`. */
    readonly name: string,
    readonly context: Context,
    variables: JsonObject,
    readonly triggerId: string | undefined,
  ) {
    this.variables = { ...variables };
  }

  checkAborted(): void {
    if (this.abort.signal.aborted) throw new Halt('aborted', 'stopped');
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
      clearTimeout(timer);
      reject(new Halt('aborted', 'stopped'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves true when one of the triggers fires, false on timeout; throws Halt when the run is stopped. */
function waitForTrigger(run: Run, triggers: readonly Trigger[], timeoutMs: number | undefined): Promise<boolean> {
  const { signal } = run.abort;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Halt('aborted', 'stopped'));
      return;
    }
    let settled = false;
    let detach: (() => void) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const finish = (fired: boolean | Halt) => {
      if (settled) return;
      settled = true;
      detach?.();
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (fired instanceof Halt) reject(fired);
      else resolve(fired);
    };
    const onAbort = () => finish(new Halt('aborted', 'stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined) timer = setTimeout(() => finish(false), timeoutMs);
    detach = attachTriggers({ ...run.env, starting: false }, triggers, () => finish(true));
    if (settled) detach();
  });
}

function describe(action: Action): string {
  switch (action.kind) {
    case 'service':
      return `call_service ${action.domain}.${action.service}`;
    case 'condition':
      return `condition ${action.condition.kind}`;
    default:
      return action.kind;
  }
}

async function callService(
  run: Run,
  domain: string,
  service: string,
  data: JsonObject,
  target: JsonObject | undefined,
  withResponse: boolean,
) {
  run.inCall++;
  try {
    return await run.env.core.services.call(domain, service, data, { context: run.context, target, returnResponse: withResponse });
  } finally {
    run.inCall--;
  }
}

async function execute(run: Run, action: Action): Promise<void> {
  const { env } = run;
  switch (action.kind) {
    case 'service': {
      const withResponse = action.responseVariable !== undefined;
      const result = await callService(run, action.domain, action.service, action.data, action.target, withResponse);
      if (action.responseVariable !== undefined) run.variables[action.responseVariable] = result.response;
      return;
    }
    case 'delay':
      return delay(run, action.ms);
    case 'event':
      env.core.bus.fire(action.eventType, action.eventData, run.context);
      return;
    case 'condition':
      if (!checkConditions(env, [action.condition], run.triggerId)) throw new Halt('condition_failed', 'condition did not pass');
      return;
    case 'wait_for_trigger': {
      const fired = await waitForTrigger(run, action.triggers, action.timeoutMs);
      if (!fired && !action.continueOnTimeout) throw new Halt('stopped', 'wait_for_trigger timed out');
      return;
    }
    case 'stop': {
      if (action.error) throw new Halt('failed', action.reason || 'stopped with an error');
      let response: JsonObject | null = null;
      if (action.responseVariable !== undefined) {
        const value = run.variables[action.responseVariable];
        if (!isJsonObject(value ?? null)) {
          throw new Halt('failed', `response_variable ${action.responseVariable} must hold a mapping to be a response`);
        }
        response = value as JsonObject;
      }
      throw new Halt('stopped', action.reason, response);
    }
    case 'variables':
      Object.assign(run.variables, action.values);
      return;
    case 'scene':
      await callService(run, 'scene', 'turn_on', { entity_id: action.entityId }, undefined, false);
      return;
    case 'if': {
      const branch = checkConditions(env, action.conditions, run.triggerId) ? action.then : action.else;
      if (branch !== undefined) await runSequence(run, branch);
      return;
    }
    case 'choose': {
      for (const option of action.options) {
        if (checkConditions(env, option.conditions, run.triggerId)) {
          await runSequence(run, option.sequence);
          return;
        }
      }
      if (action.default !== undefined) await runSequence(run, action.default);
      return;
    }
    case 'sequence':
      return runSequence(run, action.actions);
  }
}

/** Runs actions in order. An error ends the run (Halt 'failed') unless the action has continue_on_error. */
export async function runSequence(run: Run, actions: readonly Action[]): Promise<void> {
  for (let pos = 0; pos < actions.length; pos++) {
    const action = actions[pos] as Action;
    run.checkAborted();
    try {
      await execute(run, action);
    } catch (err) {
      if (err instanceof Halt) throw err;
      const message = isHubError(err) ? err.message : err instanceof Error ? err.message : String(err);
      if (action.continueOnError && isHubError(err)) {
        run.env.log.warn({ script: run.name }, `${run.name}: ${describe(action)} at pos ${pos + 1} failed, continuing: ${message}`);
        continue;
      }
      if (!isHubError(err)) run.env.log.error({ err, script: run.name }, `${run.name}: unexpected error`);
      throw new Halt('failed', `Error for ${describe(action)} at pos ${pos + 1}: ${message}`);
    }
  }
}
