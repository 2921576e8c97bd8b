import { HubError, isHubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { TemplateError } from '../template/index.js';
import { checkConditions } from './conditions.js';
import { parseDuration } from './config-values.js';
import { runParallel, runRepeat } from './loops.js';
import type { Action } from './model.js';
import { delay, Halt, type Run, templateHalt } from './run.js';
import { render, renderComplex, renderVariables } from './templating.js';
import { type WaitResult, waitForTrigger, waitTemplate } from './waits.js';

export { delay, Halt, Run, type RunOutcome } from './run.js';

const SERVICE_NAME = /^[a-z0-9_]+\.[a-z0-9_]+$/;

function describe(action: Action): string {
  switch (action.kind) {
    case 'service':
      return action.nameTemplate === undefined ? `call_service ${action.domain}.${action.service}` : 'call_service';
    case 'condition':
      return `condition ${action.condition.kind}`;
    default:
      return action.kind;
  }
}

/** Renders a value's templates with the run's variables; a failure ends the run (logged once per automation). */
function rendered(run: Run, value: JsonValue, what: string): JsonValue {
  try {
    return renderComplex(run.env.templates, value, run.variables, `${run.name} ${what}`);
  } catch (err) {
    throw templateHalt(err, `Error rendering ${what} template: `);
  }
}

function renderedMapping(run: Run, value: JsonObject, what: string): JsonObject {
  const out = rendered(run, value, what);
  if (!isJsonObject(out)) throw new Halt('failed', `Error rendering ${what} template: expected a mapping`);
  return out;
}

/** The service a templated `action:` names, rendered per run. */
function serviceName(run: Run, action: Extract<Action, { kind: 'service' }>): [string, string] {
  if (action.nameTemplate === undefined) return [action.domain, action.service];
  let name: string;
  try {
    name = render(run.env.templates, action.nameTemplate, `${run.name} action`, run.variables).text;
  } catch (err) {
    throw templateHalt(err, 'Error rendering service name template: ');
  }
  if (!SERVICE_NAME.test(name)) throw new HubError('service_not_found', `Template rendered invalid service: ${name}`);
  return name.split('.') as [string, string];
}

/** A templated delay or wait timeout: the rendered text or mapping read as a duration; a failure ends the run. */
function durationMs(run: Run, template: JsonValue, what: 'delay' | 'timeout'): number {
  const value = rendered(run, template, what);
  const issues: { path: readonly (string | number)[]; message: string }[] = [];
  const ms = parseDuration(value, [what], issues);
  if (ms === undefined) throw new Halt('failed', `Error rendering ${what} template: ${issues[0]?.message ?? 'not a duration'}`);
  return ms;
}

/** A wait's timeout: fixed, or its template rendered as the wait starts. */
function timeoutMs(run: Run, action: { readonly timeoutMs?: number; readonly timeoutTemplate?: JsonValue }): number | undefined {
  return action.timeoutTemplate === undefined ? action.timeoutMs : durationMs(run, action.timeoutTemplate, 'timeout');
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

/** The `wait` variable after wait_template or wait_for_trigger. */
function setWait(run: Run, result: WaitResult, continueOnTimeout: boolean, what: string): void {
  run.variables.wait = { completed: result.completed, remaining: result.remaining, trigger: result.trigger };
  if (!result.completed && !continueOnTimeout) throw new Halt('stopped', `${what} timed out`);
}

async function execute(run: Run, action: Action): Promise<void> {
  const { env } = run;
  switch (action.kind) {
    case 'service': {
      const [domain, service] = serviceName(run, action);
      const data = renderedMapping(run, action.data, 'data');
      const target = action.target === undefined ? undefined : renderedMapping(run, action.target, 'target');
      const withResponse = action.responseVariable !== undefined;
      const result = await callService(run, domain, service, data, target, withResponse);
      if (action.responseVariable !== undefined) run.variables[action.responseVariable] = result.response;
      return;
    }
    case 'delay':
      return delay(run, action.template === undefined ? action.ms : durationMs(run, action.template, 'delay'));
    case 'event':
      env.core.bus.fire(action.eventType, renderedMapping(run, action.eventData, 'event_data'), run.context);
      return;
    case 'condition':
      if (!checkConditions(env, [action.condition], run.scope())) throw new Halt('condition_failed', 'condition did not pass');
      return;
    case 'wait_for_trigger':
      setWait(run, await waitForTrigger(run, action.triggers, timeoutMs(run, action)), action.continueOnTimeout, 'wait_for_trigger');
      return;
    case 'wait_template': {
      let result: WaitResult;
      const timeout = timeoutMs(run, action);
      try {
        result = await waitTemplate(run, action.template, timeout);
      } catch (err) {
        throw err instanceof TemplateError ? templateHalt(err, 'Error in wait_template: ') : err;
      }
      setWait(run, result, action.continueOnTimeout, 'wait_template');
      return;
    }
    case 'stop': {
      if (action.error) throw new Halt('failed', action.reason || 'stopped with an error');
      let response: JsonObject | null = null;
      if (action.responseVariable !== undefined) {
        const value = run.variables[action.responseVariable];
        if (!isJsonObject((value ?? null) as JsonValue)) {
          throw new Halt('failed', `response_variable ${action.responseVariable} must hold a mapping to be a response`);
        }
        response = value as JsonObject;
      }
      throw new Halt('stopped', action.reason, response);
    }
    case 'variables':
      try {
        Object.assign(run.variables, renderVariables(env.templates, action.values, run.variables, run.name, false));
      } catch (err) {
        throw templateHalt(err, 'Error rendering variables: ');
      }
      return;
    case 'scene':
      await callService(run, 'scene', 'turn_on', { entity_id: action.entityId }, undefined, false);
      return;
    case 'if': {
      const branch = checkConditions(env, action.conditions, run.scope()) ? action.then : action.else;
      if (branch !== undefined) await runSequence(run, branch);
      return;
    }
    case 'choose': {
      for (const option of action.options) {
        if (checkConditions(env, option.conditions, run.scope())) {
          await runSequence(run, option.sequence);
          return;
        }
      }
      if (action.default !== undefined) await runSequence(run, action.default);
      return;
    }
    case 'sequence':
      return runSequence(run, action.actions);
    case 'repeat':
      return runRepeat(run, action, runSequence);
    case 'parallel':
      return runParallel(run, action.branches, runSequence);
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
      if (err instanceof Halt) {
        // A template error is an error like any other for continue_on_error (Home Assistant's TemplateError).
        if (err.onceKey !== undefined && action.continueOnError) {
          run.env.log.warn({ script: run.name }, `${run.name}: ${describe(action)} at pos ${pos + 1} failed, continuing: ${err.message}`);
          continue;
        }
        if (err.onceKey !== undefined && !err.message.startsWith('Error for '))
          throw new Halt('failed', `Error for ${describe(action)} at pos ${pos + 1}: ${err.message}`, null, err.onceKey);
        throw err;
      }
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
