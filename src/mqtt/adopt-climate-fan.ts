import type { JsonValue } from '../core/json.js';
import {
  type ClimateCapabilities,
  ClimateFeature,
  type ClimateModel,
  climateFixedAttributes,
  climateStateAttributes,
  DEFAULT_MAX_TEMP,
  DEFAULT_MIN_TEMP,
  HVAC_MODES,
  type HvacMode,
} from '../domains/climate.js';
import { type FanCapabilities, FanFeature, type FanModel, fanFeatures, fanFixedAttributes, fanStateAttributes } from '../domains/fan.js';
import type { AdoptContext, AdoptedParts, TopicHandler } from './adopt-types.js';
import { optStr } from './adopt-values.js';
import { payloadVariables } from './template.js';

const strList = (v: JsonValue | undefined): string[] | undefined =>
  Array.isArray(v) ? (v as JsonValue[]).filter((x): x is string => typeof x === 'string') : undefined;

/** A payload on `topicKey`'s topic through `templateKey`'s template, if the config gives one. */
function read(ctx: AdoptContext, payload: string, templateKey: string): string {
  const template = optStr(ctx.config[templateKey]);
  return template === undefined ? payload.trim() : ctx.render(template, payloadVariables(payload)).trim();
}

/**
 * The entity's state topics: `on(topicKey, templateKey, apply)` subscribes to the topic the config names (if any),
 * reads each payload through its template, applies it to the model, and renders the entity's new state.
 */
function stateTopics(
  ctx: AdoptContext,
  render: () => ReturnType<TopicHandler>,
): { topics: [string, TopicHandler][]; on: (topicKey: string, templateKey: string, apply: (v: string) => void) => void } {
  const topics: [string, TopicHandler][] = [];
  const on = (topicKey: string, templateKey: string, apply: (v: string) => void): void => {
    const topic = optStr(ctx.config[topicKey]);
    if (topic === undefined) return;
    topics.push([
      topic,
      (p) => {
        apply(read(ctx, p, templateKey));
        return render();
      },
    ]);
  };
  return { topics, on };
}

function send(ctx: AdoptContext, topicKey: string, templateKey: string, value: string): void {
  const topic = optStr(ctx.config[topicKey]);
  if (topic === undefined) return;
  const template = optStr(ctx.config[templateKey]);
  ctx.publish(topic, template === undefined ? value : ctx.render(template, { value }));
}

const num = (s: string): number | null => (s === '' || s === 'None' || !Number.isFinite(Number(s)) ? null : Number(s));

/** Home Assistant's MQTT climate: mode, target and current temperature, fan, preset and swing modes. */
export function climateParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const modes = (strList(c.modes) ?? ['auto', 'off', 'cool', 'heat', 'dry', 'fan_only']).filter((m): m is HvacMode =>
    HVAC_MODES.includes(m as HvacMode),
  );
  const listed = (kind: 'fan' | 'preset' | 'swing') => (optStr(c[`${kind}_mode_command_topic`]) ? strList(c[`${kind}_modes`]) : undefined);
  const temperatureCommand = optStr(c.temperature_command_topic);
  const caps: ClimateCapabilities = {
    hvacModes: modes,
    minTemp: typeof c.min_temp === 'number' ? c.min_temp : DEFAULT_MIN_TEMP,
    maxTemp: typeof c.max_temp === 'number' ? c.max_temp : DEFAULT_MAX_TEMP,
    targetTempStep: typeof c.temp_step === 'number' ? c.temp_step : undefined,
    fanModes: listed('fan'),
    presetModes: listed('preset'),
    swingModes: listed('swing'),
  };
  let features = temperatureCommand ? ClimateFeature.TARGET_TEMPERATURE : 0;
  if (caps.fanModes?.length) features |= ClimateFeature.FAN_MODE;
  if (caps.presetModes?.length) features |= ClimateFeature.PRESET_MODE;
  if (caps.swingModes?.length) features |= ClimateFeature.SWING_MODE;
  if (modes.includes('off')) features |= ClimateFeature.TURN_OFF;
  if (modes.some((m) => m !== 'off')) features |= ClimateFeature.TURN_ON;
  const withFeatures: ClimateCapabilities = { ...caps, supportedFeatures: features };
  let model: ClimateModel = { hvacMode: null };
  const render = () => ({ state: model.hvacMode, attributes: climateStateAttributes(withFeatures, features, model) });
  const { topics, on } = stateTopics(ctx, render);
  on('mode_state_topic', 'mode_state_template', (v) => {
    model = { ...model, hvacMode: modes.includes(v as HvacMode) ? (v as HvacMode) : null };
  });
  on('current_temperature_topic', 'current_temperature_template', (v) => {
    model = { ...model, currentTemperature: num(v) };
  });
  on('temperature_state_topic', 'temperature_state_template', (v) => {
    model = { ...model, targetTemperature: num(v) };
  });
  for (const kind of ['fan', 'preset', 'swing'] as const) {
    on(`${kind}_mode_state_topic`, kind === 'preset' ? 'preset_mode_value_template' : `${kind}_mode_state_template`, (v) => {
      model = { ...model, [`${kind}Mode`]: v === '' ? null : v };
    });
  }
  const platform = {
    setHvacMode: (mode: HvacMode) => send(ctx, 'mode_command_topic', 'mode_command_template', mode),
    setTemperature: (params: { temperature?: number }) => {
      if (params.temperature !== undefined)
        send(ctx, 'temperature_command_topic', 'temperature_command_template', String(params.temperature));
    },
    setFanMode: (mode: string) => send(ctx, 'fan_mode_command_topic', 'fan_mode_command_template', mode),
    setPresetMode: (mode: string) => send(ctx, 'preset_mode_command_topic', 'preset_mode_command_template', mode),
    setSwingMode: (mode: string) => send(ctx, 'swing_mode_command_topic', 'swing_mode_command_template', mode),
  };
  return { platform, fixed: climateFixedAttributes(withFeatures, features, undefined), data: withFeatures, topics };
}

