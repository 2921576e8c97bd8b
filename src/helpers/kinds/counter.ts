import type { Context } from '../../core/context.js';
import type { JsonObject } from '../../core/json.js';
import { addCounter, type CounterPlatform } from '../../domains/counter.js';
import { type DesiredState, validationError } from '../../domains/domain.js';
import type { FieldProblem, HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, num, setNameIcon } from '../kind.js';

class Counter implements CounterPlatform, LiveHelper {
  private value: number;
  private readonly handle;

  constructor(
    env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.value = this.initial;
    this.handle = addCounter(env.core, entityInit(env, 'counter', item, this, item.restore === true));
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private get initial(): number {
    return num(this.item.initial) ?? 0;
  }

  private get step(): number {
    return num(this.item.step) ?? 1;
  }

  private get minimum(): number | null {
    return num(this.item.minimum) ?? null;
  }

  private get maximum(): number | null {
    return num(this.item.maximum) ?? null;
  }

  private report(context?: Context): void {
    const { minimum, maximum } = this;
    this.handle.report({ value: this.value, initial: this.initial, step: this.step, minimum, maximum, editable: this.editable }, context);
  }

  /** Home Assistant's _compute_next_state: kept within minimum and maximum. */
  private clamp(v: number): number {
    const { minimum, maximum } = this;
    if (minimum !== null && v < minimum) return minimum;
    if (maximum !== null && v > maximum) return maximum;
    return v;
  }

  increment(context: Context): void {
    this.value = this.clamp(this.value + this.step);
    this.report(context);
  }

  decrement(context: Context): void {
    this.value = this.clamp(this.value - this.step);
    this.report(context);
  }

  reset(context: Context): void {
    this.value = this.clamp(this.initial);
    this.report(context);
  }

  setValue(value: number, context: Context): void {
    const { minimum, maximum } = this;
    if (maximum !== null && value > maximum) {
      throw validationError(`Value ${value} for ${this.entity.id} exceeding the maximum value of ${maximum}`);
    }
    if (minimum !== null && value < minimum) {
      throw validationError(`Value ${value} for ${this.entity.id} exceeding the minimum value of ${minimum}`);
    }
    this.value = value;
    this.report(context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.restore !== true) return;
    const v = Number(stored.state);
    if (!Number.isInteger(v)) return;
    this.value = this.clamp(v);
    this.report(context);
  }

  update(item: HelperItem): void {
    this.item = item;
    this.value = this.clamp(this.value);
    setNameIcon(this.entity, item);
    this.report();
  }

  stop(): void {}
}

function check(item: JsonObject): FieldProblem[] {
  const min = num(item.minimum);
  const max = num(item.maximum);
  if (min !== undefined && max !== undefined && min > max) return [{ key: 'maximum', message: `maximum ${max} is below minimum ${min}` }];
  return [];
}

const int = { kind: 'number', integer: true } as const;

export const COUNTER: HelperKind = {
  domain: 'counter',
  fields: {
    ...NAME_ICON,
    initial: { field: int, default: 0 },
    step: { field: { ...int, positive: true }, default: 1 },
    minimum: { field: int },
    maximum: { field: int },
    restore: { field: { kind: 'boolean' }, default: true },
  },
  check,
  start: (env, item, editable) => new Counter(env, item, editable),
};
