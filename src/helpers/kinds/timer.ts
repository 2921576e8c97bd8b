import { isoFromMicros, microsFromIso } from '../../core/clock.js';
import type { Context } from '../../core/context.js';
import { HubError } from '../../core/errors.js';
import type { DesiredState } from '../../domains/domain.js';
import { parseDuration } from '../../domains/helper-format.js';
import { addTimer, type TimerPlatform, type TimerStatus } from '../../domains/timer.js';
import type { HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, setNameIcon } from '../kind.js';

/** setTimeout's limit; a later end is reached in steps. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
const US = 1_000_000;

/**
 * Home Assistant's timer on the hub's clock: times are whole seconds (utcnow without microseconds), the end is
 * an instant (so a restart knows how much is left), and the events are timer.started, restarted, paused,
 * cancelled, finished (with finished_at) and changed.
 */
class Timer implements TimerPlatform, LiveHelper {
  private status: TimerStatus = 'idle';
  /** The duration of the current run: a start with a duration sets it until the timer is idle again. */
  private runningS: number;
  private remainingS: number | null = null;
  private endUs: number | null = null;
  private handle;
  private listener: unknown;
  private offStarted: (() => void) | undefined;

  constructor(
    private readonly env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.runningS = this.configuredS;
    this.handle = addTimer(env.core, entityInit(env, 'timer', item, this, item.restore === true));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private get configuredS(): number {
    return parseDuration(this.item.duration) ?? 0;
  }

  private nowUs(): number {
    return Math.floor(this.env.core.clock.now() / US) * US;
  }

  private report(context?: Context): void {
    this.handle.report(
      {
        status: this.status,
        durationS: this.runningS,
        editable: this.editable,
        finishesAt: this.endUs === null ? null : isoFromMicros(this.endUs),
        remainingS: this.remainingS,
        restore: this.item.restore === true,
      },
      context,
    );
  }

  private fire(event: string, context: Context | undefined, extra: Record<string, string> = {}): void {
    const { core } = this.env;
    core.bus.fire(`timer.${event}`, { entity_id: this.entity.id, ...extra }, context ?? core.newContext());
  }

  private unlisten(): void {
    if (this.listener !== undefined) this.env.scheduler.clear(this.listener);
    this.listener = undefined;
  }

  /** Waits for the end on the hub's clock; a timeout that fires early (a long timer, a moved clock) waits again. */
  private listen(): void {
    this.unlisten();
    const end = this.endUs;
    if (end === null) return;
    const ms = Math.min(MAX_TIMEOUT_MS, Math.max(0, (end - this.env.core.clock.now()) / 1000));
    this.listener = this.env.scheduler.timeout(() => {
      this.listener = undefined;
      if (this.env.core.clock.now() < end) this.listen();
      else this.finish(undefined);
    }, ms);
  }

  start(durationS: number, context: Context | undefined): void {
    this.unlisten();
    const event = this.status === 'idle' ? 'started' : 'restarted';
    this.status = 'active';
    if (durationS) this.remainingS = this.runningS = durationS;
    else if (!this.remainingS) this.remainingS = this.runningS;
    this.endUs = this.nowUs() + this.remainingS * US;
    this.fire(event, context);
    this.listen();
    this.report(context);
  }

  pause(context: Context): void {
    if (this.status !== 'active' || this.endUs === null) return;
    this.unlisten();
    this.remainingS = Math.max(0, (this.endUs - this.nowUs()) / US);
    this.status = 'paused';
    this.endUs = null;
    this.fire('paused', context);
    this.report(context);
  }

  cancel(context: Context): void {
    this.unlisten();
    this.status = 'idle';
    this.endUs = null;
    this.remainingS = null;
    this.runningS = this.configuredS;
    this.fire('cancelled', context);
    this.report(context);
  }

  finish(context: Context | undefined): void {
    if (this.status !== 'active') return;
    this.unlisten();
    const end = this.endUs ?? this.nowUs();
    this.status = 'idle';
    this.endUs = null;
    this.remainingS = null;
    this.runningS = this.configuredS;
    this.fire('finished', context, { finished_at: isoFromMicros(end) });
    this.report(context);
  }

  change(durationS: number, context: Context): void {
    const id = this.entity.id;
    if (this.status !== 'active' || this.endUs === null) {
      throw new HubError('hub_error', `Timer ${id} is not running, only active timers can be changed`);
    }
    const left = (this.endUs - this.nowUs()) / US + durationS;
    if (durationS > 0 && left > this.runningS) throw new HubError('hub_error', `Not possible to change timer ${id} beyond duration`);
    if (left < 0) throw new HubError('hub_error', `Not possible to change timer ${id} to negative time remaining`);
    this.endUs += durationS * US;
    this.remainingS = left;
    this.fire('changed', context);
    this.listen();
    this.report(context);
  }

  /**
   * With `restore: true` (Home Assistant's default is false): a paused timer keeps its remaining time; an
   * active one runs on to its stored end, or finishes at once (timer.finished at the stored end) when that
   * passed while the hub was down.
   */
  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.restore !== true) return;
    const duration = parseDuration(stored.attributes.duration);
    if (duration !== undefined) this.runningS = duration;
    if (stored.state === 'paused') {
      this.status = 'paused';
      this.remainingS = parseDuration(stored.attributes.remaining) ?? this.runningS;
      this.report(context);
      return;
    }
    if (stored.state !== 'active') return;
    const finishesAt = stored.attributes.finishes_at;
    const end = typeof finishesAt === 'string' ? microsFromIso(finishesAt) : undefined;
    if (end === undefined) return;
    const left = (end - this.nowUs()) / US;
    if (left > 0) {
      this.status = 'paused';
      this.remainingS = left;
      this.start(0, context);
    } else {
      this.status = 'active';
      this.endUs = end;
      this.remainingS = 0;
      const { core } = this.env;
      if (core.runState === 'RUNNING') {
        this.finish(context);
        return;
      }
      // It ended while the hub was down: finish once the hub runs, so automations waiting for timer.finished
      // have attached their triggers and see it.
      this.report(context);
      this.offStarted?.();
      this.offStarted = core.bus.on(this.env.owner, 'homeassistant_started', () => {
        this.offStarted?.();
        this.offStarted = undefined;
        this.finish(context);
      });
    }
  }

  update(item: HelperItem): void {
    this.item = item;
    if (this.status === 'idle') this.runningS = this.configuredS;
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {
    this.unlisten();
    this.offStarted?.();
  }
}

export const TIMER: HelperKind = {
  domain: 'timer',
  fields: {
    ...NAME_ICON,
    duration: { field: { kind: 'duration' }, default: '0:00:00' },
    restore: { field: { kind: 'boolean' }, default: false },
  },
  start: (env, item, editable) => new Timer(env, item, editable),
};
