import type { Context } from '../../core/context.js';
import { MAX_STATE_LENGTH } from '../../core/entity-id.js';
import type { JsonObject } from '../../core/json.js';
import { type DesiredState, validationError } from '../../domains/domain.js';
import { addInputText, type InputTextMode, type InputTextPlatform } from '../../domains/input-text.js';
import type { FieldProblem, HelperItem } from '../fields.js';
import { entityInit, type HelperEnv, type HelperKind, type LiveHelper, NAME_ICON, num, setNameIcon, str } from '../kind.js';

/** Python's re.match on the whole value (Home Assistant matches the pattern from the start, fully). */
function matches(pattern: string, value: string): boolean {
  return new RegExp(`^(?:${pattern})$`, 'u').test(value);
}

class InputText implements InputTextPlatform, LiveHelper {
  private value: string | null;
  private readonly handle;

  constructor(
    env: HelperEnv,
    private item: HelperItem,
    private readonly editable: boolean,
  ) {
    this.value = str(item.initial) ?? null;
    this.handle = addInputText(env.core, { ...entityInit(env, 'input_text', item, this), unit: str(item.unit_of_measurement) });
    this.report();
  }

  get entity() {
    return this.handle.entity;
  }

  private get min(): number {
    return num(this.item.min) ?? 0;
  }

  private get max(): number {
    return num(this.item.max) ?? 100;
  }

  private report(context?: Context): void {
    const { item } = this;
    this.handle.report(
      {
        value: this.value,
        editable: this.editable,
        min: this.min,
        max: this.max,
        pattern: str(item.pattern) ?? null,
        mode: item.mode as InputTextMode,
      },
      context,
    );
  }

  /** Why a value is refused, or undefined when it fits the length range and the pattern. */
  private problem(value: string): string | undefined {
    if (value.length < this.min || value.length > this.max) return `Invalid value: ${value} (length range ${this.min} - ${this.max})`;
    const pattern = str(this.item.pattern);
    if (pattern !== undefined && !matches(pattern, value)) return `Invalid value: ${value} (does not match the pattern ${pattern})`;
    return undefined;
  }

  setValue(value: string, context: Context): void {
    const problem = this.problem(value);
    if (problem !== undefined) throw validationError(problem);
    this.value = value;
    this.report(context);
  }

  restoreState(stored: DesiredState, context: Context): void {
    if (this.item.initial !== undefined || this.problem(stored.state) !== undefined) return;
    this.value = stored.state;
    this.report(context);
  }

  update(item: HelperItem): void {
    this.item = item;
    setNameIcon(this.entity, item, item.unit_of_measurement === undefined ? {} : { unit_of_measurement: item.unit_of_measurement });
    this.report();
  }

  stop(): void {}
}

function check(item: JsonObject): FieldProblem[] {
  const min = num(item.min) ?? 0;
  const max = num(item.max) ?? 100;
  const initial = str(item.initial);
  if (min > max) return [{ key: 'max', message: `Minimum length ${min} is above the maximum length ${max}` }];
  if (initial !== undefined && (initial.length < min || initial.length > max)) {
    return [{ key: 'initial', message: `Initial value ${initial} length not in range ${min}-${max}` }];
  }
  return [];
}

const length = { kind: 'number', integer: true, min: 0, max: MAX_STATE_LENGTH } as const;

export const INPUT_TEXT: HelperKind = {
  domain: 'input_text',
  fields: {
    ...NAME_ICON,
    min: { field: length, default: 0 },
    max: { field: length, default: 100 },
    initial: { field: { kind: 'string' } },
    unit_of_measurement: { field: { kind: 'string' } },
    pattern: { field: { kind: 'regex' } },
    mode: { field: { kind: 'one_of', options: ['text', 'password'] }, default: 'text' },
  },
  check,
  start: (env, item, editable) => new InputText(env, item, editable),
};
