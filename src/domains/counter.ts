import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What a counter helper implements (src/helpers); set_value outside minimum/maximum is refused there. */
export interface CounterPlatform {
  increment(context: Context): void;
  decrement(context: Context): void;
  reset(context: Context): void;
  setValue(value: number, context: Context): void;
}

export interface CounterModel {
  readonly value: number;
  readonly initial: number;
  readonly step: number;
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly editable: boolean;
}

export interface CounterOptions extends Omit<EntityInit<CounterPlatform>, 'fixed'> {
  readonly icon?: string;
}

/** Attributes in Home Assistant's order: editable, initial, step, minimum and maximum when set. */
export function addCounter(core: Core, options: CounterOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(m: CounterModel, context?: Context): void {
      const attrs: Record<string, JsonValue> = { editable: m.editable, initial: m.initial, step: m.step };
      if (m.minimum !== null) attrs.minimum = m.minimum;
      if (m.maximum !== null) attrs.maximum = m.maximum;
      entity.report(String(m.value), attrs, context);
    },
  };
}

const p = (e: Entity) => platformOf<CounterPlatform>(e, 'counter');

export const counterDomain: Domain = {
  name: 'counter',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'counter', [
      {
        service: 'increment',
        name: 'Increment',
        description: 'Increments a counter by its step size.',
        run: (e, _d, c) => p(e).increment(c.context),
      },
      {
        service: 'decrement',
        name: 'Decrement',
        description: 'Decrements a counter by its step size.',
        run: (e, _d, c) => p(e).decrement(c.context),
      },
      { service: 'reset', name: 'Reset', description: 'Resets a counter to its initial value.', run: (e, _d, c) => p(e).reset(c.context) },
      {
        service: 'set_value',
        name: 'Set',
        description: 'Sets the counter to a specific value.',
        fields: {
          value: {
            kind: 'number',
            integer: true,
            min: 0,
            required: true,
            description: 'The new counter value the entity should be set to.',
          },
        },
        run: (e, d, c) => p(e).setValue(d.value as number, c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const value = Number(desired.state);
    if (!Number.isInteger(value)) return;
    await core.services.call('counter', 'set_value', { entity_id: entityId, value }, { context });
  },
};
