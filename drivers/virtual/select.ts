import { addSelect } from '../../src/domains/select.js';
import type { VirtualPlatform } from './types.js';

interface VirtualSelectOptions {
  readonly options: readonly string[];
  readonly initial: string | undefined;
  readonly icon: string | undefined;
}

/** A device setting with named choices (a heating mode, a power-on behaviour) that takes the one chosen at once. */
export const virtualSelect: VirtualPlatform<VirtualSelectOptions> = {
  domain: 'select',
  parse(r) {
    const options = r.stringList('options') ?? [];
    if (options.length === 0) r.problem('options', 'is required: expected a list of at least one option');
    const initial = r.string('initial', { default: options[0] });
    if (initial !== undefined && options.length > 0 && !options.includes(initial)) {
      r.problem('initial', `must be one of the options (${options.join(', ')})`);
    }
    return { options, initial, icon: r.string('icon') };
  },
  create(ctx, { entityId, name }, o) {
    const select = addSelect(ctx.core, {
      entityId,
      name,
      owner: ctx.owner,
      options: o.options,
      icon: o.icon,
      platform: { selectOption: (option) => select.report(option) },
    });
    select.report(o.initial ?? null);
  },
};
