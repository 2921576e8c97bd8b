import type { JsonValue } from '../core/json.js';
import {
  addLight,
  type ColorMode,
  type LightCapabilities,
  LightFeature,
  type LightPlatform,
  type LightTurnOnParams,
  lightFixedAttributes,
  lightStateAttributes,
} from '../domains/light.js';
import { type HS, miredsKelvin, type RGB } from '../util/color.js';
import { baseOf, type DeviceContext, type DeviceEntity, floatOf, onceLogger, withCustom } from './device.js';
import type { Presented } from './entity.js';
import { actionRunner } from './scripts.js';

/** Home Assistant's light defaults (DEFAULT_MIN_KELVIN, DEFAULT_MAX_KELVIN): 153 to 500 mireds. */
const MIN_KELVIN = 2000;
const MAX_KELVIN = 6535;

/** The colours a template light has: its template, its action, its colour mode and the model's field. */
const COLORS = [
  { key: 'temperature', action: 'set_temperature', mode: 'color_temp' },
  { key: 'hs', action: 'set_hs', mode: 'hs' },
  { key: 'rgb', action: 'set_rgb', mode: 'rgb' },
] as const;

interface Model {
  on: boolean | null;
  brightness: number | null;
  colorMode: ColorMode | undefined;
  colorTempKelvin: number | null;
  hs: HS | null;
  rgb: RGB | null;
  effect: string | null;
}

