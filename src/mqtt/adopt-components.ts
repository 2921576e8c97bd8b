import type { JsonObject, JsonValue } from '../core/json.js';
import { CoverFeature } from '../domains/cover.js';
import { compileCodeFormat, LockFeature } from '../domains/lock.js';
import { climateParts } from './adopt-climate.js';
import { buttonParts, numberParts, selectParts } from './adopt-controls.js';
import { fanParts } from './adopt-fan.js';
import { lightParts } from './adopt-light.js';
import type { AdoptContext, AdoptedParts, TopicHandler } from './adopt-types.js';
import { coerceNumber, commandPayload, optStr, renderValue, stateTopic, str } from './adopt-values.js';

function onOffParts(ctx: AdoptContext, withCommand: boolean, defaults: { on: string; off: string }): AdoptedParts {
  const c = ctx.config;
  const payloadOn = str(c.payload_on, defaults.on);
  const payloadOff = str(c.payload_off, defaults.off);
  const stateOn = str(c.state_on, payloadOn);
  const stateOff = str(c.state_off, payloadOff);
  const command = optStr(c.command_topic);
  const topics = stateTopic(ctx, (p) => {
    const v = renderValue(ctx, p, c.state_value_template === undefined ? 'value_template' : 'state_value_template');
    if (v === stateOn) return { state: 'on' };
    if (v === stateOff) return { state: 'off' };
    return v === '' || v === 'None' ? { state: null } : {};
  });
  const send = (on: boolean): void => {
    if (command) ctx.publish(command, commandPayload(ctx, on ? payloadOn : payloadOff));
  };
  const fixed: Record<string, JsonValue> = {};
  if (typeof c.device_class === 'string') fixed.device_class = c.device_class;
  return { platform: withCommand ? { turnOn: () => send(true), turnOff: () => send(false) } : {}, fixed, topics };
}

function sensorParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const fixed: Record<string, JsonValue> = {};
  for (const k of ['device_class', 'unit_of_measurement', 'state_class'] as const) if (typeof c[k] === 'string') fixed[k] = c[k];
  const topics: [string, TopicHandler][] = [];
  const stateTopic = optStr(c.state_topic);
  if (stateTopic) topics.push([stateTopic, (p) => ({ state: renderValue(ctx, p) })]);
  return { platform: {}, fixed, topics };
}

/** Home Assistant's MQTT cover (cover.py): states, position scaled between position_closed and position_open. */
function coverParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  const open = c.payload_open === null ? undefined : str(c.payload_open, 'OPEN');
  const close = c.payload_close === null ? undefined : str(c.payload_close, 'CLOSE');
  const stop = c.payload_stop === null ? undefined : str(c.payload_stop, 'STOP');
  const setPosition = optStr(c.set_position_topic);
  const positionOpen = coerceNumber(c.position_open) ?? 100;
  const positionClosed = coerceNumber(c.position_closed) ?? 0;
  let features = 0;
  if (command && open) features |= CoverFeature.OPEN;
  if (command && close) features |= CoverFeature.CLOSE;
  if (command && stop) features |= CoverFeature.STOP;
  if (setPosition) features |= CoverFeature.SET_POSITION;
  // Keyed by the payloads a device sends: a Map, so `toString` or `__proto__` is a payload it does not know.
  const states: ReadonlyMap<string, string> = new Map([
    [str(c.state_open, 'open'), 'open'],
    [str(c.state_opening, 'opening'), 'opening'],
    [str(c.state_closed, 'closed'), 'closed'],
    [str(c.state_closing, 'closing'), 'closing'],
  ]);
  const stopped = str(c.state_stopped, 'stopped');
  const stateTopic = optStr(c.state_topic);
  const positionTopic = optStr(c.position_topic);
  const assumed = c.optimistic === true || (stateTopic === undefined && positionTopic === undefined);
  let position: number | undefined;
  let state: string | null = null;
  const attrs = (): JsonObject => (position === undefined ? {} : { current_position: position });
  const result = () => ({ state, attributes: attrs() });
  const topics: [string, TopicHandler][] = [];
  if (stateTopic) {
    topics.push([
      stateTopic,
      (p) => {
        const v = renderValue(ctx, p);
        if (v === '') return {};
        if (v === 'None') state = null;
        else if (v === stopped) {
          // Stopped: open unless the position (or, without one, the last state) says closed, as cover.py does.
          state = positionTopic ? (position === 0 ? 'closed' : 'open') : state === 'closed' || state === 'closing' ? 'closed' : 'open';
        } else {
          const known = states.get(v);
          if (known === undefined) return {};
          state = known;
        }
        return result();
      },
    ]);
  }
  if (positionTopic) {
    topics.push([
      positionTopic,
      (p) => {
        const v = Number(renderValue(ctx, p, 'position_template'));
        if (!Number.isFinite(v)) return {};
        // find_percentage_in_range: the device's range to 0-100.
        const percentage = Math.round(((v - positionClosed) * 100) / (positionOpen - positionClosed || 100));
        position = Math.max(0, Math.min(100, percentage));
        if (!stateTopic) state = position === 0 ? 'closed' : 'open';
        return result();
      },
    ]);
  }
  const send = (payload: string | undefined, assume: string) => {
    if (!command || payload === undefined) return;
    ctx.publish(command, payload);
    if (assumed) {
      state = assume;
      ctx.assume(result());
    }
  };
  const setCoverPosition = (p: number): void => {
    if (setPosition === undefined) return;
    // find_in_range_from_percent, then set_position_template with position, position_open and position_closed.
    const value = Math.round((p * (positionOpen - positionClosed)) / 100 + positionClosed);
    const template = optStr(c.set_position_template);
    const variables = { position: value, position_open: positionOpen, position_closed: positionClosed, value };
    ctx.publish(setPosition, template === undefined ? String(value) : ctx.render(template, variables));
    if (assumed) {
      position = p;
      state = p === 0 ? 'closed' : 'open';
      ctx.assume(result());
    }
  };
  const platform = {
    openCover: () => send(open, 'open'),
    closeCover: () => send(close, 'closed'),
    ...(stop ? { stopCover: () => send(stop, state ?? 'open') } : {}),
    ...(setPosition ? { setCoverPosition } : {}),
  };
  const fixed: Record<string, JsonValue> = { supported_features: features };
  if (typeof c.device_class === 'string') fixed.device_class = c.device_class;
  return { platform, fixed, topics };
}