/** Home Assistant's MQTT fan: on/off, percentage (with speed_range_min/max), preset modes, oscillation. */
export function fanParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const min = typeof c.speed_range_min === 'number' ? c.speed_range_min : 1;
  const max = typeof c.speed_range_max === 'number' ? c.speed_range_max : 100;
  const presets = optStr(c.preset_mode_command_topic) ? strList(c.preset_modes) : undefined;
  const caps: FanCapabilities = {
    speedCount: optStr(c.percentage_command_topic) ? Math.max(1, max - min + 1) : undefined,
    presetModes: presets,
    oscillate: optStr(c.oscillation_command_topic) !== undefined,
  };
  const features = fanFeatures(caps);
  const withFeatures: FanCapabilities = { ...caps, supportedFeatures: features | FanFeature.TURN_ON | FanFeature.TURN_OFF };
  const payloadOn = typeof c.payload_on === 'string' ? c.payload_on : 'ON';
  const payloadOff = typeof c.payload_off === 'string' ? c.payload_off : 'OFF';
  const oscOn = typeof c.payload_oscillation_on === 'string' ? c.payload_oscillation_on : 'oscillate_on';
  const oscOff = typeof c.payload_oscillation_off === 'string' ? c.payload_oscillation_off : 'oscillate_off';
  let model: FanModel = { on: null };
  const allFeatures = withFeatures.supportedFeatures ?? features;
  const render = () => ({
    state: model.on === null ? null : model.on ? 'on' : 'off',
    attributes: fanStateAttributes(withFeatures, allFeatures, model),
  });
  const { topics, on } = stateTopics(ctx, render);
  on('state_topic', 'state_value_template', (v) => {
    if (v === payloadOn) model = { ...model, on: true };
    else if (v === payloadOff) model = { ...model, on: false };
  });
  on('percentage_state_topic', 'percentage_value_template', (v) => {
    const n = num(v);
    model = { ...model, percentage: n === null ? null : Math.round(((n - min + 1) * 100) / (max - min + 1)) };
  });
  on('preset_mode_state_topic', 'preset_mode_value_template', (v) => {
    model = { ...model, presetMode: v === '' ? null : v };
  });
  on('oscillation_state_topic', 'oscillation_value_template', (v) => {
    if (v === oscOn || v === oscOff) model = { ...model, oscillating: v === oscOn };
  });
  const percentageValue = (p: number) => String(Math.ceil(((max - min + 1) * p) / 100) + min - 1);
  const platform = {
    turnOn: (params: { percentage?: number; presetMode?: string }) => {
      send(ctx, 'command_topic', 'command_template', payloadOn);
      if (params.percentage !== undefined)
        send(ctx, 'percentage_command_topic', 'percentage_command_template', percentageValue(params.percentage));
      if (params.presetMode !== undefined) send(ctx, 'preset_mode_command_topic', 'preset_mode_command_template', params.presetMode);
    },
    turnOff: () => send(ctx, 'command_topic', 'command_template', payloadOff),
    ...(caps.speedCount
      ? { setPercentage: (p: number) => send(ctx, 'percentage_command_topic', 'percentage_command_template', percentageValue(p)) }
      : {}),
    ...(presets ? { setPresetMode: (m: string) => send(ctx, 'preset_mode_command_topic', 'preset_mode_command_template', m) } : {}),
    ...(caps.oscillate
      ? { oscillate: (o: boolean) => send(ctx, 'oscillation_command_topic', 'oscillation_command_template', o ? oscOn : oscOff) }
      : {}),
  };
  return { platform, fixed: fanFixedAttributes(withFeatures, allFeatures, undefined), data: withFeatures, topics };
}
