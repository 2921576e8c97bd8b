import type { Context } from '../../core/context.js';
import type { JsonObject } from '../../core/json.js';
import type { DesiredState } from '../../domains/domain.js';
import { validationError } from '../../domains/domain.js';
import { addInputNumber, type InputNumberMode, type InputNumberPlatform } from '../../domains/input-number.js';
import type { FieldProblem, HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, num, setNameIcon, str } from '../kind.js';

class InputNumber implements InputNumberPlatform, LiveHelper {
  private value: number;
  private readonly handle;

  constructor(
    env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.value = num(item.initial) ?? (item.min as number);
    this.handle = addInputNumber(env.core, { ...entityInit(env, 'input_number', item, this), unit: str(item.unit_of_measurement) });
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private get min(): number {
    return this.item.min as number;
  }

  private get max(): number {
    return this.item.max as number;
  }

  private report(context?: Context): void {
    const { item } = this;
    this.handle.report(
      {
        value: this.value,
        initial: num(item.initial) ?? null,
        editable: this.editable,
        min: this.min,
        max: this.max,
        step: item.step as number,
        mode: item.mode as InputNumberMode,
      },
      context,
    );
  }

  setValue(value: number, context: Context): void {
    if (value < this.min || value > this.max) {
      throw validationError(`Invalid value for ${this.entity.id}: ${value} (range ${this.min} - ${this.max})`);
    }
    this.value = value;
    this.report(context);
  }

  /** As Home Assistant: a step past the end stops at the end. */
  increment(context: Context): void {
    this.setValue(Math.min(this.value + (this.item.step as number), this.max), context);
  }

  decrement(context: Context): void {
    this.setValue(Math.max(this.value - (this.item.step as number), this.min), context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.initial !== undefined) return;
    const v = Number(stored.state);
    if (stored.state === '' || !Number.isFinite(v) || v < this.min || v > this.max) return;
    this.value = v;
    this.report(context);
  }

  /** New bounds keep the value inside them (Home Assistant's async_update_config). */
  update(item: HelperItem): void {
    this.item = item;
    this.value = Math.max(this.min, Math.min(this.max, this.value));
    setNameIcon(this.entity, item, item.unit_of_measurement === undefined ? {} : { unit_of_measurement: item.unit_of_measurement });
    this.report();
  }

  stop(): void {}
}

function check(item: JsonObject): FieldProblem[] {
  const min = num(item.min);
  const max = num(item.max);
  const initial = num(item.initial);
  if (min === undefined || max === undefined) return [];
  if (min >= max) return [{ key: 'max', message: `Maximum (${max}) is not greater than minimum (${min})` }];
  if (initial !== undefined && (initial < min || initial > max)) {
    return [{ key: 'initial', message: `Initial value ${initial} not in range ${min}-${max}` }];
  }
  return [];
}

export const INPUT_NUMBER: HelperKind = {
  domain: 'input_number',
  fields: {
    ...NAME_ICON,
    min: { field: { kind: 'number' }, required: true },
    max: { field: { kind: 'number' }, required: true },
    initial: { field: { kind: 'number' } },
    step: { field: { kind: 'number', min: 1e-9 }, default: 1 },
    unit_of_measurement: { field: { kind: 'string' } },
    mode: { field: { kind: 'one_of', options: ['box', 'slider'] }, default: 'slider' },
  },
  check,
  start: (env, item, editable) => new InputNumber(env, item, editable),
};
