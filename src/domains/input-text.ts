import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What an input_text helper implements (src/helpers); a value outside its length or pattern is refused there. */
export interface InputTextPlatform {
  setValue(value: string, context: Context): void;
}

export type InputTextMode = 'text' | 'password';

export interface InputTextModel {
  readonly value: string | null;
  readonly editable: boolean;
  readonly min: number;
  readonly max: number;
  readonly pattern: string | null;
  readonly mode: InputTextMode;
}

export interface InputTextOptions extends Omit<EntityInit<InputTextPlatform>, 'fixed'> {
  readonly icon?: string;
  readonly unit?: string;
}

/** Attributes in Home Assistant's order: editable, min, max, pattern, mode. */
export function addInputText(core: Core, options: InputTextOptions) {
  const fixed: Record<string, string> = {};
  if (options.unit) fixed.unit_of_measurement = options.unit;
  if (options.icon) fixed.icon = options.icon;
  const entity = core.entities.add({ ...options, fixed });
  return {
    entity,
    report(m: InputTextModel, context?: Context): void {
      entity.report(m.value, { editable: m.editable, min: m.min, max: m.max, pattern: m.pattern, mode: m.mode }, context);
    },
  };
}

const p = (e: Entity) => platformOf<InputTextPlatform>(e, 'input_text');

export const inputTextDomain: Domain = {
  name: 'input_text',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_text', [
      {
        service: 'set_value',
        name: 'Set',
        description: 'Sets the value.',
        fields: { value: { kind: 'text', required: true, description: 'The target value.' } },
        run: (e, d, c) => p(e).setValue(d.value as string, c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    await core.services.call('input_text', 'set_value', { entity_id: entityId, value: desired.state }, { context });
  },
};