/** Home Assistant's MQTT lock (lock.py): states, payload_reset, command_template with `value` and `code`, code_format. */
function lockParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  const states: ReadonlyMap<string, string> = new Map([
    [str(c.state_locked, 'LOCKED'), 'locked'],
    [str(c.state_unlocked, 'UNLOCKED'), 'unlocked'],
    [str(c.state_locking, 'LOCKING'), 'locking'],
    [str(c.state_unlocking, 'UNLOCKING'), 'unlocking'],
    [str(c.state_jammed, 'JAMMED'), 'jammed'],
    [str(c.state_open, 'OPEN'), 'open'],
    [str(c.state_opening, 'OPENING'), 'opening'],
  ]);
  const reset = str(c.payload_reset, 'None');
  const codeFormat = optStr(c.code_format);
  const topics = stateTopic(ctx, (p) => {
    const v = renderValue(ctx, p);
    if (v === reset) return { state: null };
    const known = states.get(v);
    return known === undefined ? {} : { state: known };
  });
  const assumed = c.optimistic === true || topics.length === 0;
  const openPayload = optStr(c.payload_open);
  const send = (payload: string, code: string | undefined, assume: string) => {
    if (!command) return;
    const template = optStr(c.command_template);
    ctx.publish(command, template === undefined ? payload : ctx.render(template, { value: payload, code: code ?? null }));
    if (assumed) ctx.assume({ state: assume, attributes: codeFormat ? { code_format: codeFormat } : {} });
  };
  const platform = {
    lock: (code?: string) => send(str(c.payload_lock, 'LOCK'), code, 'locked'),
    unlock: (code?: string) => send(str(c.payload_unlock, 'UNLOCK'), code, 'unlocked'),
    ...(openPayload ? { open: (code?: string) => send(openPayload, code, 'open') } : {}),
  };
  const fixed: Record<string, JsonValue> = { supported_features: openPayload ? LockFeature.OPEN : 0 };
  if (codeFormat) fixed.code_format = codeFormat;
  // The lock domain checks codes against code_format before the platform sees them.
  const data = codeFormat ? { format: codeFormat, pattern: compileCodeFormat(codeFormat) } : undefined;
  return { platform, fixed, data, topics };
}

/** The parts of an adopted entity of `component`, or undefined for a component hearth does not adopt. */
export function adoptedParts(component: string, ctx: AdoptContext): AdoptedParts | undefined {
  switch (component) {
    case 'switch':
      return onOffParts(ctx, true, { on: 'ON', off: 'OFF' });
    case 'binary_sensor':
      return onOffParts(ctx, false, { on: 'ON', off: 'OFF' });
    case 'sensor':
      return sensorParts(ctx);
    case 'light':
      return lightParts(ctx);
    case 'cover':
      return coverParts(ctx);
    case 'lock':
      return lockParts(ctx);
    case 'climate':
      return climateParts(ctx);
    case 'fan':
      return fanParts(ctx);
    case 'button':
      return buttonParts(ctx);
    case 'number':
      return numberParts(ctx);
    case 'select':
      return selectParts(ctx);
    default:
      return undefined;
  }
}
