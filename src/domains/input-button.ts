import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What an input_button helper implements (src/helpers). */
export interface InputButtonPlatform {
  press(context: Context): void;
}

export interface InputButtonModel {
  /** When it was last pressed, as ISO 8601; null before the first press (`unknown`). */
  readonly pressedAt: string | null;
  readonly editable: boolean;
}

export interface InputButtonOptions extends Omit<EntityInit<InputButtonPlatform>, 'fixed'> {
  readonly icon?: string;
}

/** The state is the time of the last press, as for every button in Home Assistant. */
export function addInputButton(core: Core, options: InputButtonOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(m: InputButtonModel, context?: Context): void {
      entity.report(m.pressedAt, { editable: m.editable }, context);
    },
  };
}

const p = (e: Entity) => platformOf<InputButtonPlatform>(e, 'input_button');

export const inputButtonDomain: Domain = {
  name: 'input_button',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_button', [
      {
        service: 'press',
        name: 'Press',
        description: 'Mimics the physical button press on the device.',
        run: (e, _d, c) => p(e).press(c.context),
      },
    ]);
  },
  // A scene never presses a button (Home Assistant has no reproduce_state for it).
};
