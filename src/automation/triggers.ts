import { isoFromMicros } from '../core/clock.js';
import type { HubEvent } from '../core/event-bus.js';
import { isJsonObject, type JsonObject, type JsonValue, jsonEqual } from '../core/json.js';
import { ownValue } from '../core/own-keys.js';
import { inNumericRange, numericValue, stateValue, templateNumber } from './conditions.js';
import type { EventTrigger, HomeAssistantTrigger, MqttTrigger, NumericStateTrigger, StateTrigger, TimeTrigger, Trigger } from './model.js';
import { nextSunTrigger } from './sun-rules.js';
import { errorText, levelFor, render, renderComplex } from './templating.js';
import { attachTimeEntity } from './time-entity.js';
import { nextPatternTime } from './time-pattern.js';
import { type TimerHandle, TimerSet } from './timer-set.js';
import { triggerForMs } from './trigger-for.js';
import { info, type TriggerCallback, type TriggerEnv, type TriggerScope } from './trigger-info.js';
import { attachTemplate } from './trigger-template.js';
import { scheduleWallClock } from './wall-clock.js';
import { attachZone } from './zone-trigger.js';

export {
  type MqttTriggerSource,
  type TriggerCallback,
  type TriggerEnv,
  type TriggerInfo,
  type TriggerScope,
  triggerVariable,
} from './trigger-info.js';

function matches(list: readonly string[] | undefined, value: string | undefined, ifAbsent: boolean): boolean {
  if (list === undefined) return ifAbsent;
  return value !== undefined && list.includes(value);
}

function attachState(env: TriggerEnv, t: StateTrigger, fire: TriggerCallback, timers: TimerSet, scope: TriggerScope): (() => void)[] {
  const pending = new Map<string, { timer: TimerHandle; from: string | undefined }>();
  const matchFrom = (v: string | undefined) => matches(t.from, v, true) && !matches(t.notFrom, v, false);
  const matchTo = (v: string | undefined) => matches(t.to, v, true) && !matches(t.notTo, v, false);
  // While `for` runs the entity must stay as the trigger wanted it (only `from:` given: stay away from it).
  const stillSame = (v: string | undefined, from: string | undefined) =>
    v !== undefined && (t.from !== undefined && t.to === undefined && t.notTo === undefined ? v !== from : matchTo(v));

  return t.entityIds.map((entityId) =>
    env.states.on(entityId, (event: HubEvent<'state_changed'>) => {
      const { old_state, new_state } = event.data;
      const oldValue = stateValue(old_state, t.attribute);
      const newValue = stateValue(new_state, t.attribute);
      const waiting = pending.get(entityId);
      if (waiting !== undefined && (new_state === null || !stillSame(newValue, waiting.from))) {
        timers.cancel(waiting.timer);
        pending.delete(entityId);
      }
      if (t.attribute !== undefined && oldValue === newValue) return;
      if (!matchFrom(oldValue) || !matchTo(newValue)) return;
      // With from/to given, attribute-only changes do not count.
      if (!t.matchAll && oldValue === newValue) return;
      const found = info(t, { entity_id: entityId, from_state: old_state, to_state: new_state, description: `state of ${entityId}` });
      const forMs = triggerForMs(env, scope, t, found);
      if (forMs === null) return;
      const data = forMs === undefined ? found : { ...found, for: forMs / 1000 };
      if (forMs === undefined) {
        fire(data, event.context);
        return;
      }
      const previous = pending.get(entityId);
      if (previous !== undefined) timers.cancel(previous.timer);
      const timer = timers.after(forMs, () => {
        pending.delete(entityId);
        fire(data, event.context);
      });
      pending.set(entityId, { timer, from: oldValue });
    }),
  );
}

