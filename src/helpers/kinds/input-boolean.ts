import type { Context } from '../../core/context.js';
import type { DesiredState } from '../../domains/domain.js';
import { addInputBoolean, type InputBooleanPlatform } from '../../domains/input-boolean.js';
import type { HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, setNameIcon } from '../kind.js';

class InputBoolean implements InputBooleanPlatform, LiveHelper {
  private on: boolean;
  private readonly handle;

  constructor(
    env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.on = item.initial === true;
    this.handle = addInputBoolean(env.core, entityInit(env, 'input_boolean', item, this));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private report(context?: Context): void {
    this.handle.report({ on: this.on, editable: this.editable }, context);
  }

  turnOn(context: Context): void {
    this.on = true;
    this.report(context);
  }

  turnOff(context: Context): void {
    this.on = false;
    this.report(context);
  }

  /** Home Assistant restores the last state only when no `initial` is configured. */
  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.initial !== undefined) return;
    this.on = stored.state === 'on';
    this.report(context);
  }

  update(item: HelperItem): void {
    this.item = item;
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {}
}

export const INPUT_BOOLEAN: HelperKind = {
  domain: 'input_boolean',
  fields: { ...NAME_ICON, initial: { field: { kind: 'boolean' } } },
  start: (env, item, editable) => new InputBoolean(env, item, editable),
};
