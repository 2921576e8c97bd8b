import type { Core } from '../core/core.js';
import type { Entity, EntityInit } from '../core/entities.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { type HS, hsFromRgb, miredsKelvin, type RGB, rgbFromHs, rgbFromKelvin, rgbFromXy, type XY, xyFromRgb } from '../util/color.js';

export type ColorMode = 'onoff' | 'brightness' | 'color_temp' | 'hs' | 'xy' | 'rgb' | 'white';
const COLOR_MODES_WITH_COLOR: ReadonlySet<ColorMode> = new Set(['hs', 'xy', 'rgb']);

export const LightFeature = { EFFECT: 4, FLASH: 8, TRANSITION: 32 } as const;

/** What a light platform is asked to do, already normalised to what the light supports. */
export interface LightTurnOnParams {
  readonly brightness?: number;
  readonly hs_color?: HS;
  readonly rgb_color?: RGB;
  readonly xy_color?: XY;
  readonly color_temp_kelvin?: number;
  readonly white?: number;
  readonly effect?: string;
  readonly transition?: number;
  readonly flash?: 'short' | 'long';
}
export interface LightTurnOffParams {
  readonly transition?: number;
  readonly flash?: 'short' | 'long';
}

export interface LightPlatform {
  turnOn(params: LightTurnOnParams): void | Promise<void>;
  turnOff(params: LightTurnOffParams): void | Promise<void>;
}

/** What a light is: drivers report this, the domain renders Home Assistant's state and attributes. */
export interface LightModel {
  readonly on: boolean;
  readonly brightness?: number;
  readonly colorMode?: ColorMode;
  readonly hs?: HS;
  readonly rgb?: RGB;
  readonly xy?: XY;
  readonly colorTempKelvin?: number;
  readonly effect?: string;
}

export interface LightCapabilities {
  readonly supportedColorModes: readonly ColorMode[];
  readonly minColorTempKelvin?: number;
  readonly maxColorTempKelvin?: number;
  readonly effectList?: readonly string[];
  readonly supportedFeatures?: number;
}

export interface LightOptions extends Omit<EntityInit<LightPlatform>, 'fixed'> {
  readonly capabilities: LightCapabilities;
  readonly icon?: string;
}

const DEFAULT_MIN_KELVIN = 2000;
const DEFAULT_MAX_KELVIN = 6500;

export function kelvinRange(caps: LightCapabilities): [number, number] {
  return [caps.minColorTempKelvin ?? DEFAULT_MIN_KELVIN, caps.maxColorTempKelvin ?? DEFAULT_MAX_KELVIN];
}

/** The attributes a light's capabilities fix (a template light's change as its templates render). */
export function lightFixedAttributes(caps: LightCapabilities, icon: string | undefined): JsonObject {
  const out: Record<string, JsonValue> = {};
  const modes = caps.supportedColorModes;
  if (caps.effectList) out.effect_list = [...caps.effectList];
  if (modes.includes('color_temp')) {
    const [min, max] = kelvinRange(caps);
    out.min_color_temp_kelvin = min;
    out.max_color_temp_kelvin = max;
    out.min_mireds = miredsKelvin(max);
    out.max_mireds = miredsKelvin(min);
  }
  out.supported_color_modes = [...modes];
  if (icon) out.icon = icon;
  out.supported_features = caps.supportedFeatures ?? 0;
  return out;
}

