import type { JsonValue } from '../core/json.js';
import type { AdoptContext, TopicHandler } from './adopt-types.js';
import { payloadVariables } from './template.js';

/** A payload option as Home Assistant's cv.string reads it: numbers as text, booleans as Python prints them. */
export const str = (v: JsonValue | undefined, d: string): string =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : typeof v === 'boolean' ? (v ? 'True' : 'False') : d;
export const optStr = (v: JsonValue | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A payload through the config's value template (`value_template` or the given key), if any. */
export function renderValue(ctx: AdoptContext, payload: string, templateKey = 'value_template'): string {
  const template = optStr(ctx.config[templateKey]);
  return template === undefined ? payload : ctx.render(template, payloadVariables(payload)).trim();
}

/** A command through the config's command_template (with `value`), if any. */
export function commandPayload(ctx: AdoptContext, value: string): string {
  const template = optStr(ctx.config.command_template);
  return template === undefined ? value : ctx.render(template, { value });
}

/** The subscription of a state topic (`state_topic` or the given key) with its handler, or none when not configured. */
export function stateTopic(ctx: AdoptContext, handler: TopicHandler, key = 'state_topic'): [string, TopicHandler][] {
  const topic = optStr(ctx.config[key]);
  return topic === undefined ? [] : [[topic, handler]];
}
