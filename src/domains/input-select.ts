import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';

/** What an input_select helper implements (src/helpers); an option it does not have is refused there. */
export interface InputSelectPlatform {
  selectOption(option: string, context: Context): void;
  /** Moves by `offset` (1 next, -1 previous), wrapping around when `cycle`. */
  selectOffset(offset: number, cycle: boolean, context: Context): void;
  /** First (0) or last (-1). */
  selectIndex(index: 0 | -1, context: Context): void;
  setOptions(options: readonly string[], context: Context): void;
}

export interface InputSelectModel {
  readonly option: string | null;
  readonly options: readonly string[];
  readonly editable: boolean;
}

export interface InputSelectOptions extends Omit<EntityInit<InputSelectPlatform>, 'fixed'> {
  readonly icon?: string;
}

/** Attributes as Home Assistant writes them: options, editable. */
export function addInputSelect(core: Core, options: InputSelectOptions) {
  const entity = core.entities.add({ ...options, fixed: options.icon ? { icon: options.icon } : {} });
  return {
    entity,
    report(m: InputSelectModel, context?: Context): void {
      entity.report(m.option, { options: [...m.options], editable: m.editable }, context);
    },
  };
}

const p = (e: Entity) => platformOf<InputSelectPlatform>(e, 'input_select');
const cycle = { cycle: { kind: 'boolean', default: true, description: 'If the option should cycle from the last to the first.' } } as const;

export const inputSelectDomain: Domain = {
  name: 'input_select',
  restored: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'input_select', [
      {
        service: 'select_option',
        name: 'Select',
        description: 'Selects an option.',
        fields: { option: { kind: 'text', required: true, description: 'Option to be selected.' } },
        run: (e, d, c) => p(e).selectOption(d.option as string, c.context),
      },
      {
        service: 'select_first',
        name: 'First',
        description: 'Selects the first option.',
        run: (e, _d, c) => p(e).selectIndex(0, c.context),
      },
      { service: 'select_last', name: 'Last', description: 'Selects the last option.', run: (e, _d, c) => p(e).selectIndex(-1, c.context) },
      {
        service: 'select_next',
        name: 'Next',
        description: 'Selects the next option.',
        fields: cycle,
        run: (e, d, c) => p(e).selectOffset(1, d.cycle !== false, c.context),
      },
      {
        service: 'select_previous',
        name: 'Previous',
        description: 'Selects the previous option.',
        fields: cycle,
        run: (e, d, c) => p(e).selectOffset(-1, d.cycle !== false, c.context),
      },
      {
        service: 'set_options',
        name: 'Set options',
        description: 'Sets the options.',
        fields: { options: { kind: 'any', required: true, description: 'List of options.' } },
        run: (e, d, c) => {
          const list = Array.isArray(d.options) ? d.options : [d.options];
          p(e).setOptions(
            list.map((o) => String(o)),
            c.context,
          );
        },
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const options = desired.attributes.options;
    if (Array.isArray(options) && options.length > 0) {
      await core.services.call('input_select', 'set_options', { entity_id: entityId, options }, { context });
    }
    await core.services.call('input_select', 'select_option', { entity_id: entityId, option: desired.state }, { context });
  },
};
