import type { Expose, Feature } from 'zigbee-herdsman-converters';
import { HVAC_MODES, type HvacMode } from '../../src/domains/climate.js';

/** The composite exposes (light, climate, fan) as what their hearth entity needs: which property holds what. */

export interface LightSpec {
  readonly state: string;
  readonly brightness?: string;
  readonly colorTemp?: { readonly property: string; readonly minMireds: number; readonly maxMireds: number };
  /** The composite `color` property and which colour space the light prefers. */
  readonly color?: { readonly property: string; readonly space: 'xy' | 'hs' };
  readonly effects?: readonly string[];
  /** Where the converters say which colour mode the light is in (`color_mode`, or `color_mode_<endpoint>`). */
  readonly colorMode: string;
}

export interface ClimateSpec {
  readonly localTemperature?: string;
  readonly setpoint?: { readonly property: string; readonly min?: number; readonly max?: number; readonly step?: number };
  readonly systemMode?: { readonly property: string; readonly modes: readonly HvacMode[] };
  readonly runningState?: string;
  readonly preset?: { readonly property: string; readonly values: readonly string[] };
  readonly fanMode?: { readonly property: string; readonly values: readonly string[] };
}

export interface FanSpec {
  readonly state: string;
  /** hvacFanCtrl-style modes: speeds (after `off`) and presets. */
  readonly mode?: { readonly property: string; readonly speeds: readonly string[]; readonly presets: readonly string[] };
  readonly speed?: { readonly property: string; readonly min: number; readonly max: number };
}

export function featureNamed(features: readonly Feature[] | undefined, ...names: string[]): Feature | undefined {
  return features?.find((f) => names.includes(f.name));
}

export function propOf(f: Feature): string {
  return f.property ?? f.name;
}

export function lightSpec(expose: Expose, all: readonly Expose[]): LightSpec | undefined {
  const features = expose.features;
  const state = featureNamed(features, 'state');
  if (state === undefined) return undefined;
  const brightness = featureNamed(features, 'brightness');
  const ct = featureNamed(features, 'color_temp');
  const xyIndex = features?.findIndex((f) => f.name === 'color_xy') ?? -1;
  const hsIndex = features?.findIndex((f) => f.name === 'color_hs') ?? -1;
  // zigbee2mqtt prefers xy unless hs comes first in the features.
  const colorFeature =
    xyIndex !== -1 && (hsIndex === -1 || xyIndex < hsIndex) ? features?.[xyIndex] : hsIndex !== -1 ? features?.[hsIndex] : undefined;
  const effects = all
    .filter((e) => e.type === 'enum' && e.name === 'effect')
    .flatMap((e) => (e.type === 'enum' ? e.values.map(String) : []));
  const colorMode = expose.endpoint ? `color_mode_${expose.endpoint}` : 'color_mode';
  const spec: { -readonly [K in keyof LightSpec]: LightSpec[K] } = { state: propOf(state), colorMode };
  if (brightness) spec.brightness = propOf(brightness);
  if (ct?.type === 'numeric') spec.colorTemp = { property: propOf(ct), minMireds: ct.value_min ?? 153, maxMireds: ct.value_max ?? 500 };
  if (colorFeature) spec.color = { property: propOf(colorFeature), space: colorFeature.name === 'color_xy' ? 'xy' : 'hs' };
  if (effects.length > 0) spec.effects = [...new Set(effects)];
  return spec;
}

export function climateSpec(expose: Expose): ClimateSpec {
  const f = expose.features;
  const out: { -readonly [K in keyof ClimateSpec]: ClimateSpec[K] } = {};
  const local = featureNamed(f, 'local_temperature');
  if (local) out.localTemperature = propOf(local);
  const sp = featureNamed(f, 'occupied_heating_setpoint', 'current_heating_setpoint') ?? featureNamed(f, 'occupied_cooling_setpoint');
  if (sp?.type === 'numeric') out.setpoint = { property: propOf(sp), min: sp.value_min, max: sp.value_max, step: sp.value_step };
  const mode = featureNamed(f, 'system_mode');
  if (mode?.type === 'enum') {
    // 'sleep' and other ZCL modes Home Assistant has no word for are left out, as zigbee2mqtt does.
    const modes = mode.values.map(String).filter((m): m is HvacMode => (HVAC_MODES as readonly string[]).includes(m));
    out.systemMode = { property: propOf(mode), modes };
  }
  const running = featureNamed(f, 'running_state');
  if (running) out.runningState = propOf(running);
  const preset = featureNamed(f, 'preset');
  if (preset?.type === 'enum') out.preset = { property: propOf(preset), values: preset.values.map(String) };
  const fan = featureNamed(f, 'fan_mode');
  if (fan?.type === 'enum') out.fanMode = { property: propOf(fan), values: fan.values.map(String) };
  return out;
}

/** zigbee2mqtt's speeds (after `off`) and presets of a mode-controlled fan, in its order. */
const FAN_SPEEDS = ['low', 'medium', 'high', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
const FAN_PRESETS = ['on', 'auto', 'smart'];

export function fanSpec(expose: Expose, model?: string): FanSpec | undefined {
  const state = featureNamed(expose.features, 'state');
  const mode = featureNamed(expose.features, 'mode');
  const speed = featureNamed(expose.features, 'speed');
  if (mode?.type === 'enum') {
    const values = mode.values.map(String);
    // zigbee2mqtt emulates the state of a mode fan from `fan_state` (the converters publish it), with or without a state feature.
    const spec = {
      state: 'fan_state',
      mode: {
        property: propOf(mode),
        speeds: FAN_SPEEDS.filter((s) => values.includes(s)),
        presets: FAN_PRESETS.filter((p) => values.includes(p)),
      },
    };
    // The Hampton Bay 99432 has four speeds (ZCL `on` is its fastest) and one preset, `smart` (Comfort Breeze).
    if (model === '99432') return { ...spec, mode: { ...spec.mode, speeds: ['low', 'medium', 'high', 'on'], presets: ['smart'] } };
    return spec;
  }
  if (speed?.type === 'numeric')
    return { state: 'state', speed: { property: propOf(speed), min: speed.value_min ?? 1, max: speed.value_max ?? 100 } };
  return state === undefined ? undefined : { state: propOf(state) };
}
