import type { JsonObject, JsonValue } from '../core/json.js';
import {
  type ColorMode,
  type LightCapabilities,
  LightFeature,
  type LightModel,
  type LightTurnOnParams,
  lightStateAttributes,
} from '../domains/light.js';
import { miredsKelvin } from '../util/color.js';
import type { AdoptContext, AdoptedParts, TopicHandler } from './adopt-types.js';
import { coerceNumber, optStr, renderValue, send, str, strList } from './adopt-values.js';

const MODES: readonly ColorMode[] = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'white'];
const isMode = (m: unknown): m is ColorMode => MODES.includes(m as ColorMode);
const n = (x: JsonValue | undefined): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const FLASH_LENGTH = { short: 'flash_time_short', long: 'flash_time_long' } as const;

/** What both schemas share: capabilities from the config, the model, and how it is rendered. */
function lightBase(c: Record<string, JsonValue>, modes: ColorMode[], features: number) {
  // Kelvin limits: min_kelvin/max_kelvin, else from max_mireds/min_mireds (the warmer end is the larger mireds).
  const kelvin = (mireds: JsonValue | undefined) => {
    const m = coerceNumber(mireds);
    return m !== undefined && m > 0 ? miredsKelvin(m) : undefined;
  };
  const caps: LightCapabilities = {
    supportedColorModes: modes,
    minColorTempKelvin: coerceNumber(c.min_kelvin) ?? kelvin(c.max_mireds) ?? (modes.includes('color_temp') ? 2000 : undefined),
    maxColorTempKelvin: coerceNumber(c.max_kelvin) ?? kelvin(c.min_mireds) ?? (modes.includes('color_temp') ? 6535 : undefined),
    effectList: strList(c.effect_list),
    supportedFeatures: features,
  };
  const fixed: Record<string, JsonValue> = { supported_color_modes: [...modes], supported_features: features };
  if (caps.effectList && features & LightFeature.EFFECT) fixed.effect_list = [...caps.effectList];
  if (modes.includes('color_temp')) {
    fixed.min_color_temp_kelvin = caps.minColorTempKelvin ?? 2000;
    fixed.max_color_temp_kelvin = caps.maxColorTempKelvin ?? 6535;
  }
  return { caps, fixed };
}

