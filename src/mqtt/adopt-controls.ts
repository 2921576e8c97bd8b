import type { JsonValue } from '../core/json.js';
import { type ButtonData, buttonFixed } from '../domains/button.js';
import { pyFloat } from '../domains/helper-format.js';
import {
  DEFAULT_NUMBER_MAX,
  DEFAULT_NUMBER_MIN,
  NUMBER_MODES,
  type NumberData,
  type NumberMode,
  type NumberRange,
  numberFixed,
} from '../domains/number.js';
import { type SelectData, selectFixed } from '../domains/select.js';
import type { AdoptContext, AdoptedParts } from './adopt-types.js';
import { commandPayload, optStr, renderValue, stateTopic, str } from './adopt-values.js';

const numberOr = (v: JsonValue | undefined, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const className = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** Home Assistant's MQTT button: a press publishes payload_press (through command_template); no state topic. */
export function buttonParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  if (command === undefined) throw new Error('a button needs a command_topic');
  const data: ButtonData = { pressedAt: null };
  return {
    platform: { press: () => ctx.publish(command, commandPayload(ctx, str(c.payload_press, 'PRESS'))) },
    fixed: buttonFixed(className(c.device_class), undefined),
    data,
    topics: [],
    ownState: () => data.pressedAt,
    restore: true,
  };
}

/** Optimistic (assumed_state) when the config says so or gives no state topic: a command shows at once. */
function optimistic(ctx: AdoptContext): boolean {
  return ctx.config.optimistic === true || optStr(ctx.config.state_topic) === undefined;
}

/**
 * Home Assistant's MQTT number: a state payload that is digits is an int ("21"), any other number a float ("21.5",
 * "-3.0"), payload_reset unknown; a value outside min..max is ignored. set_value publishes an integral value as an int.
 */
export function numberParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  if (command === undefined) throw new Error('a number needs a command_topic');
  const mode = NUMBER_MODES.includes(c.mode as NumberMode) ? (c.mode as NumberMode) : 'auto';
  const range: NumberRange = {
    min: numberOr(c.min, DEFAULT_NUMBER_MIN),
    max: numberOr(c.max, DEFAULT_NUMBER_MAX),
    step: numberOr(c.step, 1),
    mode,
  };
  const data: NumberData = { range };
  const reset = str(c.payload_reset, 'None');
  const topics = stateTopic(ctx, (p) => {
    const v = renderValue(ctx, p);
    if (v.trim() === '') return {};
    if (v === reset) return { state: null };
    const n = Number(v);
    if (!Number.isFinite(n) || n < range.min || n > range.max) return {};
    return { state: /^\d+$/.test(v) ? String(n) : pyFloat(n) };
  });
  const assumed = optimistic(ctx);
  const setValue = (value: number): void => {
    const text = String(value);
    if (assumed) ctx.assume({ state: text });
    ctx.publish(command, commandPayload(ctx, text));
  };
  const unit = typeof c.unit_of_measurement === 'string' ? c.unit_of_measurement : undefined;
  return { platform: { setValue }, fixed: numberFixed(range, { unit, deviceClass: className(c.device_class) }), data, topics };
}

/** Home Assistant's MQTT select: a state that is not one of the options is ignored, "None" is unknown. */
export function selectParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  if (command === undefined) throw new Error('a select needs a command_topic');
  if (!Array.isArray(c.options)) throw new Error('a select needs its options (a list)');
  const options = (c.options as JsonValue[]).map((o) => str(o, ''));
  const data: SelectData = { options };
  const topics = stateTopic(ctx, (p) => {
    const v = renderValue(ctx, p);
    if (v.trim() === '') return {};
    if (v.toLowerCase() === 'none') return { state: null };
    return options.includes(v) ? { state: v } : {};
  });
  const assumed = optimistic(ctx);
  const selectOption = (option: string): void => {
    if (assumed) ctx.assume({ state: option });
    ctx.publish(command, commandPayload(ctx, option));
  };
  return { platform: { selectOption }, fixed: selectFixed(options), data, topics };
}
