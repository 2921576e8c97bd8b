import type { JsonObject } from '../core/json.js';
import type { HvacMode } from '../domains/climate.js';
import type { ThermostatConfig } from './config.js';

export const PRESET_NONE = 'none';

export interface StartSettings {
  readonly target: number;
  readonly preset: string;
  readonly mode: HvacMode;
  /** Home Assistant's warning when the target came from neither the configuration nor the stored state. */
  readonly warning?: string;
}

/**
 * Home Assistant's async_added_to_hass: configured `target_temp` and `initial_hvac_mode` win; otherwise the stored
 * target and mode come back, else min_temp (max_temp with ac_mode) and off. A stored preset comes back if it exists.
 */
export function startSettings(
  config: ThermostatConfig,
  stored: { readonly state: string; readonly attributes?: JsonObject } | undefined,
  limits: { readonly min: number; readonly max: number; readonly modes: readonly HvacMode[] },
): StartSettings {
  const fallback = config.acMode ? limits.max : limits.min;
  const presets = new Set([PRESET_NONE, ...config.presets.map(([name]) => name)]);
  if (stored === undefined) {
    return {
      target: config.targetTemp ?? fallback,
      preset: PRESET_NONE,
      mode: config.initialHvacMode ?? 'off',
      warning: config.targetTemp === undefined ? `No previously saved temperature, setting to ${fallback}` : undefined,
    };
  }
  const t = stored.attributes?.temperature;
  const storedTarget = typeof t === 'number' ? t : undefined;
  const p = stored.attributes?.preset_mode;
  const storedMode = limits.modes.find((m) => m === stored.state);
  return {
    target: config.targetTemp ?? storedTarget ?? fallback,
    preset: typeof p === 'string' && presets.has(p) ? p : PRESET_NONE,
    mode: config.initialHvacMode ?? storedMode ?? 'off',
    warning:
      config.targetTemp === undefined && storedTarget === undefined
        ? `Undefined target temperature, falling back to ${fallback}`
        : undefined,
  };
}
