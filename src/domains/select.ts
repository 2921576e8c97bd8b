import type { Context } from '../core/context.js';
import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonValue } from '../core/json.js';
import type { Attributes } from '../core/state.js';
import { type Domain, dataOf, platformOf, registerEntityServices, validationError } from './domain.js';

/** What a select's provider implements; the option is always one of its options (the domain refuses others). */
export interface SelectPlatform {
  selectOption(option: string, context: Context): void | Promise<void>;
}

/** The domain's per-entity data: the options the services choose from (a template select's options may change). */
export interface SelectData {
  options: readonly string[];
}

export interface SelectOptions extends Omit<EntityInit<SelectPlatform>, 'fixed' | 'data'> {
  readonly options: readonly string[];
  readonly icon?: string;
}

export interface SelectHandle {
  readonly entity: Entity<SelectPlatform, SelectData>;
  /** Writes the current option; one that is not among the options is `unknown`, as SelectEntity.state has it. */
  report(option: string | null, attributes?: Attributes): void;
  /** New options (a template's): the `options` attribute follows with the next report. */
  setOptions(options: readonly string[]): void;
}

/** Fixed attributes in Home Assistant's order: options (the capability), icon. */
export function selectFixed(options: readonly string[], icon?: string): Attributes {
  const fixed: Record<string, JsonValue> = { options: [...options] };
  if (icon !== undefined) fixed.icon = icon;
  return fixed;
}

/** SelectEntity.state: the option when it is one of the options, else null (`unknown`). */
export function selectState(options: readonly string[], option: string | null): string | null {
  return option !== null && options.includes(option) ? option : null;
}

export function addSelect(core: Core, options: SelectOptions): SelectHandle {
  const { options: list, icon, ...init } = options;
  const data: SelectData = { options: [...list] };
  const entity = core.entities.add<SelectPlatform, SelectData>({ ...init, fixed: selectFixed(list, icon), data });
  return {
    entity,
    report(option, attributes) {
      entity.report(selectState(data.options, option), attributes);
    },
    setOptions(next) {
      if (next.length === data.options.length && next.every((o, i) => o === data.options[i])) return;
      data.options = [...next];
      entity.setFixed({ ...selectFixed(next, icon), ...(init.name === undefined ? {} : { friendly_name: init.name }) });
    },
  };
}

function optionsOf(e: Entity): readonly string[] {
  return dataOf<SelectData>(e, 'select')?.options ?? [];
}

const p = (e: Entity) => platformOf<SelectPlatform>(e, 'select');

/** SelectEntity._valid_option_or_raise, in its words. */
function checkOption(e: Entity, option: string): void {
  const options = optionsOf(e);
  if (!options.includes(option)) {
    throw validationError(`Option ${option} is not valid for entity ${e.id}, valid options are: ${options.join(', ')}`);
  }
}

/** SelectEntity._async_offset_index: from the current option (the first when there is none), wrapping when `cycle`. */
function offsetOption(e: Entity, offset: number, cycle: boolean): string | undefined {
  const options = optionsOf(e);
  if (options.length === 0) return undefined;
  const current = e.state === undefined ? -1 : options.indexOf(e.state);
  const next = Math.max(current, 0) + offset;
  const index = cycle ? ((next % options.length) + options.length) % options.length : Math.min(Math.max(next, 0), options.length - 1);
  return options[index];
}

function select(e: Entity, option: string | undefined, context: Context): void | Promise<void> {
  if (option !== undefined) return p(e).selectOption(option, context);
}

const cycle = { cycle: { kind: 'boolean', default: true, description: 'If the option should cycle from the last to the first.' } } as const;

export const selectDomain: Domain = {
  name: 'select',
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    registerEntityServices(core, 'select', [
      {
        service: 'select_option',
        name: 'Select',
        description: 'Selects an option.',
        fields: { option: { kind: 'text', required: true, description: 'Option to be selected.' } },
        run: (e, d, c) => {
          checkOption(e, d.option as string);
          return p(e).selectOption(d.option as string, c.context);
        },
      },
      {
        service: 'select_first',
        name: 'First',
        description: 'Selects the first option.',
        run: (e, _d, c) => select(e, optionsOf(e)[0], c.context),
      },
      {
        service: 'select_last',
        name: 'Last',
        description: 'Selects the last option.',
        run: (e, _d, c) => select(e, optionsOf(e).at(-1), c.context),
      },
      {
        service: 'select_next',
        name: 'Next',
        description: 'Selects the next option.',
        fields: cycle,
        run: (e, d, c) => select(e, offsetOption(e, 1, d.cycle !== false), c.context),
      },
      {
        service: 'select_previous',
        name: 'Previous',
        description: 'Selects the previous option.',
        fields: cycle,
        run: (e, d, c) => select(e, offsetOption(e, -1, d.cycle !== false), c.context),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    const entity = core.entities.get(entityId);
    if (entity === undefined || !optionsOf(entity).includes(desired.state)) return;
    await core.services.call('select', 'select_option', { entity_id: entityId, option: desired.state }, { context });
  },
};
