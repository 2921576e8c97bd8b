import { HubError, isHubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { ownValue, setOwn } from '../core/own-keys.js';
import { TemplateError } from '../template/index.js';
import type { TraceStep } from '../trace/trace.js';
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
function setWait(run: Run, step: TraceStep | undefined, result: WaitResult, continueOnTimeout: boolean, what: string): void {
  const wait = { completed: result.completed, remaining: result.remaining, trigger: result.trigger };
  run.variables.wait = wait;
  if (step !== undefined) step.result = { wait };
  if (!result.completed && !continueOnTimeout) {
    if (step !== undefined) step.result = { wait, timeout: true };
    // Home Assistant aborts the script on such a timeout (_AbortScript).
    if (run.trace !== undefined) run.trace.executionOverride = 'aborted';
    throw new Halt('stopped', `${what} timed out`);
  }
}

/** Runs one action; `step` is its trace element (for its result), `path` where its nested steps are traced. */
async function execute(run: Run, action: Action, step: TraceStep | undefined, path: string): Promise<void> {
  const { env } = run;
  switch (action.kind) {
    case 'service': {
      const [domain, service] = serviceName(run, action);
      const data = renderedMapping(run, action.data, 'data');
      const target = action.target === undefined ? undefined : renderedMapping(run, action.target, 'target');
      const withResponse = action.responseVariable !== undefined;
      if (step !== undefined) {
        const params = { domain, service, service_data: data, target: target ?? {} };
        step.result = { params, running_script: domain === 'script' && service !== 'turn_on' };
      }
      const result = await callService(run, domain, service, data, target, withResponse);
      if (action.responseVariable !== undefined) run.variables[action.responseVariable] = result.response;
      return;
    }
    case 'delay': {
      const ms = action.template === undefined ? action.ms : durationMs(run, action.template, 'delay');
      if (step !== undefined) step.result = { delay: ms / 1000, done: false };
      await delay(run, ms);
      if (step !== undefined) step.result = { delay: ms / 1000, done: true };
      return;
    }
    case 'event': {
      const data = renderedMapping(run, action.eventData, 'event_data');
      if (step !== undefined) step.result = { event: action.eventType, event_data: data };
      env.core.bus.fire(action.eventType, data, run.context);
      return;
    }
    case 'condition': {
      const passed = checkConditions(env, [action.condition], run.scope());
      if (step !== undefined) step.result = { result: passed };
      if (!passed) throw new Halt('condition_failed', 'condition did not pass');
      return;
    }
    case 'wait_for_trigger':
      setWait(run, step, await waitForTrigger(run, action.triggers, timeoutMs(run, action)), action.continueOnTimeout, 'wait_for_trigger');
      return;
    case 'wait_template': {
      let result: WaitResult;
      const timeout = timeoutMs(run, action);
      try {
        result = await waitTemplate(run, action.template, timeout);
      } catch (err) {
        throw err instanceof TemplateError ? templateHalt(err, 'Error in wait_template: ') : err;
      }
      setWait(run, step, result, action.continueOnTimeout, 'wait_template');
      return;
    }
    case 'stop': {
      if (step !== undefined) step.result = { stop: action.reason, error: action.error };
      if (action.error) {
        // Home Assistant ends such a run as aborted, with the reason as the step's error.
        if (run.trace !== undefined) run.trace.executionOverride = 'aborted';
        throw new Halt('failed', action.reason || 'stopped with an error');
      }
      let response: JsonObject | null = null;
      if (action.responseVariable !== undefined) {
        const value = ownValue(run.variables, action.responseVariable);
        if (!isJsonObject((value ?? null) as JsonValue)) {
          throw new Halt('failed', `response_variable ${action.responseVariable} must hold a mapping to be a response`);
        }
        response = value as JsonObject;
      }
      throw new Halt('stopped', action.reason, response);
    }
    case 'variables':
      try {
        const rendered = renderVariables(env.templates, action.values, run.variables, run.name, false);
        for (const [key, value] of Object.entries(rendered)) setOwn(run.variables, key, value);
      } catch (err) {
        throw templateHalt(err, 'Error rendering variables: ');
      }
      return;
    case 'scene':
      if (step !== undefined) {
        step.result = { params: { domain: 'scene', service: 'turn_on', service_data: {}, target: { entity_id: action.entityId } } };
      }
      await callService(run, 'scene', 'turn_on', { entity_id: action.entityId }, undefined, false);
      return;
    case 'if': {
      const passed = checkConditions(env, action.conditions, run.scope(), `${path}/if/condition`);
      const branch = passed ? action.then : action.else;
      if (branch === undefined) return;
      if (step !== undefined) step.result = { choice: passed ? 'then' : 'else' };
      await runSequence(run, branch, `${path}/${passed ? 'then' : 'else'}`);
      return;
    }
    case 'choose': {
      for (let i = 0; i < action.options.length; i++) {
        const option = action.options[i] as (typeof action.options)[number];
        if (checkConditions(env, option.conditions, run.scope(), `${path}/choose/${i}/conditions`)) {
          if (step !== undefined) step.result = { choice: i };
          await runSequence(run, option.sequence, `${path}/choose/${i}/sequence`);
          return;
        }
      }
      if (action.default === undefined) return;
      if (step !== undefined) step.result = { choice: 'default' };
      await runSequence(run, action.default, `${path}/default`);
      return;
    }
    case 'sequence':
      return runSequence(run, action.actions, `${path}/sequence`);
    case 'repeat':
      return runRepeat(run, action, runSequence, `${path}/repeat`);
    case 'parallel':
      return runParallel(run, action.branches, runSequence, `${path}/parallel`);
  }
}

/** Errors already recorded on the step they came from, so the steps around it do not repeat them. */
const traced = new WeakSet<object>();

/** Ends a step's trace element: what the error means for the trace (a stop or a cancel is no error). */
function leaveStep(run: Run, step: TraceStep | undefined, err?: unknown, message?: string): void {
  if (step === undefined || run.trace === undefined) return;
  let error: string | undefined;
  if (err !== undefined && !traced.has(err as object)) {
    if (!(err instanceof Halt) || err.outcome === 'failed') error = message ?? (err instanceof Error ? err.message : String(err));
    if (typeof err === 'object' && err !== null) traced.add(err);
  }
  run.trace.leave(step, run.variables, error);
}

/** A failure wrapped for the caller: marked as traced when the one it wraps was, and keeping its root cause. */
function wrapped(err: unknown, halt: Halt): Halt {
  if (traced.has(err as object)) traced.add(halt);
  halt.cause = err instanceof Halt ? err.rootCause : err;
  return halt;
}

/**
 * Runs actions in order, each traced at `<path>/<n>` (the one place every step passes through). An error ends the
 * run (Halt 'failed') unless the action has continue_on_error.
 */
export async function runSequence(run: Run, actions: readonly Action[], path: string): Promise<void> {
  for (let pos = 0; pos < actions.length; pos++) {
    const action = actions[pos] as Action;
    run.checkAborted();
    const stepPath = `${path}/${action.pos ?? pos}`;
    // Each step's templates render when the template budget has room (at once when it has).
    const room = run.env.templates.ready();
    if (room !== undefined) {
      await room;
      run.checkAborted();
    }
    const step = run.trace?.enter(stepPath, run.variables);
    try {
      await execute(run, action, step, stepPath);
      leaveStep(run, step);
    } catch (err) {
      if (err instanceof Halt) {
        leaveStep(run, step, err);
        // A template error is an error like any other for continue_on_error (Home Assistant's TemplateError).
        if (err.onceKey !== undefined && action.continueOnError) {
          run.env.log.warn({ script: run.name }, `${run.name}: ${describe(action)} at pos ${pos + 1} failed, continuing: %s`, err.message);
          continue;
        }
        if (err.onceKey !== undefined && !err.message.startsWith('Error for '))
          throw wrapped(err, new Halt('failed', `Error for ${describe(action)} at pos ${pos + 1}: ${err.message}`, null, err.onceKey));
        throw err;
      }
      const message = isHubError(err) ? err.message : err instanceof Error ? err.message : String(err);
      leaveStep(run, step, err, message);
      if (action.continueOnError && isHubError(err)) {
        run.env.log.warn({ script: run.name }, `${run.name}: ${describe(action)} at pos ${pos + 1} failed, continuing: %s`, message);
        continue;
      }
      if (!isHubError(err)) run.env.log.error({ err, script: run.name }, `${run.name}: unexpected error`);
      throw wrapped(err, new Halt('failed', `Error for ${describe(action)} at pos ${pos + 1}: ${message}`));
    }
  }
}
