import type { Core } from '../core/core.js';
import type { JsonValue } from '../core/json.js';
import { ownValue } from '../core/own-keys.js';
import type { State } from '../core/state.js';
import type { TemplateEngine } from '../template/index.js';
import type { RunTrace } from '../trace/trace.js';
import { renderDuration } from './durations.js';
import { entityTimeOfDay, type TimeZone } from './local-time.js';
import type { Condition, NumericBound } from './model.js';
import type { HubLocation } from './sun.js';
import { checkSun } from './sun-rules.js';
import { errorText, render, renderCondition, type TemplateVars, templateState } from './templating.js';
import { checkZone } from './zone-rules.js';

/** What conditions read: the states, the clock, the hub's time zone and its template engine. */
export interface ConditionEnv {
  readonly core: Core;
  readonly timeZone: TimeZone;
  readonly templates: TemplateEngine;
  /** The hub's latitude and longitude, for the sun trigger and condition. */
  readonly location?: HubLocation;
}

/** What one evaluation sees: the trigger's id, the run's variables, and where a template error is reported. */
export interface ConditionScope {
  readonly triggerId: string | undefined;
  readonly variables: TemplateVars;
  /** The automation or script, for the template's name in errors. */
  readonly name: string;
  /** A template that failed: the condition is false (Home Assistant's ConditionError) and the error reported. */
  readonly onError: (message: string) => void;
  /** Where each condition's result is recorded, when the run is traced. */
  readonly trace?: RunTrace;
}

/** A numeric_state value_template's number: rendered with `state`, read as a float; undefined when it is not one. */
export function templateNumber(
  env: ConditionEnv,
  template: string,
  state: State | undefined,
  variables: TemplateVars,
  name: string,
): number | undefined {
  const { text } = render(env.templates, template, `${name} value_template`, { ...variables, state: templateState(state) });
  const n = text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(n) ? n : undefined;
}

const NOT_NUMERIC = new Set(['unavailable', 'unknown']);

/** The value a state trigger or condition compares: the state, or one attribute as text. */
export function stateValue(state: State | null | undefined, attribute: string | undefined): string | undefined {
  if (state === null || state === undefined) return undefined;
  if (attribute === undefined) return state.state;
  return textOf(ownValue(state.attributes, attribute));
}

