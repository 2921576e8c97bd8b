import type { Micros } from '../core/clock.js';
import type { State } from '../core/state.js';
import { TimerSet } from './timer-set.js';
import type { TriggerEnv } from './trigger-info.js';
import { scheduleWallClock } from './wall-clock.js';

/** When an entity's value says to fire: each day at a time of day, or once at an instant. */
type Schedule = { readonly daily: number } | { readonly once: Micros } | null;

/**
 * A time trigger's `at: input_datetime.x` or `at: sensor.x` (a timestamp sensor), as Home Assistant's: an
 * input_datetime with a time only fires each day at it, one with a date at that moment (a date alone at its
 * midnight); a sensor fires at the instant its state gives. A change of the entity moves the trigger.
 */
export function attachTimeEntity(env: TriggerEnv, entityId: string, fire: () => void): () => void {
  let timers: TimerSet | undefined;
  const arm = (state: State | undefined) => {
    timers?.close();
    timers = undefined;
    const schedule = scheduleOf(env, entityId, state);
    if (schedule === null) return;
    timers = new TimerSet((err) => env.log.error({ err }, 'time trigger failed'), env.scheduler);
    if ('daily' in schedule) {
      scheduleWallClock(env, timers, (afterUs) => env.timeZone.nextAt(afterUs, schedule.daily), fire);
      return;
    }
    if (schedule.once <= env.core.clock.now()) return;
    let fired = false;
    scheduleWallClock(
      env,
      timers,
      (afterUs) => (fired || schedule.once <= afterUs ? undefined : schedule.once),
      () => {
        fired = true;
        fire();
        timers?.close();
      },
    );
  };
  const off = env.states.on(entityId, (event) => arm(event.data.new_state ?? undefined));
  arm(env.core.states.get(entityId));
  return () => {
    off();
    timers?.close();
  };
}

function scheduleOf(env: TriggerEnv, entityId: string, state: State | undefined): Schedule {
  if (state === undefined || state.state === 'unavailable' || state.state === 'unknown') return null;
  if (entityId.startsWith('sensor.')) {
    const ms = Date.parse(state.state);
    return state.attributes.device_class === 'timestamp' && Number.isFinite(ms) ? { once: ms * 1000 } : null;
  }
  const a = state.attributes;
  const num = (key: string) => (typeof a[key] === 'number' ? (a[key] as number) : 0);
  const seconds = num('hour') * 3600 + num('minute') * 60 + num('second');
  if (a.has_date !== true) return a.has_time === true ? { daily: seconds } : null;
  return { once: env.timeZone.instant(num('year'), num('month'), num('day'), a.has_time === true ? seconds : 0) };
}
