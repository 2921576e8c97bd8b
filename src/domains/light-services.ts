import type { Core } from '../core/core.js';
import type { Entity } from '../core/entities.js';
import type { FieldSpec, ValidData } from '../core/fields.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import {
  COLOR_NAMES,
  type HS,
  hsFromRgb,
  miredsKelvin,
  type RGB,
  rgbFromHs,
  rgbFromKelvin,
  rgbFromName,
  rgbFromXy,
  type XY,
  xyFromRgb,
} from '../util/color.js';
import { type Domain, platformOf, registerEntityServices } from './domain.js';
import {
  capabilitiesOf,
  kelvinRange,
  type LightCapabilities,
  LightFeature,
  type LightPlatform,
  type LightTurnOffParams,
  type LightTurnOnParams,
} from './light.js';

/** light's service table and its Domain: turn_on/turn_off data normalised to what the light supports (the model and rendering are in light.ts). */

const TURN_ON_FIELDS: Record<string, FieldSpec> = {
  transition: {
    kind: 'number',
    min: 0,
    max: 6553,
    clamp: true,
    unit: 'seconds',
    description: 'Duration it takes to get to the next state.',
  },
  brightness: {
    kind: 'number',
    integer: true,
    min: 0,
    max: 255,
    clamp: true,
    description: 'Brightness from 0 to 255; 0 turns the light off.',
  },
  brightness_pct: { kind: 'number', min: 0, max: 100, unit: '%', description: 'Brightness as a percentage; 0 turns the light off.' },
  brightness_step: { kind: 'number', integer: true, min: -255, max: 255, clamp: true, description: 'Change brightness by this amount.' },
  brightness_step_pct: {
    kind: 'number',
    min: -100,
    max: 100,
    clamp: true,
    unit: '%',
    description: 'Change brightness by this percentage.',
  },
  color_name: { kind: 'select', options: COLOR_NAMES, description: 'A CSS colour name (case and spaces ignored).' },
  rgb_color: {
    kind: 'tuple',
    selector: 'color_rgb',
    items: [0, 1, 2].map(() => ({ min: 0, max: 255, integer: true })),
    description: 'Colour as [red, green, blue], each 0-255.',
  },
  hs_color: {
    kind: 'tuple',
    items: [
      { min: 0, max: 360 },
      { min: 0, max: 100 },
    ],
    description: 'Colour as [hue 0-360, saturation 0-100].',
  },
  xy_color: {
    kind: 'tuple',
    items: [
      { min: 0, max: 1 },
      { min: 0, max: 1 },
    ],
    description: 'Colour as CIE [x, y], each 0-1.',
  },
  color_temp_kelvin: { kind: 'number', integer: true, min: 0, unit: 'K', description: 'Colour temperature in Kelvin.' },
  color_temp: {
    kind: 'number',
    integer: true,
    min: 1,
    unit: 'mireds',
    advanced: true,
    description: 'Colour temperature in mireds (legacy).',
  },
  kelvin: { kind: 'number', integer: true, min: 0, unit: 'K', advanced: true, description: 'Colour temperature in Kelvin (legacy).' },
  white: { kind: 'number', integer: true, min: 0, max: 255, description: 'Set the light to white mode at this brightness.' },
  effect: { kind: 'text', description: 'Light effect.' },
  flash: { kind: 'select', options: ['short', 'long'], description: 'Tell the light to flash.' },
};
const BRIGHTNESS_GROUP = ['brightness', 'brightness_pct', 'brightness_step', 'brightness_step_pct'];
const COLOR_GROUP = ['color_name', 'rgb_color', 'hs_color', 'xy_color', 'color_temp_kelvin', 'color_temp', 'kelvin', 'white'];
const TURN_ON_SCHEMA = { fields: TURN_ON_FIELDS, exclusive: [BRIGHTNESS_GROUP, COLOR_GROUP] };
const TURN_OFF_SCHEMA = {
  fields: {
    transition: TURN_ON_FIELDS.transition as FieldSpec,
    flash: TURN_ON_FIELDS.flash as FieldSpec,
  },
};

type MutableParams = { -readonly [K in keyof LightTurnOnParams]: LightTurnOnParams[K] };

/**
 * Normalises turn_on data to what this light supports, as Home Assistant's light component does:
 * brightness_pct and steps to brightness, colour names to rgb, mireds to Kelvin, and any colour to the
 * light's own colour space. Returns null when the call amounts to turning the light off.
 */
