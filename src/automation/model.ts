import type { JsonObject, JsonValue } from '../core/json.js';

/** The parsed, validated shape of automations, scripts and scenes: what the engine runs. */

export type RunMode = 'single' | 'restart' | 'queued' | 'parallel';
export const RUN_MODES: readonly RunMode[] = ['single', 'restart', 'queued', 'parallel'];
export const DEFAULT_MAX_RUNS = 10;
/** Upper bound for `max:`, so a queue can never grow without limit. */
export const MAX_MAX_RUNS = 1000;

export type MaxExceeded = 'silent' | 'debug' | 'info' | 'warning' | 'error' | 'critical';
export const MAX_EXCEEDED_LEVELS: readonly MaxExceeded[] = ['silent', 'debug', 'info', 'warning', 'error', 'critical'];

/** A numeric bound: a fixed number, or the numeric state of another entity. */
export type NumericBound = number | { readonly entityId: string };

interface TriggerBase {
  /** `id:` or the trigger's index, as the `trigger` condition matches it. */
  readonly id: string;
  readonly index: number;
  readonly enabled: boolean;
}

/** An absent match means "any"; `null` inside a list matches a missing state. */
export interface StateTrigger extends TriggerBase {
  readonly kind: 'state';
  readonly entityIds: readonly string[];
  readonly from?: readonly string[];
  readonly to?: readonly string[];
  readonly notFrom?: readonly string[];
  readonly notTo?: readonly string[];
  readonly attribute?: string;
  /** True when none of from/to/not_from/not_to is given: then attribute-only changes trigger too. */
  readonly matchAll: boolean;
  readonly forMs?: number;
  /** A templated `for:`, rendered when the trigger fires (with `trigger`) or the condition is checked. */
  readonly forTemplate?: JsonValue;
}

export interface NumericStateTrigger extends TriggerBase {
  readonly kind: 'numeric_state';
  readonly entityIds: readonly string[];
  readonly above?: NumericBound;
  readonly below?: NumericBound;
  readonly attribute?: string;
  /** Rendered with `state` (the entity's state object); its number is compared instead of the state. */
  readonly valueTemplate?: string;
  readonly forMs?: number;
  /** A templated `for:`, rendered when the trigger fires (with `trigger`) or the condition is checked. */
  readonly forTemplate?: JsonValue;
}

/** Fires when the template's result becomes true (and, with `for:`, stays true that long). */
export interface TemplateTrigger extends TriggerBase {
  readonly kind: 'template';
  readonly template: string;
  readonly forMs?: number;
  /** A templated `for:`, rendered when the trigger fires (with `trigger`) or the condition is checked. */
  readonly forTemplate?: JsonValue;
}

export interface TimeTrigger extends TriggerBase {
  readonly kind: 'time';
  /** Seconds since local midnight, in the hub's time zone. */
  readonly at: readonly number[];
  /** `input_datetime` or timestamp `sensor` entities whose value is the time (Home Assistant's `at: input_datetime.x`). */
  readonly entities: readonly string[];
}

/** Fires when the hub's wall clock matches: each list holds the values its unit matches. */
export interface TimePatternTrigger extends TriggerBase {
  readonly kind: 'time_pattern';
  readonly hours: readonly number[];
  readonly minutes: readonly number[];
  readonly seconds: readonly number[];
}

/** Sunrise or sunset at the hub's location, moved by a signed offset. */
export interface SunTrigger extends TriggerBase {
  readonly kind: 'sun';
  readonly event: 'sunrise' | 'sunset';
  readonly offsetMs: number;
}

/** An entity's position entering or leaving a zone. */
export interface ZoneTrigger extends TriggerBase {
  readonly kind: 'zone';
  readonly entityIds: readonly string[];
  readonly zone: string;
  readonly event: 'enter' | 'leave';
}

export interface EventTrigger extends TriggerBase {
  readonly kind: 'event';
  readonly eventTypes: readonly string[];
  readonly eventData?: JsonObject;
}

