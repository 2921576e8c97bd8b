import { isoFromMicros, microsFromIso } from '../../core/clock.js';
import type { Context } from '../../core/context.js';
import type { DesiredState } from '../../domains/domain.js';
import { addInputButton, type InputButtonPlatform } from '../../domains/input-button.js';
import type { HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, setNameIcon } from '../kind.js';

class InputButton implements InputButtonPlatform, LiveHelper {
  private pressedAt: string | null = null;
  private readonly handle;

  constructor(
    private readonly env: HelperEnv,
    item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.handle = addInputButton(env.core, entityInit(env, 'input_button', item, this));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private report(context?: Context): void {
    this.handle.report({ pressedAt: this.pressedAt, editable: this.editable }, context);
  }

  /** The state is the press time, so every press is a state change automations can trigger on. */
  press(context: Context): void {
    this.pressedAt = isoFromMicros(this.env.core.clock.now());
    this.report(context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (microsFromIso(stored.state) === undefined) return;
    this.pressedAt = stored.state;
    this.report(context);
  }

  update(item: HelperItem): void {
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {}
}

export const INPUT_BUTTON: HelperKind = {
  domain: 'input_button',
  fields: NAME_ICON,
  start: (env, item, editable) => new InputButton(env, item, editable),
};
