import type { Context } from '../../core/context.js';
import type { JsonObject } from '../../core/json.js';
import { type DesiredState, validationError } from '../../domains/domain.js';
import { addInputSelect, type InputSelectPlatform } from '../../domains/input-select.js';
import type { FieldProblem, HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, setNameIcon, str } from '../kind.js';

class InputSelect implements InputSelectPlatform, LiveHelper {
  private options: string[];
  private option: string;
  private readonly handle;

  constructor(
    env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.options = [...(item.options as string[])];
    this.option = str(item.initial) ?? (this.options[0] as string);
    this.handle = addInputSelect(env.core, entityInit(env, 'input_select', item, this));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private report(context?: Context): void {
    this.handle.report({ option: this.option, options: this.options, editable: this.editable }, context);
  }

  selectOption(option: string, context: Context): void {
    if (!this.options.includes(option)) {
      throw validationError(`Invalid option: ${option} (possible options: ${this.options.join(', ')})`);
    }
    this.option = option;
    this.report(context);
  }

  selectOffset(offset: number, cycle: boolean, context: Context): void {
    const n = this.options.length;
    let i = this.options.indexOf(this.option) + offset;
    i = cycle ? (i + n) % n : Math.max(0, Math.min(n - 1, i));
    this.selectOption(this.options[i] as string, context);
  }

  selectIndex(index: 0 | -1, context: Context): void {
    this.selectOption(this.options.at(index) as string, context);
  }

  /** The current option stays when it is still offered, else the first (Home Assistant's async_set_options). */
  setOptions(options: readonly string[], context: Context): void {
    const unique = [...new Set(options)];
    if (unique.length === 0) throw validationError('At least one option is needed');
    if (unique.length !== options.length) throw validationError('Duplicated options are not allowed');
    this.options = unique;
    if (!unique.includes(this.option)) this.option = unique[0] as string;
    this.report(context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.initial !== undefined || !this.options.includes(stored.state)) return;
    this.option = stored.state;
    this.report(context);
  }

  update(item: HelperItem): void {
    this.item = item;
    this.options = [...(item.options as string[])];
    if (!this.options.includes(this.option)) this.option = this.options[0] as string;
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {}
}

function check(item: JsonObject): FieldProblem[] {
  const initial = str(item.initial);
  const options = item.options;
  if (initial !== undefined && Array.isArray(options) && !options.includes(initial)) {
    return [{ key: 'initial', message: `initial state ${initial} is not part of the options: ${options.join(',')}` }];
  }
  return [];
}

export const INPUT_SELECT: HelperKind = {
  domain: 'input_select',
  fields: { ...NAME_ICON, options: { field: { kind: 'options' }, required: true }, initial: { field: { kind: 'string' } } },
  check,
  start: (env, item, editable) => new InputSelect(env, item, editable),
};