function attachNumericState(
  env: TriggerEnv,
  t: NumericStateTrigger,
  fire: TriggerCallback,
  timers: TimerSet,
  scope: TriggerScope,
): (() => void)[] {
  const { core } = env;
  const failing = new Set<string>();
  const numberOf = (entityId: string): number | undefined => {
    const state = core.states.get(entityId);
    if (t.valueTemplate === undefined) return numericValue(state, t.attribute);
    try {
      const n = templateNumber(env, t.valueTemplate, state, scope.variables, scope.name);
      failing.delete(entityId);
      return n;
    } catch (err) {
      // Logged once until the template renders again; an error counts as out of range.
      if (!failing.has(entityId))
        env.log[levelFor(err, 'error')](
          { automation: scope.name },
          `${scope.name}: Error in numeric_state trigger value_template: %s`,
          errorText(err),
        );
      failing.add(entityId);
      return undefined;
    }
  };
  const inRange = (entityId: string) => inNumericRange(core, numberOf(entityId), t.above, t.below);
  // An entity fires when it crosses into the range; one that starts outside is armed.
  const armed = new Set<string>();
  const pending = new Map<string, TimerHandle>();
  for (const id of t.entityIds) if (!inRange(id)) armed.add(id);
  return t.entityIds.map((entityId) =>
    env.states.on(entityId, (event) => {
      if (!inRange(entityId)) {
        armed.add(entityId);
        if (pending.has(entityId)) {
          timers.cancel(pending.get(entityId));
          pending.delete(entityId);
        }
        return;
      }
      if (!armed.delete(entityId)) return;
      const found = info(t, {
        entity_id: entityId,
        from_state: event.data.old_state,
        to_state: event.data.new_state,
        description: `numeric state of ${entityId}`,
      });
      const forMs = triggerForMs(env, scope, t, found);
      if (forMs === null) return;
      const data = forMs === undefined ? found : { ...found, for: forMs / 1000 };
      if (forMs === undefined) {
        fire(data, event.context);
        return;
      }
      const timer = timers.after(forMs, () => {
        pending.delete(entityId);
        fire(data, event.context);
      });
      pending.set(entityId, timer);
    }),
  );
}

function attachTime(env: TriggerEnv, t: TimeTrigger, fire: TriggerCallback, timers: TimerSet): (() => void)[] {
  const detach = t.entities.map((entityId) =>
    attachTimeEntity(env, entityId, () => fire(info(t, { description: 'time', entity_id: entityId }), null)),
  );
  for (const secondsOfDay of t.at) {
    scheduleWallClock(
      env,
      timers,
      (afterUs) => env.timeZone.nextAt(afterUs, secondsOfDay),
      () => fire(info(t, { description: 'time' }), null),
    );
  }
  return detach;
}

function eventMatches(event: HubEvent, wanted: JsonObject | undefined): boolean {
  if (wanted === undefined) return true;
  const data: unknown = event.data;
  if (!isJsonObject(data as JsonValue)) return false;
  const have = data as JsonObject;
  for (const key of Object.keys(wanted)) if (!jsonEqual(ownValue(have, key), wanted[key])) return false;
  return true;
}

function attachEvent(env: TriggerEnv, t: EventTrigger, fire: TriggerCallback, scope: TriggerScope): (() => void)[] {
  let wanted = t.eventData;
  if (wanted !== undefined) {
    // Home Assistant renders event_data once, when the trigger attaches, with the automation's variables.
    try {
      wanted = renderComplex(env.templates, wanted, scope.variables, `${scope.name} event_data`) as JsonObject;
    } catch (err) {
      env.log.error(
        { automation: scope.name },
        `${scope.name}: Error rendering event trigger event_data: %s; it never fires`,
        errorText(err),
      );
      return [];
    }
  }
  return t.eventTypes.map((type) =>
    env.core.bus.on(env.owner, type, (event: HubEvent) => {
      if (!eventMatches(event, wanted)) return;
      const data: unknown = event.data;
      const seen = {
        event_type: event.event_type,
        data: (isJsonObject(data as JsonValue) ? data : {}) as JsonObject,
        origin: event.origin,
        time_fired: isoFromMicros(event.timeFiredUs),
      };
      fire(info(t, { event_type: event.event_type, event: seen, description: `event '${event.event_type}'` }), event.context);
    }),
  );
}