/** The state attributes of a light, with null values when it is off (as Home Assistant writes them). */
export function lightStateAttributes(caps: LightCapabilities, model: LightModel): JsonObject {
  const modes = caps.supportedColorModes;
  const hasBrightness = modes.some((m) => m !== 'onoff');
  const hasTemp = modes.includes('color_temp');
  const hasColor = modes.some((m) => COLOR_MODES_WITH_COLOR.has(m));
  const out: Record<string, JsonValue> = {};
  if (caps.effectList) out.effect = model.on ? (model.effect ?? null) : null;
  out.color_mode = model.on ? (model.colorMode ?? modes[0] ?? 'onoff') : null;
  if (hasBrightness) out.brightness = model.on ? (model.brightness ?? 255) : null;
  if (hasTemp) {
    const k = model.on && model.colorMode === 'color_temp' ? (model.colorTempKelvin ?? null) : null;
    out.color_temp_kelvin = k;
    out.color_temp = k === null ? null : miredsKelvin(k);
  }
  if (hasColor || hasTemp) {
    let rgb: RGB | undefined;
    if (model.on) {
      if (model.colorMode === 'color_temp' && model.colorTempKelvin) rgb = rgbFromKelvin(model.colorTempKelvin);
      else if (model.rgb) rgb = model.rgb;
      else if (model.hs) rgb = rgbFromHs(model.hs);
      else if (model.xy) rgb = rgbFromXy(model.xy);
    }
    if (hasColor || rgb) {
      out.hs_color = rgb ? (model.colorMode === 'hs' && model.hs ? [...model.hs] : hsFromRgb(rgb)) : null;
      out.rgb_color = rgb ? [...rgb] : null;
      out.xy_color = rgb ? (model.colorMode === 'xy' && model.xy ? [...model.xy] : xyFromRgb(rgb)) : null;
    }
  }
  return out;
}

export interface LightHandle {
  readonly entity: Entity<LightPlatform>;
  readonly capabilities: LightCapabilities;
  report(model: LightModel | null): void;
}

export function addLight(core: Core, options: LightOptions): LightHandle {
  const caps = options.capabilities;
  const entity = core.entities.add({ ...options, fixed: lightFixedAttributes(caps, options.icon) });
  // A light goes back and forth between off and the same colour: the last attributes of each are reused when
  // the model reads the same, so a toggle does no colour arithmetic. They are frozen: the entity then keeps
  // their merges with the fixed attributes too (Entity.mergedFor).
  let lastOn: { readonly model: LightModel; readonly attributes: JsonObject } | undefined;
  let off: JsonObject | undefined;
  return {
    entity,
    capabilities: caps,
    report(model) {
      if (model === null) {
        entity.report(null);
        return;
      }
      if (!model.on) {
        // Off, every state attribute is null whatever the model remembers.
        off ??= Object.freeze(lightStateAttributes(caps, model));
        entity.report('off', off);
        return;
      }
      if (lastOn === undefined || !sameLightModel(lastOn.model, model))
        lastOn = { model, attributes: Object.freeze(lightStateAttributes(caps, model)) };
      entity.report('on', lastOn.attributes);
    },
  };
}

/** Whether two models of a light that is on render the same state attributes. */
function sameLightModel(a: LightModel, b: LightModel): boolean {
  return (
    a.on === b.on &&
    a.brightness === b.brightness &&
    a.colorMode === b.colorMode &&
    a.colorTempKelvin === b.colorTempKelvin &&
    a.effect === b.effect &&
    sameNumbers(a.hs, b.hs) &&
    sameNumbers(a.rgb, b.rgb) &&
    sameNumbers(a.xy, b.xy)
  );
}

function sameNumbers(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A light's capabilities, read back from the fixed attributes it was registered with. */
export function capabilitiesOf(entity: Entity): LightCapabilities {
  const f = entity.fixed;
  const modes = Array.isArray(f.supported_color_modes) ? (f.supported_color_modes as ColorMode[]) : ['onoff' as const];
  return {
    supportedColorModes: modes,
    minColorTempKelvin: typeof f.min_color_temp_kelvin === 'number' ? f.min_color_temp_kelvin : undefined,
    maxColorTempKelvin: typeof f.max_color_temp_kelvin === 'number' ? f.max_color_temp_kelvin : undefined,
    effectList: Array.isArray(f.effect_list) ? (f.effect_list as string[]) : undefined,
    supportedFeatures: typeof f.supported_features === 'number' ? f.supported_features : 0,
  };
}