/** Home Assistant's JSON schema (light/schema_json.py): one JSON state and one JSON command. */
function jsonLight(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const scale = coerceNumber(c.brightness_scale) ?? 255;
  const kelvinUnits = c.color_temp_kelvin === true;
  const given = (strList(c.supported_color_modes) ?? []).filter(isMode);
  const modes: ColorMode[] = given.length > 0 ? given : [c.brightness === true ? 'brightness' : 'onoff'];
  let features = 0;
  if (c.effect === true) features |= LightFeature.EFFECT;
  // flash and transition default to true in schema_json.py.
  if (c.flash !== false) features |= LightFeature.FLASH;
  if (c.transition !== false) features |= LightFeature.TRANSITION;
  const { caps, fixed } = lightBase(c, modes, features);
  let model: LightModel = { on: false };
  let known = false;
  const render = () => ({ state: known ? (model.on ? 'on' : 'off') : null, attributes: lightStateAttributes(caps, model) });
  const stateTopic = optStr(c.state_topic);
  const command = optStr(c.command_topic);
  const assumed = c.optimistic === true || stateTopic === undefined;
  const topics: [string, TopicHandler][] = [];
  if (stateTopic) {
    topics.push([
      stateTopic,
      (p) => {
        const v = JSON.parse(p) as JsonValue;
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
        const o = v as JsonObject;
        const color = o.color !== null && typeof o.color === 'object' && !Array.isArray(o.color) ? (o.color as JsonObject) : {};
        const mode = isMode(o.color_mode) ? o.color_mode : undefined;
        const bri = n(o.brightness);
        const ct = n(o.color_temp);
        if (o.state === 'ON' || o.state === 'OFF') known = true;
        else if (o.state === null) known = false;
        model = {
          on: o.state === 'ON' ? true : o.state === 'OFF' ? false : model.on,
          brightness:
            bri !== undefined ? Math.min(255, Math.trunc((bri / scale) * 255)) : o.brightness === null ? undefined : model.brightness,
          colorMode: mode ?? model.colorMode,
          hs: n(color.h) !== undefined && n(color.s) !== undefined ? [n(color.h) ?? 0, n(color.s) ?? 0] : model.hs,
          xy: n(color.x) !== undefined && n(color.y) !== undefined ? [n(color.x) ?? 0, n(color.y) ?? 0] : model.xy,
          rgb:
            n(color.r) !== undefined && n(color.g) !== undefined && n(color.b) !== undefined
              ? [n(color.r) ?? 0, n(color.g) ?? 0, n(color.b) ?? 0]
              : model.rgb,
          colorTempKelvin:
            ct !== undefined && ct > 0 ? (kelvinUnits ? ct : miredsKelvin(ct)) : o.color_temp === null ? undefined : model.colorTempKelvin,
          effect: typeof o.effect === 'string' ? o.effect : o.effect === null ? undefined : model.effect,
        };
        return render();
      },
    ]);
  }
  const publish = (out: Record<string, JsonValue>): void => {
    if (command) ctx.publish(command, JSON.stringify(out));
  };
  const turnOn = (params: LightTurnOnParams): void => {
    const out: Record<string, JsonValue> = { state: 'ON' };
    if (params.hs_color) out.color = { h: params.hs_color[0], s: params.hs_color[1] };
    else if (params.xy_color) out.color = { x: params.xy_color[0], y: params.xy_color[1] };
    else if (params.rgb_color) out.color = { r: params.rgb_color[0], g: params.rgb_color[1], b: params.rgb_color[2] };
    if (params.brightness !== undefined && modes.some((m) => m !== 'onoff'))
      out.brightness = Math.max(1, Math.round((params.brightness / 255) * scale));
    if (params.color_temp_kelvin)
      out.color_temp = kelvinUnits ? Math.round(params.color_temp_kelvin) : Math.floor(1_000_000 / params.color_temp_kelvin);
    if (params.white !== undefined) out.white = Math.round((params.white / 255) * scale);
    if (params.effect) out.effect = params.effect;
    if (params.flash) out.flash = coerceNumber(c[FLASH_LENGTH[params.flash]]) ?? (params.flash === 'short' ? 2 : 10);
    if (params.transition !== undefined) out.transition = params.transition;
    publish(out);
    if (assumed) {
      known = true;
      const mode: ColorMode | undefined = params.hs_color
        ? 'hs'
        : params.xy_color
          ? 'xy'
          : params.rgb_color
            ? 'rgb'
            : params.color_temp_kelvin
              ? 'color_temp'
              : model.colorMode;
      model = {
        ...model,
        on: true,
        brightness: params.brightness ?? model.brightness ?? (modes.some((m) => m !== 'onoff') ? 255 : undefined),
        colorMode: mode ?? modes.find((m) => m !== 'white'),
        ...(params.hs_color ? { hs: params.hs_color } : {}),
        ...(params.xy_color ? { xy: params.xy_color } : {}),
        ...(params.rgb_color ? { rgb: params.rgb_color } : {}),
        ...(params.color_temp_kelvin ? { colorTempKelvin: params.color_temp_kelvin } : {}),
        ...(params.effect ? { effect: params.effect } : {}),
      };
      ctx.assume(render());
    }
  };
  const turnOff = (params: { transition?: number; flash?: 'short' | 'long' }): void => {
    const out: Record<string, JsonValue> = { state: 'OFF' };
    if (params.flash) out.flash = coerceNumber(c[FLASH_LENGTH[params.flash]]) ?? (params.flash === 'short' ? 2 : 10);
    if (params.transition !== undefined) out.transition = params.transition;
    publish(out);
    if (assumed) {
      known = true;
      model = { ...model, on: false };
      ctx.assume(render());
    }
  };
  return { platform: { turnOn, turnOff }, fixed, topics };
}

/**
 * Home Assistant's default schema (light/schema_basic.py, as Tasmota and many others publish it): on/off, and
 * brightness, colour temperature, rgb, hs, xy, white and effect each on their own topics with their own templates.
 */
