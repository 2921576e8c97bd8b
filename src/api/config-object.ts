import type { HubConfig } from '../config/types.js';
import type { RunState } from '../core/core.js';
import type { JsonObject } from '../core/json.js';
import { HUB_VERSION } from '../version.js';

const UNIT_SYSTEMS = {
  metric: {
    length: 'km',
    accumulated_precipitation: 'mm',
    area: 'm²',
    mass: 'g',
    pressure: 'Pa',
    temperature: '°C',
    volume: 'L',
    wind_speed: 'm/s',
  },
  us_customary: {
    length: 'mi',
    accumulated_precipitation: 'in',
    area: 'ft²',
    mass: 'lb',
    pressure: 'psi',
    temperature: '°F',
    volume: 'gal',
    wind_speed: 'mph',
  },
} as const;

/** The configuration object of `GET /api/config` and WS `get_config` (Home Assistant's Config.as_dict keys). */
export function configObject(config: HubConfig, state: RunState, components: string[]): JsonObject {
  const hub = config.hub;
  const core = config.core;
  return {
    allowlist_external_dirs: [...(core?.allowlist_external_dirs ?? [])],
    allowlist_external_urls: [...(core?.allowlist_external_urls ?? [])],
    components,
    config_dir: config.path === null ? '' : config.path.replace(/\/[^/]*$/, ''),
    config_source: 'yaml',
    country: hub.country,
    currency: hub.currency,
    debug: core?.debug ?? false,
    elevation: hub.elevation,
    external_url: hub.external_url,
    internal_url: hub.internal_url,
    language: hub.language,
    latitude: hub.latitude,
    location_name: hub.name,
    longitude: hub.longitude,
    radius: core?.radius ?? 100,
    recovery_mode: false,
    safe_mode: false,
    state,
    time_zone: hub.time_zone,
    unit_system: { ...UNIT_SYSTEMS[hub.unit_system] },
    version: HUB_VERSION,
    whitelist_external_dirs: [...(core?.allowlist_external_dirs ?? [])],
  };
}
