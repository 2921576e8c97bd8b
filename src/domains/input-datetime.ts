import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { LocalDateTime } from '../util/calendar.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What set_datetime carries: date and/or time, or a full datetime, or a timestamp (epoch seconds). */
export interface DateTimeInput {
  readonly date?: string;
  readonly time?: string;
  readonly datetime?: string;
  readonly timestamp?: number;
}

/** What an input_datetime helper implements (src/helpers); it parses and checks the input. */
export interface InputDatetimePlatform {
  setDatetime(input: DateTimeInput, context: Context): void;
}

/** A local date and time of day, as the helper keeps them (no time zone: Home Assistant's naive value). */
export type { LocalDateTime };

export interface InputDatetimeModel {
  readonly value: LocalDateTime | null;
  readonly hasDate: boolean;
  readonly hasTime: boolean;
  readonly editable: boolean;
  /** Epoch seconds of the value in the hub's time zone (date helpers), or seconds since midnight (time only). */
  readonly timestamp: number | null;
}

export interface InputDatetimeOptions extends Omit<EntityInit<InputDatetimePlatform>, 'fixed'> {
  readonly icon?: string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** Home Assistant's state text: "2026-01-15 07:30:00", "2026-01-15" or "07:30:00". */
export function formatLocalDateTime(v: LocalDateTime, hasDate: boolean, hasTime: boolean): string {
  const date = `${String(v.year).padStart(4, '0')}-${two(v.month)}-${two(v.day)}`;
  const time = `${two(v.hour)}:${two(v.minute)}:${two(v.second)}`;
  if (hasDate && hasTime) return `${date} ${time}`;
  return hasDate ? date : time;
}

/** Attributes in Home Assistant's order: has_date, has_time, editable, the parts, timestamp. */
export function addInputDatetime(core: Core, options: InputDatetimeOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(m: InputDatetimeModel, context?: Context): void {
      const attrs: Record<string, JsonValue> = { has_date: m.hasDate, has_time: m.hasTime, editable: m.editable };
      const v = m.value;
      if (v === null) {
        entity.report(null, attrs, context);
        return;
      }
      const parts: Record<string, number> = {};
      if (m.hasDate) Object.assign(parts, { year: v.year, month: v.month, day: v.day });
      if (m.hasTime) Object.assign(parts, { hour: v.hour, minute: v.minute, second: v.second });
      entity.report(formatLocalDateTime(v, m.hasDate, m.hasTime), { ...attrs, ...parts, timestamp: m.timestamp }, context);
    },
  };
}

const p = (e: Entity) => platformOf<InputDatetimePlatform>(e, 'input_datetime');

export const inputDatetimeDomain: Domain = {
  name: 'input_datetime',
  restored: true,
  needsAttributes: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_datetime', [
      {
        service: 'set_datetime',
        name: 'Set',
        description: 'Sets the date and/or time.',
        schema: {
          fields: {
            date: { kind: 'text', description: 'The target date.', example: '"2019-04-20"' },
            time: { kind: 'text', description: 'The target time.', example: '"05:04:20"' },
            datetime: { kind: 'text', description: 'The target date & time.', example: '"2019-04-20 05:04:20"' },
            timestamp: { kind: 'number', description: 'The target date & time, expressed by a UNIX timestamp.' },
          },
          atLeastOne: ['date', 'time', 'datetime', 'timestamp'],
          exclusive: [
            ['date', 'datetime', 'timestamp'],
            ['time', 'datetime', 'timestamp'],
          ],
        },
        run: (e, d, c) => p(e).setDatetime(d as DateTimeInput, c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const attrs = desired.attributes;
    const hasDate = attrs.has_date === true;
    const hasTime = attrs.has_time === true;
    const [date, time] = hasDate && hasTime ? desired.state.split(' ') : hasDate ? [desired.state, undefined] : [undefined, desired.state];
    const data: Record<string, JsonValue> = { entity_id: entityId };
    if (date !== undefined) data.date = date;
    if (time !== undefined) data.time = time;
    if (date === undefined && time === undefined) return;
    await core.services.call('input_datetime', 'set_datetime', data, { context });
  },
};
