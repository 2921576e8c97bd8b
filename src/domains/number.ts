import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Attributes } from '../core/state.js';
import { type Domain, dataOf, platformOf, registerEntityServices, validationError } from './domain.js';
import { pyFloat } from './helper-format.js';

export const NUMBER_MODES = ['auto', 'box', 'slider'] as const;
export type NumberMode = (typeof NUMBER_MODES)[number];

/** Home Assistant's number.const defaults. */
export const DEFAULT_NUMBER_MIN = 0;
export const DEFAULT_NUMBER_MAX = 100;

/** What a number's provider implements; the value is within min..max (the domain refuses others). */
export interface NumberPlatform {
  setValue(value: number, context: Context): void | Promise<void>;
}

/** The range a number accepts, and how a frontend shows it. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  /** Unset: NumberEntity's default (1, divided by 10 until it is smaller than the range). */
  readonly step?: number;
  readonly mode?: NumberMode;
}

/** The domain's per-entity data: the range set_value is checked against (a template number's range may change). */
export interface NumberData {
  range: NumberRange;
}

export interface NumberOptions extends Omit<EntityInit<NumberPlatform>, 'fixed' | 'data'> {
  readonly range: NumberRange;
  readonly unit?: string;
  readonly deviceClass?: string;
  readonly icon?: string;
}

export interface NumberHandle {
  readonly entity: Entity<NumberPlatform, NumberData>;
  /** Writes the value; `float` writes it as Python's str(float) ("5.0"), as a template number's float() does. */
  report(value: number | null, float?: boolean, attributes?: Attributes): void;
  /** A new range (template min/max/step): the fixed attributes follow with the next report. */
  setRange(range: NumberRange): void;
}

/** NumberEntity.step: the given step, else 1 divided by 10 until it is below the range. */
export function numberStep(range: NumberRange): number {
  if (range.step !== undefined && range.step > 0) return range.step;
  let step = 1;
  const span = Math.abs(range.max - range.min);
  if (span !== 0) while (span <= step) step /= 10;
  return step;
}

/** Fixed attributes in Home Assistant's order: min, max, step, mode (capabilities), unit, device_class, icon. */
export function numberFixed(range: NumberRange, extra: { unit?: string; deviceClass?: string; icon?: string } = {}): Attributes {
  const fixed: Record<string, JsonValue> = { min: range.min, max: range.max, step: numberStep(range), mode: range.mode ?? 'auto' };
  if (extra.unit !== undefined) fixed.unit_of_measurement = extra.unit;
  if (extra.deviceClass !== undefined) fixed.device_class = extra.deviceClass;
  if (extra.icon !== undefined) fixed.icon = extra.icon;
  return fixed;
}

/** A value as the state string: as given, or as Python prints a float. Non-finite values are not known. */
export function numberState(value: number | null, float = false): string | null {
  if (value === null || !Number.isFinite(value)) return null;
  return float ? pyFloat(value) : String(value);
}

export function addNumber(core: Core, options: NumberOptions): NumberHandle {
  const { range, unit, deviceClass, icon, ...init } = options;
  const extra = { unit, deviceClass, icon };
  const data: NumberData = { range };
  const entity = core.entities.add<NumberPlatform, NumberData>({ ...init, fixed: numberFixed(range, extra), data });
  return {
    entity,
    report(value, float = false, attributes) {
      entity.report(numberState(value, float), attributes);
    },
    setRange(next) {
      const now = data.range;
      if (now.min === next.min && now.max === next.max && now.step === next.step && now.mode === next.mode) return;
      data.range = next;
      entity.setFixed({ ...numberFixed(next, extra), ...(init.name === undefined ? {} : { friendly_name: init.name }) });
    },
  };
}

function rangeOf(e: Entity): NumberRange {
  return dataOf<NumberData>(e, 'number')?.range ?? { min: DEFAULT_NUMBER_MIN, max: DEFAULT_NUMBER_MAX };
}

const p = (e: Entity) => platformOf<NumberPlatform>(e, 'number');

export const numberDomain: Domain = {
  name: 'number',
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'number', [
      {
        service: 'set_value',
        name: 'Set',
        description: 'Sets the value of a number.',
        fields: { value: { kind: 'number', required: true, description: 'The target value to set.' } },
        run: (e, d, c) => {
          const value = d.value as number;
          const { min, max } = rangeOf(e);
          // number.async_set_value's check, in its words (the value is a float there, hence "5.0").
          if (value < min || value > max) {
            throw validationError(`Value ${pyFloat(value)} for ${e.id} is outside valid range ${pyFloat(min)} - ${pyFloat(max)}`);
          }
          return p(e).setValue(value, c.context);
        },
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const value = Number(desired.state);
    if (desired.state.trim() === '' || !Number.isFinite(value)) return;
    await core.services.call('number', 'set_value', { entity_id: entityId, value }, { context });
  },
};
