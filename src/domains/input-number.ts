import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';
import { pyFloat } from './helper-format.js';

/** What an input_number helper implements (src/helpers); out-of-range values are refused there. */
export interface InputNumberPlatform {
  setValue(value: number, context: Context): void;
  increment(context: Context): void;
  decrement(context: Context): void;
}

export type InputNumberMode = 'slider' | 'box';

export interface InputNumberModel {
  readonly value: number | null;
  readonly initial: number | null;
  readonly editable: boolean;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly mode: InputNumberMode;
}

export interface InputNumberOptions extends Omit<EntityInit<InputNumberPlatform>, 'fixed'> {
  readonly icon?: string;
  readonly unit?: string;
}

/** State as Python's str(float) ("5.0"); attributes in Home Assistant's order (initial, editable, min, max, step, mode). */
export function addInputNumber(core: Core, options: InputNumberOptions) {
  const fixed: Record<string, string> = {};
  if (options.unit) fixed.unit_of_measurement = options.unit;
  if (options.icon) fixed.icon = options.icon;
  const entity = core.entities.add({ ...options, fixed });
  return {
    entity,
    report(m: InputNumberModel, context?: Context): void {
      entity.report(
        m.value === null ? null : pyFloat(m.value),
        { initial: m.initial, editable: m.editable, min: m.min, max: m.max, step: m.step, mode: m.mode },
        context,
      );
    },
  };
}

const p = (e: Entity) => platformOf<InputNumberPlatform>(e, 'input_number');

export const inputNumberDomain: Domain = {
  name: 'input_number',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_number', [
      {
        service: 'set_value',
        name: 'Set',
        description: 'Sets the value.',
        fields: { value: { kind: 'number', required: true, description: 'The target value.' } },
        run: (e, d, c) => p(e).setValue(d.value as number, c.context),
      },
      {
        service: 'increment',
        name: 'Increment',
        description: 'Increments the value by 1 step.',
        run: (e, _d, c) => p(e).increment(c.context),
      },
      {
        service: 'decrement',
        name: 'Decrement',
        description: 'Decrements the value by 1 step.',
        run: (e, _d, c) => p(e).decrement(c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const value = Number(desired.state);
    if (desired.state === '' || !Number.isFinite(value)) return;
    await core.services.call('input_number', 'set_value', { entity_id: entityId, value }, { context });
  },
};
