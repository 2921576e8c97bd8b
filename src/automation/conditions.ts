import type { Core } from '../core/core.js';
import type { JsonValue } from '../core/json.js';
import type { State } from '../core/state.js';
import type { TimeZone } from './local-time.js';
import type { Condition, NumericBound } from './model.js';

/** What conditions read: the states, the clock, and the hub's time zone. */
export interface ConditionEnv {
  readonly core: Core;
  readonly timeZone: TimeZone;
}

const NOT_NUMERIC = new Set(['unavailable', 'unknown']);

/** The value a state trigger or condition compares: the state, or one attribute as text. */
export function stateValue(state: State | null | undefined, attribute: string | undefined): string | undefined {
  if (state === null || state === undefined) return undefined;
  if (attribute === undefined) return state.state;
  return textOf(state.attributes[attribute]);
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
  const raw: JsonValue | undefined = attribute === undefined ? state.state : state.attributes[attribute];
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

/** Evaluates one condition; `triggerId` is the id of the trigger that started the run, if any. */
export function checkCondition(env: ConditionEnv, c: Condition, triggerId: string | undefined): boolean {
  switch (c.kind) {
    case 'state': {
      const now = env.core.clock.now();
      const test = (id: string): boolean => {
        const state = env.core.states.get(id);
        const value = stateValue(state, c.attribute);
        if (state === undefined || value === undefined || !c.states.includes(value)) return false;
        return c.forMs === undefined || now - state.lastChangedUs >= c.forMs * 1000;
      };
      return c.matchAny ? c.entityIds.some(test) : c.entityIds.every(test);
    }
    case 'numeric_state':
      return c.entityIds.every((id) => inNumericRange(env.core, numericValue(env.core.states.get(id), c.attribute), c.above, c.below));
    case 'time': {
      const local = env.timeZone.local(env.core.clock.now());
      const after = c.after ?? 0;
      const before = c.before ?? END_OF_DAY;
      const t = local.secondsOfDay;
      // after > before spans midnight (22:00 to 06:00).
      if (after < before ? !(after <= t && t < before) : before <= t && t < after) return false;
      return c.weekdays === undefined || c.weekdays.includes(local.weekday);
    }
    case 'and':
      return c.conditions.every((x) => checkCondition(env, x, triggerId));
    case 'or':
      return c.conditions.some((x) => checkCondition(env, x, triggerId));
    case 'not':
      return !c.conditions.some((x) => checkCondition(env, x, triggerId));
    case 'trigger':
      return triggerId !== undefined && c.ids.includes(triggerId);
  }
}

export function checkConditions(env: ConditionEnv, conditions: readonly Condition[], triggerId: string | undefined): boolean {
  for (const c of conditions) if (!checkCondition(env, c, triggerId)) return false;
  return true;
}
