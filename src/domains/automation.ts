import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonObject } from '../core/json.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';
import { type RunModel, runAttributes } from './run-attributes.js';

/** What the automation engine implements for each automation entity. */
export interface AutomationPlatform {
  /** Runs the actions (checking the conditions unless skipped); resolves when the run ends. */
  trigger(variables: JsonObject, skipCondition: boolean, context: Context): Promise<void>;
  /** Enables the automation: attaches its triggers. */
  turnOn(context: Context): void;
  /** Disables it: detaches its triggers and, with stopActions, stops its runs. */
  turnOff(stopActions: boolean, context: Context): void;
}

/** What an automation is; the domain renders Home Assistant's state and attributes. */
export interface AutomationModel extends RunModel {
  readonly on: boolean;
  /** The configured `id`. */
  readonly id?: string;
}

export interface AutomationOptions extends Omit<EntityInit<AutomationPlatform>, 'fixed' | 'name'> {
  readonly name: string;
}

export interface AutomationHandle {
  readonly entity: Entity<AutomationPlatform>;
  report(model: AutomationModel, context?: Context): void;
}

/** Attributes in Home Assistant's order: last_triggered, mode, current, max, id, then friendly_name. */
export function addAutomation(core: Core, options: AutomationOptions): AutomationHandle {
  const { name, ...init } = options;
  const entity = core.entities.add({ ...init, fixed: {} });
  return {
    entity,
    report(model, context) {
      const attrs = runAttributes(model);
      if (model.id !== undefined) attrs.id = model.id;
      attrs.friendly_name = name;
      entity.report(model.on ? 'on' : 'off', attrs, context);
    },
  };
}

const platform = (e: Entity) => platformOf<AutomationPlatform>(e, 'automation');

export const automationDomain: Domain = {
  name: 'automation',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'automation', [
      {
        service: 'trigger',
        name: 'Trigger',
        description: 'Triggers the actions of an automation.',
        schema: {
          fields: {
            skip_condition: { kind: 'boolean', default: true, description: 'Defines whether or not the conditions will be skipped.' },
            variables: { kind: 'object', description: 'Variables the actions run with.' },
          },
        },
        run: (e, data, call) =>
          platform(e).trigger((data.variables as JsonObject | undefined) ?? {}, data.skip_condition !== false, call.context),
      },
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Enables an automation.',
        schema: { fields: {} },
        run: (e, _data, call) => platform(e).turnOn(call.context),
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Disables an automation.',
        schema: {
          fields: {
            stop_actions: { kind: 'boolean', default: true, description: 'Stops currently running actions.' },
          },
        },
        run: (e, data, call) => platform(e).turnOff(data.stop_actions !== false, call.context),
      },
      {
        service: 'toggle',
        name: 'Toggle',
        description: 'Toggles (enable / disable) an automation.',
        schema: { fields: {} },
        run: (e, _data, call) => (e.state === 'on' ? platform(e).turnOff(true, call.context) : platform(e).turnOn(call.context)),
      },
    ]);
  },
};
