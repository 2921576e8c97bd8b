import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What an input_boolean helper implements (src/helpers). */
export interface InputBooleanPlatform {
  turnOn(context: Context): void;
  turnOff(context: Context): void;
}

export interface InputBooleanOptions extends Omit<EntityInit<InputBooleanPlatform>, 'fixed'> {
  readonly icon?: string;
}

export interface InputBooleanModel {
  readonly on: boolean | null;
  readonly editable: boolean;
}

/** Attributes as Home Assistant writes them: editable, then icon and friendly_name. */
export function addInputBoolean(core: Core, options: InputBooleanOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(model: InputBooleanModel, context?: Context): void {
      entity.report(model.on === null ? null : model.on ? 'on' : 'off', { editable: model.editable }, context);
    },
  };
}

const p = (e: Entity) => platformOf<InputBooleanPlatform>(e, 'input_boolean');

export const inputBooleanDomain: Domain = {
  name: 'input_boolean',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_boolean', [
      { service: 'turn_on', name: 'Turn on', description: 'Turns on the helper.', run: (e, _d, c) => p(e).turnOn(c.context) },
      { service: 'turn_off', name: 'Turn off', description: 'Turns off the helper.', run: (e, _d, c) => p(e).turnOff(c.context) },
      {
        service: 'toggle',
        name: 'Toggle',
        description: 'Toggles the helper on/off.',
        run: (e, _d, c) => (e.state === 'on' ? p(e).turnOff(c.context) : p(e).turnOn(c.context)),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    if (desired.state !== 'on' && desired.state !== 'off') return;
    await core.services.call('input_boolean', desired.state === 'on' ? 'turn_on' : 'turn_off', { entity_id: entityId }, { context });
  },
};