export interface HomeAssistantTrigger extends TriggerBase {
  readonly kind: 'homeassistant';
  readonly event: 'start' | 'shutdown';
}

/** A message on an MQTT topic (wildcards allowed), optionally matching a payload after a value template. */
export interface MqttTrigger extends TriggerBase {
  readonly kind: 'mqtt';
  readonly topic: string;
  readonly payload?: string;
  readonly valueTemplate?: string;
}

export type Trigger =
  | StateTrigger
  | NumericStateTrigger
  | TemplateTrigger
  | TimeTrigger
  | TimePatternTrigger
  | SunTrigger
  | ZoneTrigger
  | EventTrigger
  | HomeAssistantTrigger
  | MqttTrigger;
export type TriggerKind = Trigger['kind'];
export const TRIGGER_KINDS: readonly TriggerKind[] = [
  'state',
  'numeric_state',
  'template',
  'time',
  'time_pattern',
  'sun',
  'zone',
  'event',
  'homeassistant',
  'mqtt',
];

export type Condition =
  | {
      readonly kind: 'state';
      readonly entityIds: readonly string[];
      readonly states: readonly string[];
      readonly attribute?: string;
      readonly forMs?: number;
      readonly forTemplate?: JsonValue;
      readonly matchAny: boolean;
    }
  | {
      readonly kind: 'numeric_state';
      readonly entityIds: readonly string[];
      readonly above?: NumericBound;
      readonly below?: NumericBound;
      readonly attribute?: string;
      readonly valueTemplate?: string;
    }
  | { readonly kind: 'template'; readonly template: string }
  | {
      readonly kind: 'time';
      /** Seconds since local midnight, or the input_datetime or timestamp sensor that holds the time. */
      readonly after?: number | string;
      readonly before?: number | string;
      /** 0 = Monday ... 6 = Sunday. */
      readonly weekdays?: readonly number[];
    }
  | {
      readonly kind: 'sun';
      readonly before?: 'sunrise' | 'sunset';
      readonly after?: 'sunrise' | 'sunset';
      readonly beforeOffsetMs: number;
      readonly afterOffsetMs: number;
    }
  /** Every entity's position is in one of the zones. */
  | { readonly kind: 'zone'; readonly entityIds: readonly string[]; readonly zones: readonly string[] }
  | { readonly kind: 'and' | 'or' | 'not'; readonly conditions: readonly Condition[] }
  | { readonly kind: 'trigger'; readonly ids: readonly string[] };
export type ConditionKind = Condition['kind'];
export const CONDITION_KINDS: readonly ConditionKind[] = [
  'state',
  'numeric_state',
  'template',
  'time',
  'sun',
  'zone',
  'and',
  'or',
  'not',
  'trigger',
];

interface ActionBase {
  readonly alias?: string;
  readonly continueOnError: boolean;
  /** Its index in the configured list when actions before it are disabled, so trace paths match the config. */
  readonly pos?: number;
}

