import type { JsonObject, JsonValue } from '../core/json.js';
import { CoverFeature } from '../domains/cover.js';
import { type ColorMode, type LightCapabilities, type LightModel, type LightTurnOnParams, lightStateAttributes } from '../domains/light.js';
import { compileCodeFormat, LockFeature } from '../domains/lock.js';
import { climateParts } from './adopt-climate.js';
import { buttonParts, numberParts, selectParts } from './adopt-controls.js';
import { fanParts } from './adopt-fan.js';
import type { AdoptContext, AdoptedParts, TopicHandler } from './adopt-types.js';
import { coerceNumber, commandPayload, optStr, renderValue, stateTopic, str } from './adopt-values.js';

export const ADOPTED_COMPONENTS: ReadonlySet<string> = new Set([
  'switch',
  'light',
  'sensor',
  'binary_sensor',
  'cover',
  'lock',
  'climate',
  'fan',
  'button',
  'number',
  'select',
]);

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

const MODES: readonly ColorMode[] = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'white'];

/** A light with the JSON schema (light/schema_json.py) or the default schema's on/off and brightness. */
function lightParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const json = c.schema === 'json';
  const scale = typeof c.brightness_scale === 'number' && c.brightness_scale > 0 ? c.brightness_scale : 255;
  const given = Array.isArray(c.supported_color_modes)
    ? (c.supported_color_modes as JsonValue[]).filter((m): m is ColorMode => MODES.includes(m as ColorMode))
    : [];
  const hasBrightness = json ? c.brightness === true : typeof c.brightness_command_topic === 'string';
  const modes: ColorMode[] = given.length > 0 ? given : [hasBrightness ? 'brightness' : 'onoff'];
  const kelvin = (mireds: JsonValue | undefined) => (typeof mireds === 'number' && mireds > 0 ? Math.round(1_000_000 / mireds) : undefined);
  const caps: LightCapabilities = {
    supportedColorModes: modes,
    minColorTempKelvin: kelvin(c.max_mireds) ?? (modes.includes('color_temp') ? 2000 : undefined),
    maxColorTempKelvin: kelvin(c.min_mireds) ?? (modes.includes('color_temp') ? 6535 : undefined),
    effectList: Array.isArray(c.effect_list) ? (c.effect_list as JsonValue[]).filter((e): e is string => typeof e === 'string') : undefined,
    supportedFeatures: (Array.isArray(c.effect_list) ? 4 : 0) | (c.flash === true ? 8 : 0) | (c.transition === true ? 32 : 0),
  };
  let model: LightModel = { on: false };
  const render = (m: LightModel) => ({ state: m.on ? 'on' : 'off', attributes: lightStateAttributes(caps, m) });
  const topics: [string, TopicHandler][] = [];
  const command = optStr(c.command_topic);
  const stateTopic = optStr(c.state_topic);
  if (json) {
    if (stateTopic) {
      topics.push([
        stateTopic,
        (p) => {
          const v = JSON.parse(p) as JsonValue;
          if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
          const o = v as JsonObject;
          const color = o.color !== null && typeof o.color === 'object' && !Array.isArray(o.color) ? (o.color as JsonObject) : {};
          const n = (x: JsonValue | undefined) => (typeof x === 'number' ? x : undefined);
          const mode =
            typeof o.color_mode === 'string' && MODES.includes(o.color_mode as ColorMode) ? (o.color_mode as ColorMode) : undefined;
          const h = n(color.h);
          const s = n(color.s);
          const x = n(color.x);
          const y = n(color.y);
          const r = n(color.r);
          const g = n(color.g);
          const b = n(color.b);
          const bri = n(o.brightness);
          model = {
            on: o.state === 'ON' ? true : o.state === 'OFF' ? false : model.on,
            brightness: bri === undefined ? model.brightness : Math.round((bri * 255) / scale),
            colorMode: mode ?? model.colorMode,
            hs: h !== undefined && s !== undefined ? [h, s] : model.hs,
            xy: x !== undefined && y !== undefined ? [x, y] : model.xy,
            rgb: r !== undefined && g !== undefined && b !== undefined ? [r, g, b] : model.rgb,
            colorTempKelvin: kelvin(o.color_temp) ?? model.colorTempKelvin,
            effect: typeof o.effect === 'string' ? o.effect : model.effect,
          };
          return render(model);
        },
      ]);
    }
  } else {
    if (stateTopic) {
      const stateOn = str(c.payload_on, 'ON');
      const stateOff = str(c.payload_off, 'OFF');
      topics.push([
        stateTopic,
        (p) => {
          // Tasmota gives the state's template as value_template; Home Assistant's basic schema names it state_value_template.
          const v = renderValue(ctx, p, c.state_value_template === undefined ? 'value_template' : 'state_value_template');
          if (v === stateOn) model = { ...model, on: true };
          else if (v === stateOff) model = { ...model, on: false };
          else return {};
          return render(model);
        },
      ]);
    }
    const briTopic = optStr(c.brightness_state_topic);
    if (briTopic) {
      topics.push([
        briTopic,
        (p) => {
          const v = Number(renderValue(ctx, p, 'brightness_value_template'));
          if (!Number.isFinite(v)) return {};
          model = { ...model, brightness: Math.round((v * 255) / scale) };
          return render(model);
        },
      ]);
    }
  }
  const turnOn = (params: LightTurnOnParams): void => {
    if (!command) return;
    if (!json) {
      const briCommand = optStr(c.brightness_command_topic);
      if (briCommand && params.brightness !== undefined) ctx.publish(briCommand, String(Math.round((params.brightness * scale) / 255)));
      else ctx.publish(command, str(c.payload_on, 'ON'));
      return;
    }
    const out: Record<string, JsonValue> = { state: 'ON' };
    if (params.brightness !== undefined) out.brightness = Math.round((params.brightness * scale) / 255);
    if (params.hs_color) out.color = { h: params.hs_color[0], s: params.hs_color[1] };
    else if (params.xy_color) out.color = { x: params.xy_color[0], y: params.xy_color[1] };
    else if (params.rgb_color) out.color = { r: params.rgb_color[0], g: params.rgb_color[1], b: params.rgb_color[2] };
    if (params.color_temp_kelvin) out.color_temp = Math.round(1_000_000 / params.color_temp_kelvin);
    if (params.effect) out.effect = params.effect;
    if (params.transition !== undefined) out.transition = params.transition;
    ctx.publish(command, JSON.stringify(out));
  };
  const turnOff = (params: { transition?: number }): void => {
    if (!command) return;
    if (!json) ctx.publish(command, str(c.payload_off, 'OFF'));
    else
      ctx.publish(
        command,
        JSON.stringify(params.transition === undefined ? { state: 'OFF' } : { state: 'OFF', transition: params.transition }),
      );
  };
  const fixed: Record<string, JsonValue> = { supported_color_modes: [...modes], supported_features: caps.supportedFeatures ?? 0 };
  if (caps.effectList) fixed.effect_list = [...caps.effectList];
  if (modes.includes('color_temp')) {
    fixed.min_color_temp_kelvin = caps.minColorTempKelvin ?? 2000;
    fixed.max_color_temp_kelvin = caps.maxColorTempKelvin ?? 6535;
  }
  return { platform: { turnOn, turnOff }, fixed, topics };
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
