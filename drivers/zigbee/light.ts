import type { Core } from '../../src/core/core.js';
import {
  addLight,
  type ColorMode,
  type LightCapabilities,
  LightFeature,
  type LightModel,
  type LightTurnOnParams,
} from '../../src/domains/light.js';
import { miredsKelvin } from '../../src/util/color.js';
import type { BuiltEntity, DeviceState, EntityIdentity } from './built-entity.js';
import type { EntitySpec } from './exposes.js';

type LightEntitySpec = Extract<EntitySpec, { kind: 'light' }>;
type Send = (message: Record<string, unknown>) => Promise<void>;

/** Zigbee levels are 0-254, Home Assistant's brightness 0-255 (zigbee2mqtt's brightness_scale: 254). */
const toHaBrightness = (level: number): number => Math.min(255, Math.max(0, Math.round((level * 255) / 254)));
const toZigbeeLevel = (brightness: number): number => Math.min(254, Math.max(1, Math.round((brightness * 254) / 255)));

export function lightCapabilities(spec: LightEntitySpec): LightCapabilities {
  const l = spec.light;
  const modes: ColorMode[] = [];
  if (l.color) modes.push(l.color.space);
  if (l.colorTemp) modes.push('color_temp');
  if (modes.length === 0) modes.push(l.brightness ? 'brightness' : 'onoff');
  let features = LightFeature.TRANSITION | LightFeature.FLASH;
  if (l.effects) features |= LightFeature.EFFECT;
  return {
    supportedColorModes: modes,
    // Fewer mireds is a cooler light: the mired range's ends swap in Kelvin.
    minColorTempKelvin: l.colorTemp ? miredsKelvin(l.colorTemp.maxMireds) : undefined,
    maxColorTempKelvin: l.colorTemp ? miredsKelvin(l.colorTemp.minMireds) : undefined,
    effectList: l.effects,
    supportedFeatures: features,
  };
}

/** The light's model from the device state the converters keep. */
export function lightModel(spec: LightEntitySpec, caps: LightCapabilities, state: DeviceState): LightModel | null {
  const l = spec.light;
  const s = state[l.state];
  if (s !== 'ON' && s !== 'OFF') return null;
  const level = l.brightness ? state[l.brightness] : undefined;
  const mireds = l.colorTemp ? state[l.colorTemp.property] : undefined;
  const color = l.color ? state[l.color.property] : undefined;
  const c = typeof color === 'object' && color !== null ? (color as Record<string, unknown>) : undefined;
  const xy = typeof c?.x === 'number' && typeof c.y === 'number' ? ([c.x, c.y] as const) : undefined;
  const hs = typeof c?.hue === 'number' && typeof c.saturation === 'number' ? ([c.hue, c.saturation] as const) : undefined;
  const reported = state[l.colorMode];
  let colorMode: ColorMode = caps.supportedColorModes[0] ?? 'onoff';
  if (reported === 'color_temp' && caps.supportedColorModes.includes('color_temp')) colorMode = 'color_temp';
  else if ((reported === 'xy' || reported === 'hs') && l.color) colorMode = l.color.space;
  else if (reported === undefined && typeof mireds === 'number' && caps.supportedColorModes.includes('color_temp'))
    colorMode = 'color_temp';
  return {
    on: s === 'ON',
    brightness: typeof level === 'number' ? toHaBrightness(level) : undefined,
    colorMode,
    colorTempKelvin: typeof mireds === 'number' && mireds > 0 ? miredsKelvin(mireds) : undefined,
    xy: xy ? [xy[0], xy[1]] : undefined,
    hs: hs ? [hs[0], hs[1]] : undefined,
    effect: undefined,
  };
}

/**
 * turn_on as zigbee2mqtt's Home Assistant light sends it: state and brightness first (so bulbs that ignore colour
 * while off get it after they are on); `state` left out when only the colour of a light that is on changes
 * (publish.ts updateMessageHomeAssistant), so one call is one command.
 */
export function turnOnMessage(spec: LightEntitySpec, params: LightTurnOnParams, isOn: boolean): Record<string, unknown> {
  const l = spec.light;
  const m: Record<string, unknown> = { [l.state]: 'ON' };
  if (params.brightness !== undefined && l.brightness) m[l.brightness] = toZigbeeLevel(params.brightness);
  if (params.color_temp_kelvin !== undefined && l.colorTemp) m[l.colorTemp.property] = miredsKelvin(params.color_temp_kelvin);
  if (l.color) {
    if (params.xy_color) m[l.color.property] = { x: params.xy_color[0], y: params.xy_color[1] };
    else if (params.hs_color) m[l.color.property] = { hue: params.hs_color[0], saturation: params.hs_color[1] };
  }
  if (params.transition !== undefined) m.transition = params.transition;
  if (params.effect !== undefined) m.effect = params.effect;
  if (params.flash !== undefined) m.flash = params.flash === 'long' ? 10 : 2;
  const colourOnly = (l.colorTemp && l.colorTemp.property in m) || (l.color && l.color.property in m);
  if (isOn && colourOnly && !(l.brightness && l.brightness in m)) delete m[l.state];
  return m;
}

export function addZigbeeLight(
  core: Core,
  init: EntityIdentity & { readonly entityCategory?: 'config' | 'diagnostic'; readonly restore?: boolean },
  spec: LightEntitySpec,
  send: Send,
): BuiltEntity {
  const caps = lightCapabilities(spec);
  const h = addLight(core, {
    ...init,
    capabilities: caps,
    platform: {
      turnOn: (params) => send(turnOnMessage(spec, params, h.entity.state === 'on')),
      turnOff: (params) =>
        send(
          params.transition === undefined ? { [spec.light.state]: 'OFF' } : { [spec.light.state]: 'OFF', transition: params.transition },
        ),
    },
  });
  return { spec, entity: h.entity, render: (state) => h.report(lightModel(spec, caps, state)) };
}
