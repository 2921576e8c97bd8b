import type { Context } from '../core/context.js';
import type { JsonObject } from '../core/json.js';
import type { Logger } from '../core/log.js';
import type { State } from '../core/state.js';
import type { TemplateDispatch } from '../template/index.js';
import type { TraceStore } from '../trace/store.js';
import type { Scheduler } from '../util/scheduler.js';
import type { ConditionEnv } from './conditions.js';
import type { Trigger } from './model.js';
import type { StateDispatch } from './state-dispatch.js';
import { templateState } from './templating.js';

/** What triggers need from the hub. */
export interface TriggerEnv extends ConditionEnv {
  readonly log: Logger;
  readonly states: StateDispatch;
  /** Template triggers' re-renders, dispatched by what each last render read. */
  readonly templateChanges: TemplateDispatch;
  /** Owner key for bus listeners (removed in bulk when the extension stops). */
  readonly owner: string;
  /** True while the hub is starting: `homeassistant: start` triggers fire only then, not after a reload. */
  readonly starting: boolean;
  /** The broker connection for `mqtt` triggers; undefined without an `mqtt:` section. */
  readonly mqtt?: MqttTriggerSource;
  /** Where automation and script runs keep their traces; undefined where runs are not traced (template entities). */
  readonly traces?: TraceStore;
  /** Timers on the hub's clock (`for:`, delays, wait timeouts); Node's own without it. */
  readonly scheduler?: Scheduler;
}

/** What an `mqtt` trigger needs: subscriptions (wildcards allowed); its value_template renders with the automation's engine. */
export interface MqttTriggerSource {
  subscribe(
    filter: string,
    fn: (message: { readonly topic: string; readonly payload: string; readonly retain: boolean }) => void,
  ): () => void;
  /** Unused (the composition root still passes the MQTT renderer); the automation's engine renders value_template. */
  readonly render?: unknown;
}

/** What a trigger reports: Home Assistant's `trigger` variable. */
export interface TriggerInfo {
  readonly platform: string | null;
  readonly id: string;
  readonly idx: string;
  readonly description?: string;
  readonly entity_id?: string;
  readonly event_type?: string;
  readonly topic?: string;
  readonly payload?: string;
  /** State and numeric_state (and template) triggers: the states before and after the change. */
  readonly from_state?: State | null;
  readonly to_state?: State | null;
  /** Event triggers: the event as templates read it (`trigger.event.data.x`); sun and zone triggers: which one. */
  readonly event?: JsonObject | string;
  /** Zone triggers: the zone's state. */
  readonly zone?: State;
  /** Sun triggers: the offset, in seconds. */
  readonly offset?: number;
  /** A `for:` the trigger waited, in seconds. */
  readonly for?: number;
}

export type TriggerCallback = (info: TriggerInfo, context: Context | null) => void;

/** What the templates of triggers (template, numeric_state value_template, event_data) see: the automation's variables. */
export interface TriggerScope {
  readonly variables: Readonly<Record<string, unknown>>;
  /** The automation, for template names and log messages. */
  readonly name: string;
}

export function info(t: Trigger, extra: Omit<TriggerInfo, 'id' | 'idx' | 'platform'>): TriggerInfo {
  return { platform: t.kind, id: t.id, idx: String(t.index), ...extra };
}

/** Home Assistant's `trigger` variable: the info, with the states as templates read them. */
export function triggerVariable(info: TriggerInfo | undefined): Record<string, unknown> {
  if (info === undefined) return { platform: null };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(info)) {
    if (value === undefined) continue;
    out[key] = key === 'from_state' || key === 'to_state' || key === 'zone' ? templateState(value as State | null) : value;
  }
  return out;
}
