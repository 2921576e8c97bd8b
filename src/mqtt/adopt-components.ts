import type { JsonObject, JsonValue } from '../core/json.js';
import { CoverFeature } from '../domains/cover.js';
import { type ColorMode, type LightCapabilities, type LightModel, type LightTurnOnParams, lightStateAttributes } from '../domains/light.js';
import { LockFeature } from '../domains/lock.js';
import { climateParts, fanParts } from './adopt-climate-fan.js';
import { buttonParts, numberParts, selectParts } from './adopt-controls.js';
import type { AdoptContext, AdoptedParts, TopicHandler } from './adopt-types.js';
import { commandPayload, optStr, renderValue, stateTopic, str } from './adopt-values.js';

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

function coverParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const command = optStr(c.command_topic);
  const open = c.payload_open === null ? undefined : str(c.payload_open, 'OPEN');
  const close = c.payload_close === null ? undefined : str(c.payload_close, 'CLOSE');
  const stop = c.payload_stop === null ? undefined : str(c.payload_stop, 'STOP');
  const setPosition = optStr(c.set_position_topic);
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
    [str(c.state_stopped, 'stopped'), 'open'],
  ]);
  let position: number | undefined;
  const topics: [string, TopicHandler][] = [];
  const stateTopic = optStr(c.state_topic);
  const attrs = (): JsonObject => (position === undefined ? {} : { current_position: position });
  if (stateTopic) topics.push([stateTopic, (p) => ({ state: states.get(renderValue(ctx, p)) ?? null, attributes: attrs() })]);
  const positionTopic = optStr(c.position_topic);
  if (positionTopic) {
    topics.push([
      positionTopic,
      (p) => {
        const v = Number(renderValue(ctx, p, 'position_template'));
        if (!Number.isFinite(v)) return {};
        position = Math.max(0, Math.min(100, Math.round(v)));
        return stateTopic ? { attributes: attrs() } : { state: position > 0 ? 'open' : 'closed', attributes: attrs() };
      },
    ]);
  }
  const send = (payload: string | undefined) => {
    if (command && payload !== undefined) ctx.publish(command, payload);
  };
  const platform = {
    openCover: () => send(open),
    closeCover: () => send(close),
    ...(stop ? { stopCover: () => send(stop) } : {}),
    ...(setPosition ? { setCoverPosition: (p: number) => ctx.publish(setPosition, String(p)) } : {}),
  };
  const fixed: Record<string, JsonValue> = { supported_features: features };
  if (typeof c.device_class === 'string') fixed.device_class = c.device_class;
  return { platform, fixed, topics };
}

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
  const topics: [string, TopicHandler][] = [];
  const stateTopic = optStr(c.state_topic);
  if (stateTopic) topics.push([stateTopic, (p) => ({ state: states.get(renderValue(ctx, p)) ?? null })]);
  const openPayload = optStr(c.payload_open);
  const send = (payload: string) => {
    if (command) ctx.publish(command, commandPayload(ctx, payload));
  };
  const platform = {
    lock: () => send(str(c.payload_lock, 'LOCK')),
    unlock: () => send(str(c.payload_unlock, 'UNLOCK')),
    ...(openPayload ? { open: () => send(openPayload) } : {}),
  };
  return { platform, fixed: { supported_features: openPayload ? LockFeature.OPEN : 0 }, topics };
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
