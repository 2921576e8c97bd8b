import type { HubEvent } from '../core/event-bus.js';
import type { Trigger } from './model.js';
import { Halt, type Run, templateHalt } from './run.js';
import { renderCondition } from './templating.js';
import { timeoutOn } from './timer-set.js';
import { attachTriggers, type TriggerInfo, triggerVariable } from './triggers.js';

/** Home Assistant re-renders a template that read the time at least once a minute. */
const TIME_TICK_MS = 60_000;

/** How a wait ended: `wait.completed`, `wait.remaining` (seconds, or None without a timeout), `wait.trigger`. */
export interface WaitResult {
  readonly completed: boolean;
  readonly remaining: number | null;
  readonly trigger: Readonly<Record<string, unknown>> | null;
}

/**
 * Waits for `until` to report done (it is given a `done` callback and returns its detach function), up to the
 * timeout; throws Halt when the run is stopped. Timers and listeners never outlive the wait.
 */
function waitFor(
  run: Run,
  timeoutMs: number | undefined,
  until: (done: (trigger: Readonly<Record<string, unknown>> | null) => void, fail: (err: unknown) => void) => () => void,
): Promise<WaitResult> {
  const { signal } = run.abort;
  const started = performance.now();
  const remaining = () => (timeoutMs === undefined ? null : Math.max(0, (timeoutMs - (performance.now() - started)) / 1000));
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new Halt('aborted', 'stopped'));
      return;
    }
    let settled = false;
    let detach: (() => void) | undefined;
    let cancelTimeout: (() => void) | undefined;
    const finish = (result: WaitResult | Halt) => {
      if (settled) return;
      settled = true;
      detach?.();
      cancelTimeout?.();
      signal.removeEventListener('abort', onAbort);
      if (result instanceof Halt) reject(result);
      else resolve(result);
    };
    const onAbort = () => finish(new Halt('aborted', 'stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    if (timeoutMs !== undefined)
      cancelTimeout = timeoutOn(run.env.scheduler, timeoutMs, () => finish({ completed: false, remaining: 0, trigger: null }));
    detach = until(
      (trigger) => finish({ completed: true, remaining: remaining(), trigger }),
      (err) => finish(templateHalt(err)),
    );
    if (settled) detach();
  });
}

/** wait_for_trigger: done when one of the triggers fires. */
export function waitForTrigger(run: Run, triggers: readonly Trigger[], timeoutMs: number | undefined): Promise<WaitResult> {
  return waitFor(run, timeoutMs, (done) =>
    attachTriggers({ ...run.env, starting: false }, triggers, (info: TriggerInfo) => done(triggerVariable(info)), {
      variables: run.variables,
      name: run.name,
    }),
  );
}

/**
 * wait_template: done at once when the template is already true, else when an entity it read changes (or the
 * minute turns, for a template that read the time) and it renders true. A render error stops the run.
 */
export function waitTemplate(run: Run, template: string, timeoutMs: number | undefined): Promise<WaitResult> {
  const { env } = run;
  const name = `${run.name} wait_template`;
  const first = renderCondition(env.templates, template, run.variables, name);
  let info = first.info;
  if (first.value) {
    return Promise.resolve({ completed: true, remaining: timeoutMs === undefined ? null : timeoutMs / 1000, trigger: null });
  }
  return waitFor(run, timeoutMs, (done, fail) => {
    let tick: NodeJS.Timeout | undefined;
    let failed: unknown;
    const check = () => {
      try {
        const result = renderCondition(env.templates, template, run.variables, name);
        info = result.info;
        if (result.value) done(null);
      } catch (err) {
        failed = err;
        fail(err);
      }
      schedule();
    };
    const schedule = () => {
      clearTimeout(tick);
      tick = info.time && failed === undefined ? setTimeout(check, TIME_TICK_MS - (Date.now() % TIME_TICK_MS)) : undefined;
    };
    const off = env.core.bus.on(env.owner, 'state_changed', (event: HubEvent<'state_changed'>) => {
      if (info.covers(event.data.entity_id)) check();
    });
    schedule();
    return () => {
      off();
      clearTimeout(tick);
    };
  });
}