/** A rendered list of numbers: a list, or text such as "(30, 50)" (Home Assistant's _string_to_list). */
function numbersOf(value: JsonValue | undefined, length: number): number[] | undefined {
  let list: JsonValue | undefined = value;
  if (typeof value === 'string')
    list = value
      .replace(/[()[\] ]/g, '')
      .split(',')
      .map(Number);
  if (!Array.isArray(list) || list.length !== length || !list.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  return list as number[];
}

/** template_validators.boolean: a truthy or falsy word, else unknown. */
function booleanOf(text: string | null | undefined): boolean | null {
  const lower = (text ?? '').toLowerCase().trim();
  if (['true', 'on', 'yes', '1', 'enable'].includes(lower)) return true;
  if (['false', 'off', 'no', '0', 'disable'].includes(lower)) return false;
  return null;
}

/**
 * A template light (homeassistant/components/template/light.py): state, level (0-255), temperature (mireds), hs,
 * rgb and effect templates; turn_on runs the one action that fits the call (set_temperature with `color_temp_kelvin`
 * and `color_temp`, set_effect with `effect`, set_hs with `hs`/`h`/`s`, set_rgb with `rgb`/`r`/`g`/`b`, set_level,
 * else turn_on), each with `brightness` (and `transition` when the light supports it). Its colour modes follow
 * from its actions, as Home Assistant derives them. Without a state template it takes on/off at once; a value
 * without its own template is shown at once too.
 */
export function addTemplateLight(d: DeviceContext): DeviceEntity {
  const { ctx, device } = d;
  const templates = device.templates;
  const scripts = new Map<string, ReturnType<typeof actionRunner>>();
  for (const [name, actions] of device.actions) scripts.set(name, actionRunner(ctx, d.entityId, name, actions));
  const assumed = device.optimistic ?? d.def.state === undefined;
  const rejected = onceLogger(d);
  // filter_supported_color_modes: onoff only alone, brightness only without a colour.
  const colorModes: ColorMode[] = COLORS.filter((c) => scripts.has(c.action)).map((c) => c.mode);
  const modes: ColorMode[] = colorModes.length > 0 ? colorModes : scripts.has('set_level') ? ['brightness'] : ['onoff'];
  let caps: LightCapabilities = {
    supportedColorModes: modes,
    minColorTempKelvin: MIN_KELVIN,
    maxColorTempKelvin: MAX_KELVIN,
    supportedFeatures: scripts.has('set_effect') ? LightFeature.EFFECT : 0,
  };
  const m: Model = {
    on: false,
    brightness: null,
    colorMode: modes.length === 1 ? modes[0] : undefined,
    colorTempKelvin: null,
    hs: null,
    rgb: null,
    effect: null,
  };
  let supportsTransition = false;
  let custom: Record<string, JsonValue> = {};

  const present = (): Presented => {
    const model = {
      on: m.on === true,
      brightness: m.brightness ?? undefined,
      colorMode: m.colorMode,
      colorTempKelvin: m.colorTempKelvin ?? undefined,
      hs: m.hs ?? undefined,
      rgb: m.rgb ?? undefined,
      effect: m.effect ?? undefined,
    };
    const attributes: Record<string, JsonValue> = { ...lightStateAttributes(caps, model) };
    // A level not known is None in Home Assistant, not full brightness.
    if (m.on === true && m.brightness === null && 'brightness' in attributes) attributes.brightness = null;
    if (assumed) attributes.assumed_state = true;
    return { state: m.on === null ? null : m.on ? 'on' : 'off', attributes: withCustom(attributes, custom) };
  };
  const write = () => d.writer().writePresented(present());
  /** _set_optimistic_color: the colour set, the others without a template cleared. */
  const setColor = (mode: (typeof COLORS)[number]['mode'], set: () => void) => {
    m.colorMode = mode;
    for (const c of COLORS) if (c.mode !== mode && !templates.has(c.key)) clearColor(c.mode);
    set();
  };
  const clearColor = (mode: ColorMode) => {
    if (mode === 'color_temp') m.colorTempKelvin = null;
    else if (mode === 'hs') m.hs = null;
    else if (mode === 'rgb') m.rgb = null;
  };

  const platform: LightPlatform = {
    turnOn: async (params: LightTurnOnParams) => {
      // set_optimistic_attributes
      let changed = false;
      if (assumed) m.on = changed = true;
      if (!templates.has('level') && params.brightness !== undefined) {
        m.brightness = params.brightness;
        changed = true;
      }
      const kelvin = params.color_temp_kelvin;
      const hs = params.hs_color;
      const rgb = params.rgb_color;
      if (!templates.has('temperature') && kelvin !== undefined) {
        setColor('color_temp', () => (m.colorTempKelvin = kelvin));
        changed = true;
      }
      if (!templates.has('hs') && hs !== undefined) {
        setColor('hs', () => (m.hs = hs));
        changed = true;
      }
      if (!templates.has('rgb') && rgb !== undefined) {
        setColor('rgb', () => (m.rgb = rgb));
        changed = true;
      }
      if (changed && !assumed) m.on = true;
      // get_registered_script
      const vars: Record<string, JsonValue> = {};
      if (params.brightness !== undefined) vars.brightness = params.brightness;
      if (params.transition !== undefined && supportsTransition) vars.transition = params.transition;
      let script = 'turn_on';
      if (kelvin !== undefined && scripts.has('set_temperature')) {
        script = 'set_temperature';
        vars.color_temp_kelvin = kelvin;
        vars.color_temp = miredsKelvin(kelvin);
      } else if (params.effect !== undefined && scripts.has('set_effect')) {
        script = 'set_effect';
        if (!(caps.effectList ?? []).includes(params.effect))
          rejected(
            'effect',
            `Received invalid effect: ${params.effect} for entity ${d.entityId}. Expected one of: ${(caps.effectList ?? []).join(', ')}`,
          );
        vars.effect = params.effect;
      } else if (hs !== undefined && scripts.has('set_hs')) {
        script = 'set_hs';
        Object.assign(vars, { hs: [...hs], h: Math.trunc(hs[0]), s: Math.trunc(hs[1]) });
      } else if (rgb !== undefined && scripts.has('set_rgb')) {
        script = 'set_rgb';
        Object.assign(vars, { rgb: [...rgb], r: Math.trunc(rgb[0]), g: Math.trunc(rgb[1]), b: Math.trunc(rgb[2]) });
      } else if (params.brightness !== undefined && scripts.has('set_level')) script = 'set_level';
      await scripts.get(script)?.(vars, ctx.core.newContext());
      if (changed) write();
    },
    turnOff: async (params) => {
      const vars: Record<string, JsonValue> =
        params.transition !== undefined && supportsTransition ? { transition: params.transition } : {};
      await scripts.get('turn_off')?.(vars, ctx.core.newContext());
      if (assumed) {
        m.on = false;
        write();
      }
    },
  };
  const handle = addLight(ctx.core, { ...baseOf(d), capabilities: caps, platform });
  const initialFixed = handle.entity.fixed;
  const dynamicCaps = ['effect_list', 'min_mireds', 'max_mireds', 'supports_transition'].some((k) => templates.has(k));
  let fixedKey = JSON.stringify(caps);

  /** What a render of the capabilities' templates (effect list, mireds range, transition) changes. */
  const readCapabilities = (values: ReadonlyMap<string, JsonValue> | undefined) => {
    let effectList = caps.effectList;
    if (templates.has('effect_list')) {
      const list = values?.get('effect_list');
      effectList = Array.isArray(list) && list.length > 0 ? list.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))) : undefined;
    }
    const kelvinOf = (key: string, fallback: number) => {
      const n = floatOf(values?.get(key));
      return n === undefined || Math.trunc(n) <= 0 ? fallback : miredsKelvin(Math.trunc(n));
    };
    const transition = templates.has('supports_transition') ? booleanOf(String(values?.get('supports_transition') ?? '')) === true : false;
    supportsTransition = transition;
    let features = scripts.has('set_effect') ? LightFeature.EFFECT : 0;
    if (transition) features |= LightFeature.TRANSITION;
    caps = {
      ...caps,
      effectList,
      maxColorTempKelvin: templates.has('min_mireds') ? kelvinOf('min_mireds', MAX_KELVIN) : MAX_KELVIN,
      minColorTempKelvin: templates.has('max_mireds') ? kelvinOf('max_mireds', MIN_KELVIN) : MIN_KELVIN,
      supportedFeatures: features,
    };
    const key = JSON.stringify(caps);
    if (key === fixedKey) return;
    fixedKey = key;
    // An effect list that renders none is left out, as the light had none.
    const { effect_list: _none, ...base } = initialFixed;
    handle.entity.setFixed({ ...base, ...lightFixedAttributes(caps, undefined) });
  };

  const readLevel = (value: JsonValue | undefined): number | null => {
    if (value === null || value === undefined) return null;
    const n = floatOf(value);
    if (n !== undefined && n >= 0 && n <= 255) return Math.trunc(n);
    rejected('level', `Received invalid level: ${String(value)} for entity ${d.entityId}: expected a number between 0 and 255`);
    return null;
  };
  const readTemperature = (value: JsonValue | undefined): number | null => {
    if (value === null || value === undefined) return null;
    const min = miredsKelvin(caps.maxColorTempKelvin ?? MAX_KELVIN);
    const max = miredsKelvin(caps.minColorTempKelvin ?? MIN_KELVIN);
    if (typeof value === 'number' && value >= min && value <= max) return miredsKelvin(value);
    rejected(
      'temperature',
      `Received invalid temperature: ${String(value)} for entity ${d.entityId}: expected a number between ${min} and ${max}`,
    );
    return null;
  };
  const readColor = (key: 'hs' | 'rgb', value: JsonValue | undefined): number[] | null => {
    if (value === null || value === undefined || value === 'None') return null;
    const list = numbersOf(value, key === 'hs' ? 2 : 3);
    const valid =
      list !== undefined &&
      (key === 'hs'
        ? (list[0] as number) >= 0 && (list[0] as number) <= 360 && (list[1] as number) >= 0 && (list[1] as number) <= 100
        : list.every((n) => n >= 0 && n <= 255));
    if (valid) return list;
    rejected(key, `Received invalid ${key}: ${JSON.stringify(value)} for entity ${d.entityId}`);
    return null;
  };

  return {
    entity: handle.entity,
    adapt: (result) => {
      custom = result.attributes;
      const values = result.values;
      if (dynamicCaps) readCapabilities(values);
      if (d.def.state !== undefined) m.on = booleanOf(result.state);
      if (templates.has('level')) m.brightness = readLevel(values?.get('level'));
      // _update_color: a colour rendered sets the colour mode (the last one rendered wins).
      if (templates.has('temperature')) {
        m.colorTempKelvin = readTemperature(values?.get('temperature'));
        if (m.colorTempKelvin !== null) m.colorMode = 'color_temp';
      }
      if (templates.has('hs')) {
        m.hs = readColor('hs', values?.get('hs')) as HS | null;
        if (m.hs !== null) m.colorMode = 'hs';
      }
      if (templates.has('rgb')) {
        m.rgb = readColor('rgb', values?.get('rgb')) as RGB | null;
        if (m.rgb !== null) m.colorMode = 'rgb';
      }
      if (templates.has('effect')) {
        const effect = values?.get('effect');
        m.effect = typeof effect === 'string' && (caps.effectList ?? []).includes(effect) ? effect : null;
      }
      return present();
    },
  };
}