function textOf(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The number a state (or attribute) holds; undefined for `unknown`, `unavailable` and non-numbers. */
export function numericValue(state: State | null | undefined, attribute: string | undefined): number | undefined {
  if (state === null || state === undefined) return undefined;
  const raw: JsonValue | undefined = attribute === undefined ? state.state : ownValue(state.attributes, attribute);
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string' || raw.trim() === '' || NOT_NUMERIC.has(raw)) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}

function boundValue(core: Core, bound: NumericBound): number | undefined {
  return typeof bound === 'number' ? bound : numericValue(core.states.get(bound.entityId), undefined);
}

/** above < value < below, both strict, as Home Assistant compares; a bound that cannot be read fails. */
export function inNumericRange(
  core: Core,
  value: number | undefined,
  above: NumericBound | undefined,
  below: NumericBound | undefined,
): boolean {
  if (value === undefined) return false;
  if (above !== undefined) {
    const a = boundValue(core, above);
    if (a === undefined || value <= a) return false;
  }
  if (below !== undefined) {
    const b = boundValue(core, below);
    if (b === undefined || value >= b) return false;
  }
  return true;
}

const END_OF_DAY = 86_400;

/**
 * Evaluates one condition in a run's scope; with a trace path (`condition/0`, `action/1/if/condition/0`), its
 * result is recorded there, and its nested conditions under `<path>/conditions/<n>`.
 */
export function checkCondition(env: ConditionEnv, c: Condition, scope: ConditionScope, path?: string): boolean {
  const trace = path === undefined ? undefined : scope.trace;
  if (trace === undefined || path === undefined) return evaluate(env, c, scope);
  let error: string | undefined;
  const traced: ConditionScope = {
    ...scope,
    onError: (message) => {
      error = message;
      scope.onError(message);
    },
  };
  const step = trace.enter(path, scope.variables);
  const result = evaluate(env, c, traced, path);
  step.result = { result };
  trace.leave(step, scope.variables, error);
  return result;
}

function evaluate(env: ConditionEnv, c: Condition, scope: ConditionScope, path?: string): boolean {
  const nested = (x: Condition, i: number) => checkCondition(env, x, scope, path === undefined ? undefined : `${path}/conditions/${i}`);
  switch (c.kind) {
    case 'state': {
      const now = env.core.clock.now();
      let forMs = c.forMs;
      if (c.forTemplate !== undefined) {
        try {
          forMs = renderDuration(env.templates, c.forTemplate, scope.variables, `${scope.name} condition for`);
        } catch (err) {
          scope.onError(`In 'state' condition: Error rendering for template: ${errorText(err)}`);
          return false;
        }
      }
      const test = (id: string): boolean => {
        const state = env.core.states.get(id);
        const value = stateValue(state, c.attribute);
        if (state === undefined || value === undefined || !c.states.includes(value)) return false;
        return forMs === undefined || now - state.lastChangedUs >= forMs * 1000;
      };
      return c.matchAny ? c.entityIds.some(test) : c.entityIds.every(test);
    }
    case 'numeric_state':
      return c.entityIds.every((id) => {
        const state = env.core.states.get(id);
        if (c.valueTemplate === undefined) return inNumericRange(env.core, numericValue(state, c.attribute), c.above, c.below);
        try {
          return inNumericRange(env.core, templateNumber(env, c.valueTemplate, state, scope.variables, scope.name), c.above, c.below);
        } catch (err) {
          scope.onError(`In 'numeric_state' condition: ${errorText(err)}`);
          return false;
        }
      });
    case 'template':
      try {
        return renderCondition(env.templates, c.template, scope.variables, `${scope.name} condition`).value;
      } catch (err) {
        scope.onError(`In 'template' condition: ${errorText(err)}`);
        return false;
      }
    case 'time': {
      const local = env.timeZone.local(env.core.clock.now());
      const after = c.after === undefined ? 0 : boundOf(env, c.after);
      const before = c.before === undefined ? END_OF_DAY : boundOf(env, c.before);
      // An entity that holds no time (missing, unknown) fails the condition, as in Home Assistant.
      if (after === undefined || before === undefined) return false;
      const t = local.secondsOfDay;
      // after > before spans midnight (22:00 to 06:00).
      if (after < before ? !(after <= t && t < before) : before <= t && t < after) return false;
      return c.weekdays === undefined || c.weekdays.includes(local.weekday);
    }
    case 'and':
      return c.conditions.every(nested);
    case 'or':
      return c.conditions.some(nested);
    case 'not':
      return !c.conditions.some(nested);
    case 'sun':
      return checkSun(env, c);
    case 'zone':
      return checkZone(env.core, c);
    case 'trigger':
      return scope.triggerId !== undefined && c.ids.includes(scope.triggerId);
  }
}

/** A time condition's bound: its time of day, or the one its input_datetime or timestamp sensor holds now. */
function boundOf(env: ConditionEnv, bound: number | string): number | undefined {
  if (typeof bound === 'number') return bound;
  const state = env.core.states.get(bound);
  return state === undefined ? undefined : entityTimeOfDay(state, env.timeZone);
}

/** True when every condition passes (stopping at the first that fails); traced under `<path>/<n>` when given. */
export function checkConditions(env: ConditionEnv, conditions: readonly Condition[], scope: ConditionScope, path?: string): boolean {
  for (let i = 0; i < conditions.length; i++) {
    if (!checkCondition(env, conditions[i] as Condition, scope, path === undefined ? undefined : `${path}/${i}`)) return false;
  }
  return true;
}
