import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import { type Domain, platformOf, registerEntityServices, validationError } from './domain.js';
import { formatDuration, parseDuration } from './helper-format.js';

export type TimerStatus = 'idle' | 'active' | 'paused';

/** What a timer helper implements (src/helpers); durations in seconds. */
export interface TimerPlatform {
  /** Starts (or restarts) the timer; a duration of 0 keeps the remaining or configured one. */
  start(durationS: number, context: Context): void;
  pause(context: Context): void;
  cancel(context: Context): void;
  finish(context: Context): void;
  /** Adds (or, negative, removes) time from an active timer. */
  change(durationS: number, context: Context): void;
}

export interface TimerModel {
  readonly status: TimerStatus;
  readonly durationS: number;
  readonly editable: boolean;
  /** ISO 8601, while active. */
  readonly finishesAt: string | null;
  /** Seconds left, while active (as of the last start or change) or paused. */
  readonly remainingS: number | null;
  readonly restore: boolean;
}

export interface TimerOptions extends Omit<EntityInit<TimerPlatform>, 'fixed'> {
  readonly icon?: string;
}

/** Attributes in Home Assistant's order: duration, editable, finishes_at, remaining, restore (when set). */
export function addTimer(core: Core, options: TimerOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(m: TimerModel, context?: Context): void {
      const attrs: Record<string, JsonValue> = { duration: formatDuration(m.durationS), editable: m.editable };
      if (m.finishesAt !== null) attrs.finishes_at = m.finishesAt;
      if (m.remainingS !== null) attrs.remaining = formatDuration(m.remainingS);
      if (m.restore) attrs.restore = true;
      entity.report(m.status, attrs, context);
    },
  };
}

const p = (e: Entity) => platformOf<TimerPlatform>(e, 'timer');

function seconds(value: unknown): number {
  if (value === undefined) return 0;
  const s = parseDuration(value);
  if (s === undefined) throw validationError(`expected a duration (seconds, "HH:MM:SS" or {hours, minutes, seconds}) for 'duration'`);
  return s;
}

const duration = {
  duration: { kind: 'any', description: 'Duration the timer requires to finish. [optional]', example: '00:01:00 or 60' },
} as const;

export const timerDomain: Domain = {
  name: 'timer',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'timer', [
      {
        service: 'start',
        name: 'Start',
        description: 'Starts a timer or restarts it with a provided duration.',
        fields: duration,
        run: (e, d, c) => p(e).start(seconds(d.duration), c.context),
      },
      {
        service: 'pause',
        name: 'Pause',
        description: 'Pauses a running timer, retaining the remaining duration for later continuation.',
        run: (e, _d, c) => p(e).pause(c.context),
      },
      {
        service: 'cancel',
        name: 'Cancel',
        description: 'Resets a timer’s duration to the last known initial value without firing the timer finished event.',
        run: (e, _d, c) => p(e).cancel(c.context),
      },
      {
        service: 'finish',
        name: 'Finish',
        description: 'Finishes a running timer earlier than scheduled.',
        run: (e, _d, c) => p(e).finish(c.context),
      },
      {
        service: 'change',
        name: 'Change',
        description: 'Changes a timer by adding or subtracting a given duration.',
        fields: { duration: { ...duration.duration, required: true } },
        run: (e, d, c) => p(e).change(seconds(d.duration), c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const service =
      desired.state === 'active' ? 'start' : desired.state === 'paused' ? 'pause' : desired.state === 'idle' ? 'cancel' : undefined;
    if (service === undefined) return;
    const data: Record<string, JsonValue> = { entity_id: entityId };
    if (service === 'start' && typeof desired.attributes.duration === 'string') data.duration = desired.attributes.duration;
    await core.services.call('timer', service, data, { context });
  },
};
