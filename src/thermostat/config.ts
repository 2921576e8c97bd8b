import { listItems, readDuration, readEntityIds } from '../automation/config-values.js';
import { type ConfigIssue, type ConfigPath, ConfigReader, kindOf } from '../config/reader.js';
import type { JsonValue } from '../core/json.js';

/** Home Assistant's CONF_PRESETS: preset name to its configuration key, in Home Assistant's order. */
export const PRESET_KEYS = [
  ['away', 'away_temp'],
  ['comfort', 'comfort_temp'],
  ['eco', 'eco_temp'],
  ['home', 'home_temp'],
  ['sleep', 'sleep_temp'],
  ['activity', 'activity_temp'],
] as const;

const STEPS = [0.1, 0.5, 1] as const;
type Step = (typeof STEPS)[number];

/** Home Assistant's DEFAULT_TOLERANCE (generic_thermostat/const.py). */
export const DEFAULT_TOLERANCE = 0.3;
export const DEFAULT_NAME = 'Generic Thermostat';

/** One `platform: generic_thermostat` item of the `climate:` section, read as Home Assistant's PLATFORM_SCHEMA does. */
export interface ThermostatConfig {
  readonly name: string;
  readonly heater: string;
  readonly sensor: string;
  readonly acMode: boolean;
  readonly minTemp?: number;
  readonly maxTemp?: number;
  readonly targetTemp?: number;
  readonly coldTolerance: number;
  readonly hotTolerance: number;
  readonly minCycleMs: number;
  /** max_cycle_duration: the longest run of the switch. */
  readonly maxCycleMs?: number;
  /** cycle_cooldown: the shortest time off between two runs. */
  readonly cooldownMs: number;
  readonly keepAliveMs?: number;
  readonly initialHvacMode?: 'heat' | 'cool' | 'off';
  /** Preset name to its temperature, in Home Assistant's order. */
  readonly presets: readonly (readonly [string, number])[];
  readonly precision?: Step;
  readonly targetTempStep?: Step;
  /** hearth's safety net (from generic_hygrostat): no sensor update for this long turns the heater off. */
  readonly staleMs?: number;
  readonly uniqueId?: string;
}

/** The other climate platforms Home Assistant users write here; devices come from hearth's drivers instead. */
const PLATFORMS = ['generic_thermostat'];

/** cv.positive_time_period: a duration, refused when it is zero. */
function positiveDuration(r: ConfigReader, key: string): number | undefined {
  const ms = readDuration(r, key);
  if (ms === 0) r.problem(key, 'must be longer than 0 seconds');
  return ms === 0 ? undefined : ms;
}

function step(r: ConfigReader, key: string): Step | undefined {
  const n = r.number(key);
  if (n === undefined) return undefined;
  const s = STEPS.find((x) => x === n);
  if (s === undefined) r.problem(key, `${n} is not allowed: expected one of 0.1, 0.5, 1`);
  return s;
}

function readThermostat(value: JsonValue, path: ConfigPath, issues: ConfigIssue[]): ThermostatConfig | undefined {
  const r = ConfigReader.of(value, path, issues);
  const platform = r.string('platform', { required: true });
  if (!PLATFORMS.includes(platform)) {
    if (platform !== '') {
      r.problem(
        'platform',
        `${JSON.stringify(platform)} is not supported: hearth's climate section has generic_thermostat (devices come from drivers)`,
      );
    }
    return undefined;
  }
  const heater = readEntityIds(r, 'heater', { required: true });
  const sensor = readEntityIds(r, 'target_sensor', { required: true });
  if (heater.length > 1) r.problem('heater', 'expected one entity id');
  if (sensor.length > 1) r.problem('target_sensor', 'expected one entity id');
  const presets: [string, number][] = [];
  for (const [preset, key] of PRESET_KEYS) {
    const t = r.number(key);
    if (t !== undefined) presets.push([preset, t]);
  }
  const config: ThermostatConfig = {
    name: r.string('name', { default: DEFAULT_NAME }) ?? DEFAULT_NAME,
    heater: heater[0] ?? '',
    sensor: sensor[0] ?? '',
    acMode: r.boolean('ac_mode', false),
    minTemp: r.number('min_temp'),
    maxTemp: r.number('max_temp'),
    targetTemp: r.number('target_temp'),
    coldTolerance: r.number('cold_tolerance', { default: DEFAULT_TOLERANCE }),
    hotTolerance: r.number('hot_tolerance', { default: DEFAULT_TOLERANCE }),
    minCycleMs: positiveDuration(r, 'min_cycle_duration') ?? 0,
    maxCycleMs: positiveDuration(r, 'max_cycle_duration'),
    cooldownMs: positiveDuration(r, 'cycle_cooldown') ?? 0,
    keepAliveMs: positiveDuration(r, 'keep_alive'),
    initialHvacMode: r.oneOf('initial_hvac_mode', ['cool', 'heat', 'off'] as const),
    presets,
    precision: step(r, 'precision'),
    targetTempStep: step(r, 'target_temp_step'),
    staleMs: positiveDuration(r, 'sensor_stale_duration'),
    uniqueId: r.string('unique_id'),
  };
  if (config.minTemp !== undefined && config.maxTemp !== undefined && config.minTemp > config.maxTemp) {
    r.problem('min_temp', `${config.minTemp} is above max_temp ${config.maxTemp}`);
  }
  r.rejectUnknown();
  return config;
}

/** Reads the `climate:` section (a list of platform items, or one); check-config and the component share it. */
export function readClimateSection(section: JsonValue | undefined, path: ConfigPath, issues: ConfigIssue[]): ThermostatConfig[] {
  if (section === undefined || section === null) return [];
  if (!Array.isArray(section) && typeof section !== 'object') {
    issues.push({ path, message: `expected a list of climate platforms (- platform: generic_thermostat), got ${kindOf(section)}` });
    return [];
  }
  const out: ThermostatConfig[] = [];
  const uniqueIds = new Map<string, ConfigPath>();
  for (const item of listItems(section, path)) {
    const before = issues.length;
    const config = readThermostat(item.value, item.path, issues);
    if (config === undefined || issues.length > before) continue;
    if (config.uniqueId !== undefined) {
      const first = uniqueIds.get(config.uniqueId);
      if (first !== undefined) {
        issues.push({
          path: [...item.path, 'unique_id'],
          message: `${JSON.stringify(config.uniqueId)} is already used by another thermostat`,
        });
        continue;
      }
      uniqueIds.set(config.uniqueId, item.path);
    }
    out.push(config);
  }
  return out;
}
