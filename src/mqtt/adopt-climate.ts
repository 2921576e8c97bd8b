import type { JsonValue } from '../core/json.js';
import {
  type ClimateCapabilities,
  ClimateFeature,
  type ClimateModel,
  type ClimateTemperatureParams,
  climateFixedAttributes,
  climateStateAttributes,
  DEFAULT_MAX_HUMIDITY,
  DEFAULT_MAX_TEMP,
  DEFAULT_MIN_HUMIDITY,
  DEFAULT_MIN_TEMP,
  HVAC_MODES,
  type HvacAction,
  type HvacMode,
} from '../domains/climate.js';
import { pyFloat } from '../domains/helper-format.js';
import type { AdoptContext, AdoptedParts } from './adopt-types.js';
import { coerceNumber, optStr, send, stateTopics, strList } from './adopt-values.js';

const HVAC_ACTIONS: readonly HvacAction[] = ['off', 'preheating', 'heating', 'cooling', 'drying', 'idle', 'fan', 'defrosting'];
const PRECISIONS = [0.1, 0.5, 1] as const;

/** Python's float() of a payload: a number, or undefined for anything else ("None", "", "abc"). */
const pyFloatOf = (s: string): number | undefined => (s.trim() === '' || !Number.isFinite(Number(s)) ? undefined : Number(s));

/** Whether a value has its own state topic (else it is optimistic: a command shows at once, as climate.py does). */
const hasState = (ctx: AdoptContext, key: string): boolean => ctx.config.optimistic !== true && optStr(ctx.config[key]) !== undefined;
const hasTopic = (ctx: AdoptContext, ...keys: string[]): boolean => keys.some((k) => optStr(ctx.config[k]) !== undefined);

/**
 * Home Assistant's MQTT climate (climate.py): mode, action, target temperature or low/high range, current and target
 * humidity, fan, preset and swing modes, power; min/max/step as numbers or numeric text (zigbee2mqtt sends "5").
 */