export function normaliseTurnOn(
  caps: LightCapabilities,
  data: ValidData,
  current: JsonObject | undefined,
  warn: (template: string, ...values: unknown[]) => void,
): LightTurnOnParams | null {
  const modes = caps.supportedColorModes;
  const out: MutableParams = {};
  const currentBrightness = typeof current?.brightness === 'number' ? current.brightness : 0;

  let brightness: number | undefined;
  if (typeof data.brightness === 'number') brightness = data.brightness;
  else if (typeof data.brightness_pct === 'number') brightness = Math.round((255 * data.brightness_pct) / 100);
  else if (typeof data.brightness_step === 'number') brightness = clampByte(currentBrightness + data.brightness_step);
  else if (typeof data.brightness_step_pct === 'number')
    brightness = clampByte(currentBrightness + Math.round((255 * data.brightness_step_pct) / 100));
  if (brightness === 0 || data.white === 0) return null;

  let rgb: RGB | undefined;
  let hs: HS | undefined;
  let xy: XY | undefined;
  let kelvin: number | undefined;
  if (typeof data.color_name === 'string') {
    rgb = rgbFromName(data.color_name);
    if (rgb === undefined) {
      warn('Got unknown color %s, falling back to white', data.color_name);
      rgb = [255, 255, 255];
    }
  } else if (Array.isArray(data.rgb_color)) rgb = data.rgb_color as unknown as RGB;
  else if (Array.isArray(data.hs_color)) hs = data.hs_color as unknown as HS;
  else if (Array.isArray(data.xy_color)) xy = data.xy_color as unknown as XY;
  else if (typeof data.color_temp_kelvin === 'number') kelvin = data.color_temp_kelvin;
  else if (typeof data.kelvin === 'number') kelvin = data.kelvin;
  else if (typeof data.color_temp === 'number') kelvin = miredsKelvin(data.color_temp);

  if (kelvin !== undefined) {
    if (modes.includes('color_temp')) {
      const [min, max] = kelvinRange(caps);
      out.color_temp_kelvin = Math.min(Math.max(kelvin, min), max);
    } else rgb = rgbFromKelvin(kelvin);
  }
  if (rgb !== undefined || hs !== undefined || xy !== undefined) {
    if (hs !== undefined && modes.includes('hs')) out.hs_color = hs;
    else if (xy !== undefined && modes.includes('xy')) out.xy_color = xy;
    else {
      const asRgb = rgb ?? (hs ? rgbFromHs(hs) : rgbFromXy(xy as XY));
      if (modes.includes('rgb')) out.rgb_color = asRgb;
      else if (modes.includes('hs')) out.hs_color = hsFromRgb(asRgb);
      else if (modes.includes('xy')) out.xy_color = xyFromRgb(asRgb);
    }
  }
  if (typeof data.white === 'number' && modes.includes('white')) out.white = data.white;
  const features = caps.supportedFeatures ?? 0;
  if (brightness !== undefined && modes.some((m) => m !== 'onoff')) out.brightness = brightness;
  if (typeof data.transition === 'number' && features & LightFeature.TRANSITION) out.transition = data.transition;
  if (typeof data.effect === 'string' && caps.effectList?.includes(data.effect)) out.effect = data.effect;
  if ((data.flash === 'short' || data.flash === 'long') && features & LightFeature.FLASH) out.flash = data.flash;
  return out;
}

function clampByte(n: number): number {
  return Math.min(Math.max(Math.round(n), 0), 255);
}

function turnOffParams(caps: LightCapabilities, data: ValidData): LightTurnOffParams {
  const features = caps.supportedFeatures ?? 0;
  const out: { transition?: number; flash?: 'short' | 'long' } = {};
  if (typeof data.transition === 'number' && features & LightFeature.TRANSITION) out.transition = data.transition;
  if ((data.flash === 'short' || data.flash === 'long') && features & LightFeature.FLASH) out.flash = data.flash;
  return out;
}

export const lightDomain: Domain = {
  name: 'light',
  restored: true,
  published: true,
  adopted: true,
  registerServices(core: Core): void {
    const log = core.log.child({ domain: 'light' });
    const turnOn = (e: Entity, data: ValidData) => {
      const caps = capabilitiesOf(e);
      const params = normaliseTurnOn(caps, data, e.attributes, (template, ...values) => log.warn({ entity_id: e.id }, template, ...values));
      const platform = platformOf<LightPlatform>(e, 'light');
      return params === null ? platform.turnOff(turnOffParams(caps, data)) : platform.turnOn(params);
    };
    registerEntityServices(core, 'light', [
      {
        service: 'turn_on',
        name: 'Turn on',
        description: 'Turns on one or more lights and adjusts their properties, even when they are turned on already.',
        schema: TURN_ON_SCHEMA,
        run: turnOn,
      },
      {
        service: 'turn_off',
        name: 'Turn off',
        description: 'Turns off one or more lights.',
        schema: TURN_OFF_SCHEMA,
        run: (e, data) => platformOf<LightPlatform>(e, 'light').turnOff(turnOffParams(capabilitiesOf(e), data)),
      },
      {
        service: 'toggle',
        name: 'Toggle',
        description: 'Toggles one or more lights, from on to off, or off to on, based on their current state.',
        schema: TURN_ON_SCHEMA,
        run: (e, data) =>
          e.state === 'on' ? platformOf<LightPlatform>(e, 'light').turnOff(turnOffParams(capabilitiesOf(e), data)) : turnOn(e, data),
      },
    ]);
  },
  async reproduceState(core, entityId, desired, context) {
    if (desired.state === 'off') {
      await core.services.call('light', 'turn_off', { entity_id: entityId }, { context });
      return;
    }
    if (desired.state !== 'on') return;
    const data: Record<string, JsonValue> = { entity_id: entityId };
    const a = desired.attributes;
    if (typeof a.brightness === 'number') data.brightness = a.brightness;
    if (a.color_mode === 'color_temp' && typeof a.color_temp_kelvin === 'number') data.color_temp_kelvin = a.color_temp_kelvin;
    else if (Array.isArray(a.hs_color)) data.hs_color = a.hs_color;
    else if (Array.isArray(a.rgb_color)) data.rgb_color = a.rgb_color;
    else if (Array.isArray(a.xy_color)) data.xy_color = a.xy_color;
    else if (typeof a.color_temp_kelvin === 'number') data.color_temp_kelvin = a.color_temp_kelvin;
    if (typeof a.effect === 'string') data.effect = a.effect;
    await core.services.call('light', 'turn_on', data, { context });
  },
};
