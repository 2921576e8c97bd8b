import type { Core } from '../core/core.js';
import type { EntityInit } from '../core/entities.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { addCapable, type CapableHandle } from './domain.js';

export type HvacMode = 'off' | 'heat' | 'cool' | 'heat_cool' | 'auto' | 'dry' | 'fan_only';
export const HVAC_MODES: readonly HvacMode[] = ['off', 'heat', 'cool', 'heat_cool', 'auto', 'dry', 'fan_only'];
export type HvacAction = 'off' | 'preheating' | 'heating' | 'cooling' | 'drying' | 'idle' | 'fan' | 'defrosting';

/** ClimateEntityFeature bits, as Home Assistant numbers them (AUX_HEAT, 64, was removed). */
export const ClimateFeature = {
  TARGET_TEMPERATURE: 1,
  TARGET_TEMPERATURE_RANGE: 2,
  TARGET_HUMIDITY: 4,
  FAN_MODE: 8,
  PRESET_MODE: 16,
  SWING_MODE: 32,
  TURN_OFF: 128,
  TURN_ON: 256,
} as const;

export const DEFAULT_MIN_TEMP = 7;
export const DEFAULT_MAX_TEMP = 35;
export const DEFAULT_MIN_HUMIDITY = 30;
export const DEFAULT_MAX_HUMIDITY = 99;

/** set_temperature after validation: a single target or a low/high range, optionally with a mode. */
export interface ClimateTemperatureParams {
  readonly temperature?: number;
  readonly targetTempLow?: number;
  readonly targetTempHigh?: number;
  readonly hvacMode?: HvacMode;
}

/**
 * What a thermostat driver implements. The optional methods belong to feature bits; without turnOn/turnOff
 * the domain picks a mode the way Home Assistant's ClimateEntity does.
 */
export interface ClimatePlatform {
  setHvacMode(mode: HvacMode): void | Promise<void>;
  setTemperature(params: ClimateTemperatureParams): void | Promise<void>;
  setHumidity?(humidity: number): void | Promise<void>;
  setFanMode?(mode: string): void | Promise<void>;
  setPresetMode?(mode: string): void | Promise<void>;
  setSwingMode?(mode: string): void | Promise<void>;
  turnOn?(): void | Promise<void>;
  turnOff?(): void | Promise<void>;
}

/** What a thermostat is; null fields render as null (or are left out where Home Assistant leaves them out). */
export interface ClimateModel {
  /** The state; null when not known. */
  readonly hvacMode: HvacMode | null;
  readonly hvacAction?: HvacAction | null;
  readonly currentTemperature?: number | null;
  readonly targetTemperature?: number | null;
  readonly targetTempLow?: number | null;
  readonly targetTempHigh?: number | null;
  readonly currentHumidity?: number | null;
  readonly targetHumidity?: number | null;
  readonly fanMode?: string | null;
  readonly presetMode?: string | null;
  readonly swingMode?: string | null;
}

export interface ClimateCapabilities {
  readonly hvacModes: readonly HvacMode[];
  readonly minTemp?: number;
  readonly maxTemp?: number;
  readonly targetTempStep?: number;
  /** How temperatures are displayed: 0.1 (Home Assistant's default for °C), 0.5 or 1. */
  readonly precision?: 0.1 | 0.5 | 1;
  /** The device has a target humidity (feature TARGET_HUMIDITY). */
  readonly humidity?: boolean;
  readonly minHumidity?: number;
  readonly maxHumidity?: number;
  readonly fanModes?: readonly string[];
  readonly presetModes?: readonly string[];
  readonly swingModes?: readonly string[];
  /** Defaults to what the rest of the capabilities imply. */
  readonly supportedFeatures?: number;
}

export interface ClimateOptions extends Omit<EntityInit<ClimatePlatform>, 'fixed'> {
  readonly capabilities: ClimateCapabilities;
  readonly icon?: string;
}

