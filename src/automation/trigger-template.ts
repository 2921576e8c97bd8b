import type { Context } from '../core/context.js';
import type { HubEvent } from '../core/event-bus.js';
import { parseResult, RenderInfo } from '../template/index.js';
import type { TemplateTrigger } from './model.js';
import { errorText, levelFor, resultAsBoolean } from './templating.js';
import type { TimerHandle, TimerSet } from './timer-set.js';
import { triggerForMs } from './trigger-for.js';
import { info, type TriggerCallback, type TriggerEnv, type TriggerScope } from './trigger-info.js';

/** A template that read the time renders again at each minute, as Home Assistant's track_template does. */
const TIME_TICK_MS = 60_000;

/**
 * The `template` trigger (Home Assistant's template trigger): rendered at attach time, then again after each change of
 * an entity the last render read (RenderInfo); it fires when the result becomes true, and with `for:` only when it
 * stays true that long. A render error counts as false and is logged once until the template renders again.
 */
export function attachTemplate(
  env: TriggerEnv,
  t: TemplateTrigger,
  fire: TriggerCallback,
  timers: TimerSet,
  scope: TriggerScope,
): (() => void)[] {
  const name = `${scope.name} trigger`;
  let last = new RenderInfo();
  let wasTrue = true;
  let failing = false;
  let pending: TimerHandle;
  let tick: TimerHandle;

  // Re-rendered on a change of what the last render read (the dispatch is indexed by it), when the template
  // budget has room (at once when it has): a burst of changes waiting for room renders once, with the latest.
  let latest: HubEvent<'state_changed'> | null = null;
  const recheck = () => check(latest, latest?.context ?? null);
  const onChange = (event: HubEvent<'state_changed'>) => {
    latest = event;
    env.templates.schedule(recheck);
  };
  const evaluate = (): boolean => {
    const outcome = env.templates.tryRender(t.template, { name, variables: scope.variables });
    // What a failed render read is tracked too: a change of it may make the template render (and in time).
    last = outcome.info;
    env.templateChanges.track(onChange, last);
    if (outcome.ok) {
      failing = false;
      return resultAsBoolean(parseResult(outcome.text));
    }
    if (!failing) {
      const { error } = outcome;
      env.log[levelFor(error, 'error')]({ automation: scope.name }, `${scope.name}: Error in template trigger: %s`, errorText(error));
    }
    failing = true;
    return false;
  };

  const scheduleTick = () => {
    timers.cancel(tick);
    tick = last.time
      ? timers.after(TIME_TICK_MS - (Date.now() % TIME_TICK_MS), () => {
          latest = null;
          env.templates.schedule(recheck);
        })
      : undefined;
  };

  const check = (event: HubEvent<'state_changed'> | null, context: Context | null) => {
    const now = evaluate();
    scheduleTick();
    if (!now) {
      wasTrue = false;
      timers.cancel(pending);
      pending = undefined;
      return;
    }
    if (wasTrue) return;
    wasTrue = true;
    const found = info(t, {
      entity_id: event?.data.entity_id,
      from_state: event?.data.old_state ?? null,
      to_state: event?.data.new_state ?? null,
      description: 'template',
    });
    const forMs = triggerForMs(env, scope, t, found);
    if (forMs === null) return;
    const data = forMs === undefined ? found : { ...found, for: forMs / 1000 };
    if (forMs === undefined) fire(data, context);
    else
      pending = timers.after(forMs, () => {
        pending = undefined;
        fire(data, context);
      });
  };

  // A template already true when attached does not fire: it must become true.
  wasTrue = evaluate();
  scheduleTick();
  return [
    () => {
      env.templateChanges.untrack(onChange);
      env.templates.cancel(recheck);
      timers.cancel(pending);
      timers.cancel(tick);
    },
  ];
}