function basicLight(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const scale = coerceNumber(c.brightness_scale) ?? 255;
  const whiteScale = coerceNumber(c.white_scale) ?? 255;
  const kelvinUnits = c.color_temp_kelvin === true;
  const has = (key: string) => optStr(c[key]) !== undefined;
  const colorModes: ColorMode[] = [];
  if (has('color_temp_command_topic')) colorModes.push('color_temp');
  if (has('hs_command_topic')) colorModes.push('hs');
  if (has('rgb_command_topic')) colorModes.push('rgb');
  if (has('white_command_topic')) colorModes.push('white');
  if (has('xy_command_topic')) colorModes.push('xy');
  const modes: ColorMode[] =
    colorModes.filter((m) => m !== 'white').length > 0 ? colorModes : [has('brightness_command_topic') ? 'brightness' : 'onoff'];
  const features = has('effect_command_topic') && strList(c.effect_list) ? LightFeature.EFFECT : 0;
  const { caps, fixed } = lightBase(c, modes, features);
  const payloadOn = str(c.payload_on, 'ON');
  const payloadOff = str(c.payload_off, 'OFF');
  const onCommandType = optStr(c.on_command_type) ?? 'last';
  let model: LightModel = { on: false, ...(modes.length === 1 ? { colorMode: modes[0] } : {}) };
  let known = false;
  const render = () => ({ state: known ? (model.on ? 'on' : 'off') : null, attributes: lightStateAttributes(caps, model) });
  const topics: [string, TopicHandler][] = [];
  const on = (topicKey: string, templateKey: string, apply: (v: string) => boolean): void => {
    const topic = optStr(c[topicKey]);
    if (topic === undefined) return;
    topics.push([topic, (p) => (apply(renderValue(ctx, p, templateKey)) ? render() : {})]);
  };
  // Tasmota gives the state's template as value_template; schema_basic.py names it state_value_template.
  on('state_topic', c.state_value_template === undefined ? 'value_template' : 'state_value_template', (v) => {
    if (v === payloadOn) model = { ...model, on: true };
    else if (v === payloadOff) model = { ...model, on: false };
    else if (v === 'None') known = false;
    else return false;
    if (v !== 'None') known = true;
    return true;
  });
  const numbers = (v: string): number[] | undefined => {
    const parts = v.split(',').map((x) => Number(x.trim()));
    return parts.every((x) => Number.isFinite(x)) ? parts : undefined;
  };
  on('brightness_state_topic', 'brightness_value_template', (v) => {
    const b = Number(v);
    if (v === '' || !Number.isFinite(b) || b === 0) return false;
    model = { ...model, brightness: Math.min(255, Math.round((b / scale) * 255)) };
    return true;
  });
  on('color_mode_state_topic', 'color_mode_value_template', (v) => {
    if (!isMode(v)) return false;
    model = { ...model, colorMode: v };
    return true;
  });
  const colorModeFromTopic = has('color_mode_state_topic');
  const color = (mode: ColorMode, patch: Partial<LightModel>): boolean => {
    model = { ...model, ...patch, ...(colorModeFromTopic ? {} : { colorMode: mode }) };
    return true;
  };
  on('color_temp_state_topic', 'color_temp_value_template', (v) => {
    const t = Number(v);
    if (v === '' || !Number.isFinite(t) || t <= 0) return false;
    return color('color_temp', { colorTempKelvin: kelvinUnits ? t : miredsKelvin(t) });
  });
  on('rgb_state_topic', 'rgb_value_template', (v) => {
    const rgb = numbers(v);
    if (rgb?.length !== 3) return false;
    return color('rgb', { rgb: [rgb[0] ?? 0, rgb[1] ?? 0, rgb[2] ?? 0] });
  });
  on('hs_state_topic', 'hs_value_template', (v) => {
    const hs = numbers(v);
    if (hs?.length !== 2) return false;
    return color('hs', { hs: [hs[0] ?? 0, hs[1] ?? 0] });
  });
  on('xy_state_topic', 'xy_value_template', (v) => {
    const xy = numbers(v);
    if (xy?.length !== 2) return false;
    return color('xy', { xy: [xy[0] ?? 0, xy[1] ?? 0] });
  });
  on('effect_state_topic', 'effect_value_template', (v) => {
    if (v === '') return false;
    model = { ...model, effect: v };
    return true;
  });
  const assumed = c.optimistic === true || !has('state_topic');
  const turnOn = (params: LightTurnOnParams): void => {
    const command = optStr(c.command_topic);
    const power = () => command !== undefined && ctx.publish(command, payloadOn);
    if (onCommandType === 'first') power();
    if (params.hs_color)
      send(ctx, 'hs_command_topic', 'hs_command_template', params.hs_color.join(','), { hue: params.hs_color[0], sat: params.hs_color[1] });
    if (params.rgb_color) {
      const [red, green, blue] = params.rgb_color;
      send(ctx, 'rgb_command_topic', 'rgb_command_template', params.rgb_color.join(','), { red, green, blue });
    }
    if (params.xy_color)
      send(ctx, 'xy_command_topic', 'xy_command_template', params.xy_color.join(','), { x: params.xy_color[0], y: params.xy_color[1] });
    let brightness = params.brightness;
    // on_command_type brightness: the brightness is the command, the last one (or full) when none is given.
    if (brightness === undefined && onCommandType === 'brightness' && params.white === undefined) brightness = model.brightness ?? 255;
    if (brightness !== undefined && has('brightness_command_topic'))
      send(ctx, 'brightness_command_topic', 'brightness_command_template', String(Math.max(1, Math.round((brightness / 255) * scale))));
    if (params.color_temp_kelvin && has('color_temp_command_topic')) {
      const t = kelvinUnits ? Math.round(params.color_temp_kelvin) : Math.floor(1_000_000 / params.color_temp_kelvin);
      send(ctx, 'color_temp_command_topic', 'color_temp_command_template', String(t));
    }
    if (params.white !== undefined)
      send(ctx, 'white_command_topic', 'white_command_template', String(Math.round((params.white / 255) * whiteScale)));
    if (params.effect) send(ctx, 'effect_command_topic', 'effect_command_template', params.effect);
    if (onCommandType === 'last') power();
    if (assumed) {
      known = true;
      model = { ...model, on: true, ...(brightness !== undefined ? { brightness } : {}) };
      ctx.assume(render());
    }
  };
  const turnOff = (): void => {
    const command = optStr(c.command_topic);
    if (command !== undefined) ctx.publish(command, payloadOff);
    if (assumed) {
      known = true;
      model = { ...model, on: false };
      ctx.assume(render());
    }
  };
  return { platform: { turnOn, turnOff }, fixed, topics };
}

/** An adopted light: the JSON schema or the default one (the template schema is refused by discovery-check). */
export function lightParts(ctx: AdoptContext): AdoptedParts {
  if (ctx.config.schema === 'template') throw new Error('schema: "template" is not adopted: expected json or basic');
  return ctx.config.schema === 'json' ? jsonLight(ctx) : basicLight(ctx);
}