/** The feature bits a set of capabilities implies. */
export function climateFeatures(caps: ClimateCapabilities): number {
  if (caps.supportedFeatures !== undefined) return caps.supportedFeatures;
  const modes = caps.hvacModes;
  let f = 0;
  if (modes.some((m) => m === 'heat' || m === 'cool' || m === 'auto')) f |= ClimateFeature.TARGET_TEMPERATURE;
  if (modes.includes('heat_cool')) f |= ClimateFeature.TARGET_TEMPERATURE_RANGE;
  if (caps.humidity) f |= ClimateFeature.TARGET_HUMIDITY;
  if (caps.fanModes && caps.fanModes.length > 0) f |= ClimateFeature.FAN_MODE;
  if (caps.presetModes && caps.presetModes.length > 0) f |= ClimateFeature.PRESET_MODE;
  if (caps.swingModes && caps.swingModes.length > 0) f |= ClimateFeature.SWING_MODE;
  if (modes.includes('off')) f |= ClimateFeature.TURN_OFF;
  if (modes.some((m) => m !== 'off')) f |= ClimateFeature.TURN_ON;
  return f;
}

/** Home Assistant's display_temp: rounded to the entity's precision. */
function showTemp(value: number | null | undefined, precision: number): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  if (precision === 0.5) return Math.round(value * 2) / 2;
  if (precision === 1) return Math.round(value);
  return Math.round(value * 10) / 10;
}

export function climateFixedAttributes(caps: ClimateCapabilities, features: number, icon: string | undefined): JsonObject {
  const precision = caps.precision ?? 0.1;
  const out: Record<string, JsonValue> = {
    hvac_modes: [...caps.hvacModes],
    min_temp: showTemp(caps.minTemp ?? DEFAULT_MIN_TEMP, precision),
    max_temp: showTemp(caps.maxTemp ?? DEFAULT_MAX_TEMP, precision),
  };
  if (caps.targetTempStep) out.target_temp_step = caps.targetTempStep;
  if (features & ClimateFeature.TARGET_HUMIDITY) {
    out.min_humidity = caps.minHumidity ?? DEFAULT_MIN_HUMIDITY;
    out.max_humidity = caps.maxHumidity ?? DEFAULT_MAX_HUMIDITY;
  }
  if (features & ClimateFeature.FAN_MODE) out.fan_modes = caps.fanModes ? [...caps.fanModes] : null;
  if (features & ClimateFeature.PRESET_MODE) out.preset_modes = caps.presetModes ? [...caps.presetModes] : null;
  if (features & ClimateFeature.SWING_MODE) out.swing_modes = caps.swingModes ? [...caps.swingModes] : null;
  if (icon) out.icon = icon;
  out.supported_features = features;
  return out;
}

/** The state attributes of a thermostat, keyed and ordered as Home Assistant's ClimateEntity writes them. */
export function climateStateAttributes(caps: ClimateCapabilities, features: number, model: ClimateModel): JsonObject {
  const precision = caps.precision ?? 0.1;
  const out: Record<string, JsonValue> = { current_temperature: showTemp(model.currentTemperature, precision) };
  if (features & ClimateFeature.TARGET_TEMPERATURE) out.temperature = showTemp(model.targetTemperature, precision);
  if (features & ClimateFeature.TARGET_TEMPERATURE_RANGE) {
    out.target_temp_high = showTemp(model.targetTempHigh, precision);
    out.target_temp_low = showTemp(model.targetTempLow, precision);
  }
  if (model.currentHumidity !== null && model.currentHumidity !== undefined) out.current_humidity = model.currentHumidity;
  if (features & ClimateFeature.TARGET_HUMIDITY) out.humidity = model.targetHumidity ?? null;
  if (features & ClimateFeature.FAN_MODE) out.fan_mode = model.fanMode ?? null;
  if (model.hvacAction) out.hvac_action = model.hvacAction;
  if (features & ClimateFeature.PRESET_MODE) out.preset_mode = model.presetMode ?? null;
  if (features & ClimateFeature.SWING_MODE) out.swing_mode = model.swingMode ?? null;
  return out;
}

export type ClimateHandle = CapableHandle<ClimatePlatform, ClimateCapabilities, ClimateModel>;

export function addClimate(core: Core, options: ClimateOptions): ClimateHandle {
  const caps = options.capabilities;
  const features = climateFeatures(caps);
  return addCapable(core, options, climateFixedAttributes(caps, features, options.icon), (model: ClimateModel) => [
    model.hvacMode,
    climateStateAttributes(caps, features, model),
  ]);
}
