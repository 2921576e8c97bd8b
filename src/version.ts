/** hearth's own version, year.month.patch; reported as `hub_version`. */
export const HUB_VERSION = '2026.11.0';
/**
 * The Home Assistant version whose API hearth speaks, reported as `ha_version`. Clients gate features on
 * it: the official JS client needs >= 2022.9 for coalescing and >= 2022.4 for subscribe_entities.
 */
export const HA_VERSION = '2025.1.0';