function attachHomeAssistant(env: TriggerEnv, t: HomeAssistantTrigger, fire: TriggerCallback, timers: TimerSet): (() => void)[] {
  if (t.event === 'start') {
    // Automations attached while the hub starts fire once it has; after a reload they do not.
    if (env.starting) timers.after(0, () => fire(info(t, { description: 'Home Assistant starting' }), null));
    return [];
  }
  return [env.core.bus.on(env.owner, 'homeassistant_stop', () => fire(info(t, { description: 'Home Assistant stopping' }), null))];
}

function attachMqtt(env: TriggerEnv, t: MqttTrigger, fire: TriggerCallback, scope: TriggerScope): (() => void)[] {
  const source = env.mqtt;
  if (source === undefined) {
    env.log.error({ topic: t.topic }, 'an mqtt trigger needs an mqtt: section; it never fires');
    return [];
  }
  let off: () => void;
  try {
    off = source.subscribe(t.topic, (m) => {
      // Home Assistant's trigger ignores retained messages present when it subscribes only if asked; it fires on them.
      let value = m.payload;
      if (t.valueTemplate !== undefined) {
        let json: JsonValue | undefined;
        try {
          json = JSON.parse(m.payload) as JsonValue;
        } catch {
          json = undefined;
        }
        try {
          // Through the automation's own engine, so that the template budget counts it with the automation's.
          const variables = json === undefined ? { value: m.payload } : { value: m.payload, value_json: json };
          value = render(env.templates, t.valueTemplate, `${scope.name} value_template`, variables).text;
        } catch (err) {
          env.log[levelFor(err, 'warn')]({ topic: m.topic, err: errorText(err) }, 'mqtt trigger: value_template failed');
          return;
        }
      }
      if (t.payload !== undefined && value.trim() !== t.payload) return;
      fire(info(t, { topic: m.topic, payload: m.payload, description: `mqtt topic ${m.topic}` }), null);
    });
  } catch (err) {
    env.log.error({ topic: t.topic, err: err instanceof Error ? err.message : String(err) }, 'mqtt trigger could not subscribe');
    return [];
  }
  return [off];
}

/** Attaches the enabled triggers; the returned function detaches them all and clears their timers. */
export function attachTriggers(
  env: TriggerEnv,
  triggers: readonly Trigger[],
  fire: TriggerCallback,
  scope: TriggerScope = { variables: {}, name: 'trigger' },
): () => void {
  const timers = new TimerSet((err) => env.log.error({ err }, 'trigger failed'), env.scheduler);
  const detach: (() => void)[] = [];
  for (const t of triggers) {
    if (!t.enabled) continue;
    switch (t.kind) {
      case 'state':
        detach.push(...attachState(env, t, fire, timers, scope));
        break;
      case 'numeric_state':
        detach.push(...attachNumericState(env, t, fire, timers, scope));
        break;
      case 'template':
        detach.push(...attachTemplate(env, t, fire, timers, scope));
        break;
      case 'time':
        detach.push(...attachTime(env, t, fire, timers));
        break;
      case 'time_pattern':
        scheduleWallClock(
          env,
          timers,
          (afterUs) => nextPatternTime(t, env.timeZone, afterUs),
          () => fire(info(t, { description: 'time pattern' }), null),
        );
        break;
      case 'sun':
        scheduleWallClock(
          env,
          timers,
          (afterUs) => nextSunTrigger(t, env, afterUs),
          () => fire(info(t, { description: `sun ${t.event}`, event: t.event, offset: t.offsetMs / 1000 }), null),
        );
        break;
      case 'zone':
        detach.push(...attachZone(env, t, fire));
        break;
      case 'event':
        detach.push(...attachEvent(env, t, fire, scope));
        break;
      case 'homeassistant':
        detach.push(...attachHomeAssistant(env, t, fire, timers));
        break;
      case 'mqtt':
        detach.push(...attachMqtt(env, t, fire, scope));
        break;
    }
  }
  return () => {
    timers.close();
    for (const d of detach) d();
  };
}