export function climateParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const modes = (strList(c.modes) ?? ['auto', 'off', 'cool', 'heat', 'dry', 'fan_only']).filter((m): m is HvacMode =>
    HVAC_MODES.includes(m as HvacMode),
  );
  const precision = PRECISIONS.find((p) => p === coerceNumber(c.precision));
  const caps: ClimateCapabilities = {
    hvacModes: modes,
    minTemp: coerceNumber(c.min_temp) ?? DEFAULT_MIN_TEMP,
    maxTemp: coerceNumber(c.max_temp) ?? DEFAULT_MAX_TEMP,
    targetTempStep: coerceNumber(c.temp_step),
    ...(precision === undefined ? {} : { precision }),
    humidity: hasTopic(ctx, 'target_humidity_command_topic'),
    minHumidity: coerceNumber(c.min_humidity) ?? DEFAULT_MIN_HUMIDITY,
    maxHumidity: coerceNumber(c.max_humidity) ?? DEFAULT_MAX_HUMIDITY,
    fanModes: hasTopic(ctx, 'fan_mode_state_topic', 'fan_mode_command_topic')
      ? (strList(c.fan_modes) ?? ['auto', 'low', 'medium', 'high'])
      : undefined,
    swingModes: hasTopic(ctx, 'swing_mode_state_topic', 'swing_mode_command_topic') ? (strList(c.swing_modes) ?? ['on', 'off']) : undefined,
    // climate.py lists `none` first (no preset), and refuses a config that lists it itself.
    presetModes:
      optStr(c.preset_mode_command_topic) && strList(c.preset_modes)?.length ? ['none', ...(strList(c.preset_modes) ?? [])] : undefined,
  };
  let features = 0;
  if (hasTopic(ctx, 'temperature_state_topic', 'temperature_command_topic')) features |= ClimateFeature.TARGET_TEMPERATURE;
  if (
    hasTopic(
      ctx,
      'temperature_low_state_topic',
      'temperature_low_command_topic',
      'temperature_high_state_topic',
      'temperature_high_command_topic',
    )
  )
    features |= ClimateFeature.TARGET_TEMPERATURE_RANGE;
  if (caps.humidity) features |= ClimateFeature.TARGET_HUMIDITY;
  if (caps.fanModes?.length) features |= ClimateFeature.FAN_MODE;
  if (caps.presetModes?.length) features |= ClimateFeature.PRESET_MODE;
  if (caps.swingModes?.length) features |= ClimateFeature.SWING_MODE;
  const power = optStr(c.power_command_topic);
  if (modes.includes('off') || power) features |= ClimateFeature.TURN_OFF;
  if (modes.some((m) => m !== 'off') || power) features |= ClimateFeature.TURN_ON;
  const withFeatures: ClimateCapabilities = { ...caps, supportedFeatures: features };
  // Without a state topic a value starts as climate.py starts it (optimistic): off, `initial` (21), low, off.
  const initial = coerceNumber(c.initial) ?? 21;
  const noState = (key: string) => optStr(c[key]) === undefined;
  let model: ClimateModel = {
    hvacMode: noState('mode_state_topic') ? 'off' : null,
    ...(noState('temperature_state_topic') ? { targetTemperature: initial } : {}),
    ...(noState('temperature_low_state_topic') ? { targetTempLow: initial } : {}),
    ...(noState('temperature_high_state_topic') ? { targetTempHigh: initial } : {}),
    ...(noState('fan_mode_state_topic') ? { fanMode: 'low' } : {}),
    ...(noState('swing_mode_state_topic') ? { swingMode: 'off' } : {}),
    ...(caps.presetModes ? { presetMode: 'none' } : {}),
  };
  const render = () => ({ state: model.hvacMode, attributes: climateStateAttributes(withFeatures, features, model) });
  const { topics, on } = stateTopics(ctx, render);
  const set = (patch: Partial<ClimateModel>): void => {
    model = { ...model, ...patch };
  };
  // A value that is not one the entity knows is ignored (climate.py logs it), as is a number that is not one.
  const listed = (v: string, list: readonly string[] | undefined, patch: (v: string) => Partial<ClimateModel>) => {
    if (list?.includes(v)) set(patch(v));
  };
  const float = (v: string, patch: (n: number) => Partial<ClimateModel>) => {
    const x = pyFloatOf(v);
    if (x !== undefined) set(patch(x));
  };
  on('mode_state_topic', 'mode_state_template', (v) => listed(v, modes, (m) => ({ hvacMode: m as HvacMode })));
  on('action_topic', 'action_template', (v) => {
    if (HVAC_ACTIONS.includes(v as HvacAction)) set({ hvacAction: v as HvacAction });
  });
  on('current_temperature_topic', 'current_temperature_template', (v) => float(v, (x) => ({ currentTemperature: x })));
  on('temperature_state_topic', 'temperature_state_template', (v) => float(v, (x) => ({ targetTemperature: x })));
  on('temperature_low_state_topic', 'temperature_low_state_template', (v) => float(v, (x) => ({ targetTempLow: x })));
  on('temperature_high_state_topic', 'temperature_high_state_template', (v) => float(v, (x) => ({ targetTempHigh: x })));
  on('current_humidity_topic', 'current_humidity_template', (v) => float(v, (x) => ({ currentHumidity: x })));
  if (caps.humidity) on('target_humidity_state_topic', 'target_humidity_state_template', (v) => float(v, (x) => ({ targetHumidity: x })));
  on('fan_mode_state_topic', 'fan_mode_state_template', (v) => listed(v, caps.fanModes, (m) => ({ fanMode: m })));
  on('swing_mode_state_topic', 'swing_mode_state_template', (v) => listed(v, caps.swingModes, (m) => ({ swingMode: m })));
  on('preset_mode_state_topic', 'preset_mode_value_template', (v) => {
    if (v === 'none' || v === 'None') set({ presetMode: 'none' });
    else listed(v, caps.presetModes, (m) => ({ presetMode: m }));
  });

  /** Publishes a command; without a state topic for it, the entity shows the value at once (optimistic). */
  const command = (what: string, stateKey: string, value: string, patch: Partial<ClimateModel>): void => {
    send(ctx, `${what}_command_topic`, `${what}_command_template`, value);
    if (!hasState(ctx, stateKey)) {
      set(patch);
      ctx.assume(render());
    }
  };
  const setHvacMode = (mode: HvacMode): void => command('mode', 'mode_state_topic', mode, { hvacMode: mode });
  const platform = {
    setHvacMode,
    setTemperature: (p: ClimateTemperatureParams) => {
      if (p.hvacMode !== undefined) setHvacMode(p.hvacMode);
      if (p.temperature !== undefined)
        command('temperature', 'temperature_state_topic', pyFloat(p.temperature), { targetTemperature: p.temperature });
      if (p.targetTempLow !== undefined)
        command('temperature_low', 'temperature_low_state_topic', pyFloat(p.targetTempLow), { targetTempLow: p.targetTempLow });
      if (p.targetTempHigh !== undefined)
        command('temperature_high', 'temperature_high_state_topic', pyFloat(p.targetTempHigh), { targetTempHigh: p.targetTempHigh });
    },
    setHumidity: (h: number) => command('target_humidity', 'target_humidity_state_topic', String(h), { targetHumidity: h }),
    setFanMode: (m: string) => command('fan_mode', 'fan_mode_state_topic', m, { fanMode: m }),
    setPresetMode: (m: string) => command('preset_mode', 'preset_mode_state_topic', m, { presetMode: m }),
    setSwingMode: (m: string) => command('swing_mode', 'swing_mode_state_topic', m, { swingMode: m }),
    ...(power
      ? {
          turnOn: () => send(ctx, 'power_command_topic', 'power_command_template', payload(c.payload_on, 'ON')),
          turnOff: () => send(ctx, 'power_command_topic', 'power_command_template', payload(c.payload_off, 'OFF')),
        }
      : {}),
  };
  const fixed = climateFixedAttributes(withFeatures, features, undefined);
  return { platform, fixed, data: withFeatures, topics };
}

const payload = (v: JsonValue | undefined, d: string): string => (typeof v === 'string' ? v : d);
