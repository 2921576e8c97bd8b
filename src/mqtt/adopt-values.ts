import type { JsonObject, JsonValue } from '../core/json.js';
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

export const strList = (v: JsonValue | undefined): string[] | undefined =>
  Array.isArray(v) ? (v as JsonValue[]).filter((x): x is string => typeof x === 'string') : undefined;

/** A number option as Home Assistant's vol.Coerce(float) reads it: a number, or text that is one ("5"). */
export function coerceNumber(v: JsonValue | undefined): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/** Publishes `value` on the topic `topicKey` names, through `templateKey`'s template (with `value` and `extra`). */
export function send(ctx: AdoptContext, topicKey: string, templateKey: string, value: string | number, extra: JsonObject = {}): void {
  const topic = optStr(ctx.config[topicKey]);
  if (topic === undefined) return;
  const template = optStr(ctx.config[templateKey]);
  // A number stays a number for the template (zigbee2mqtt's `{0:'off', 1:'low'}[value]`), as MqttCommandTemplate has it.
  ctx.publish(topic, template === undefined ? String(value) : ctx.render(template, { ...extra, value }));
}

/**
 * The entity's state topics: `on(topicKey, templateKey, apply)` subscribes to the topic the config names (if any),
 * reads each payload through its template, applies it to the model, and renders the entity's new state.
 */
export function stateTopics(
  ctx: AdoptContext,
  render: () => ReturnType<TopicHandler>,
): { topics: [string, TopicHandler][]; on: (topicKey: string, templateKey: string, apply: (v: string) => void) => void } {
  const topics: [string, TopicHandler][] = [];
  const on = (topicKey: string, templateKey: string, apply: (v: string) => void): void => {
    const topic = optStr(ctx.config[topicKey]);
    if (topic === undefined) return;
    topics.push([
      topic,
      (p) => {
        const template = optStr(ctx.config[templateKey]);
        apply(template === undefined ? p.trim() : ctx.render(template, payloadVariables(p)).trim());
        return render();
      },
    ]);
  };
  return { topics, on };
}