export type Action = ActionBase &
  (
    | {
        readonly kind: 'service';
        readonly domain: string;
        readonly service: string;
        /** A templated service name (`action: "light.turn_{{ 'on' if x else 'off' }}"`), rendered per run. */
        readonly nameTemplate?: string;
        /** May hold templates, rendered per run (as `target` may). */
        readonly data: JsonObject;
        readonly target?: JsonObject;
        readonly responseVariable?: string;
      }
    /** A fixed duration, or a template (or a mapping with templates) read as one per run. */
    | { readonly kind: 'delay'; readonly ms: number; readonly template?: JsonValue }
    | { readonly kind: 'event'; readonly eventType: string; readonly eventData: JsonObject }
    | { readonly kind: 'condition'; readonly condition: Condition }
    | {
        readonly kind: 'wait_for_trigger';
        readonly triggers: readonly Trigger[];
        readonly timeoutMs?: number;
        /** A templated timeout, rendered when the wait starts. */
        readonly timeoutTemplate?: JsonValue;
        readonly continueOnTimeout: boolean;
      }
    | {
        readonly kind: 'wait_template';
        readonly template: string;
        readonly timeoutMs?: number;
        /** A templated timeout, rendered when the wait starts. */
        readonly timeoutTemplate?: JsonValue;
        readonly continueOnTimeout: boolean;
      }
    | { readonly kind: 'stop'; readonly reason: string; readonly error: boolean; readonly responseVariable?: string }
    | { readonly kind: 'variables'; readonly values: JsonObject }
    | { readonly kind: 'scene'; readonly entityId: string }
    | {
        readonly kind: 'if';
        readonly conditions: readonly Condition[];
        readonly then: readonly Action[];
        readonly else?: readonly Action[];
      }
    | {
        readonly kind: 'choose';
        readonly options: readonly { readonly conditions: readonly Condition[]; readonly sequence: readonly Action[] }[];
        readonly default?: readonly Action[];
      }
    | { readonly kind: 'sequence'; readonly actions: readonly Action[] }
    | { readonly kind: 'repeat'; readonly loop: RepeatLoop; readonly sequence: readonly Action[] }
    /** Each branch is one action (often a `sequence:`), run at the same time as the others. */
    | { readonly kind: 'parallel'; readonly branches: readonly Action[] }
  );

/** How a `repeat` action loops. `count` and `items` may be templates, rendered when the loop starts. */
export type RepeatLoop =
  | { readonly type: 'count'; readonly count: number | string }
  | { readonly type: 'while' | 'until'; readonly conditions: readonly Condition[] }
  | { readonly type: 'for_each'; readonly items: JsonValue };

/** A loop stops with an error after this many iterations, as Home Assistant's REPEAT_TERMINATE_ITERATIONS. */
export const MAX_REPEAT_ITERATIONS = 10_000;

/** How a sequence of actions runs, shared by automations and scripts. */
export interface RunPolicy {
  readonly mode: RunMode;
  readonly max: number;
  readonly maxExceeded: MaxExceeded;
}

/** Upper bound for `trace: stored_traces:` (Home Assistant's default is 5). */
export const MAX_STORED_TRACES = 100;

/** What a trace of an automation or script run keeps of its definition. */
export interface TraceSettings {
  /** `trace: stored_traces:`: how many runs are kept. */
  readonly storedTraces: number;
  /** The configuration as written, shown with each trace. */
  readonly config: JsonObject;
}

export interface AutomationDefinition extends RunPolicy, TraceSettings {
  readonly objectId: string;
  readonly uniqueId?: string;
  readonly alias: string;
  readonly description?: string;
  readonly initialState: boolean;
  readonly triggers: readonly Trigger[];
  readonly conditions: readonly Condition[];
  readonly actions: readonly Action[];
  readonly variables: JsonObject;
  /** Rendered once when the triggers attach; the triggers' templates and every run see them. */
  readonly triggerVariables: JsonObject;
}

export interface ScriptField {
  readonly name?: string;
  readonly description?: string;
  readonly required: boolean;
  readonly example?: JsonValue;
  readonly default?: JsonValue;
  readonly advanced: boolean;
}

export interface ScriptDefinition extends RunPolicy, TraceSettings {
  readonly objectId: string;
  readonly alias: string;
  readonly icon?: string;
  readonly description?: string;
  readonly fields: Readonly<Record<string, ScriptField>>;
  readonly sequence: readonly Action[];
  readonly variables: JsonObject;
}

export interface SceneEntityState {
  readonly state: string;
  readonly attributes: JsonObject;
}

export interface SceneDefinition {
  readonly objectId: string;
  readonly uniqueId?: string;
  readonly name: string;
  readonly icon?: string;
  readonly entities: ReadonlyMap<string, SceneEntityState>;
}
