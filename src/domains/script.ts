import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';
import { type RunModel, runAttributes } from './run-attributes.js';

/** What the script engine implements for each script entity. */
export interface ScriptPlatform {
  /** Starts a run and resolves once it has started (or was refused by the mode), not when it ends. */
  start(variables: JsonObject, context: Context): void | Promise<void>;
  /** Stops every run of the script. */
  stop(): void;
}

/** The script is `on` while it has running or queued runs (`current`). */
export type ScriptModel = RunModel;

export interface ScriptOptions extends Omit<EntityInit<ScriptPlatform>, 'fixed' | 'name'> {
  readonly name: string;
  readonly icon?: string;
}

export interface ScriptHandle {
  readonly entity: Entity<ScriptPlatform>;
  report(model: ScriptModel, context?: Context): void;
}

/** Attributes in Home Assistant's order: last_triggered, mode, current, max, icon, then friendly_name. */
export function addScript(core: Core, options: ScriptOptions): ScriptHandle {
  const { name, icon, ...init } = options;
  const entity = core.entities.add({ ...init, fixed: {} });
  return {
    entity,
    report(model, context) {
      const attrs = runAttributes(model);
      if (icon !== undefined) attrs.icon = icon;
      attrs.friendly_name = name;
      entity.report(model.current > 0 ? 'on' : 'off', attrs, context);
    },
  };
}

const platform = (e: Entity) => platformOf<ScriptPlatform>(e, 'script');
const variablesOf = (data: Record<string, JsonValue>) => (data.variables as JsonObject | undefined) ?? {};

export const scriptDomain: Domain = {
  name: 'script',
  registerServices(core: Core): void {
    const variables = { kind: 'object', description: 'Variables the script runs with.' } as const;
    registerEntityServices(core, 'script', [
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Runs the sequence of actions defined in a script, without waiting for it to finish.',
        schema: { fields: { variables } },
        run: (e, data, call) => platform(e).start(variablesOf(data), call.context),
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Stops a running script.',
        schema: { fields: {} },
        run: (e) => platform(e).stop(),
      },
      {
        service: 'toggle',
        name: 'Toggle',
        description: "Toggle a script. Starts it, if isn't running, stops it otherwise.",
        schema: { fields: { variables } },
        run: (e, data, call) => (e.state === 'on' ? platform(e).stop() : platform(e).start(variablesOf(data), call.context)),
      },
    ]);
  },
};
