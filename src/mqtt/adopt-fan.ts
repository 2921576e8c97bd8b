import {
  FAN_DIRECTIONS,
  type FanCapabilities,
  type FanDirection,
  FanFeature,
  type FanModel,
  fanFixedAttributes,
  fanStateAttributes,
} from '../domains/fan.js';
import type { AdoptContext, AdoptedParts } from './adopt-types.js';
import { coerceNumber, optStr, send, stateTopics, str, strList } from './adopt-values.js';

/** Whether a value is optimistic: no state topic for it (or `optimistic`), so a command shows at once. */
const optimistic = (ctx: AdoptContext, stateKey: string): boolean =>
  ctx.config.optimistic === true || optStr(ctx.config[stateKey]) === undefined;

/**
 * Home Assistant's MQTT fan (fan.py): on/off, percentage over speed_range_min..max (ESPHome's speed 2 of 3 is 66%),
 * preset modes, oscillation, direction, each optimistic without its state topic.
 */
export function fanParts(ctx: AdoptContext): AdoptedParts {
  const c = ctx.config;
  const min = Math.max(1, Math.trunc(coerceNumber(c.speed_range_min) ?? 1));
  const max = Math.max(min, Math.trunc(coerceNumber(c.speed_range_max) ?? 100));
  const states = max - min + 1;
  const presets = optStr(c.preset_mode_command_topic) ? strList(c.preset_modes) : undefined;
  const caps: FanCapabilities = {
    speedCount: optStr(c.percentage_command_topic) ? Math.min(100, states) : undefined,
    presetModes: presets,
    oscillate: optStr(c.oscillation_command_topic) !== undefined,
    direction: optStr(c.direction_command_topic) !== undefined,
  };
  let features = FanFeature.TURN_ON | FanFeature.TURN_OFF;
  if (caps.speedCount) features |= FanFeature.SET_SPEED;
  if (presets?.length) features |= FanFeature.PRESET_MODE;
  if (caps.oscillate) features |= FanFeature.OSCILLATE;
  if (caps.direction) features |= FanFeature.DIRECTION;
  const withFeatures: FanCapabilities = { ...caps, supportedFeatures: features };
  const payloadOn = str(c.payload_on, 'ON');
  const payloadOff = str(c.payload_off, 'OFF');
  const oscOn = str(c.payload_oscillation_on, 'oscillate_on');
  const oscOff = str(c.payload_oscillation_off, 'oscillate_off');
  const resetPercentage = str(c.payload_reset_percentage, 'None');
  const resetPreset = str(c.payload_reset_preset_mode, 'None');
  let model: FanModel = { on: null };
  const render = () => ({
    state: model.on === null ? null : model.on ? 'on' : 'off',
    attributes: fanStateAttributes(withFeatures, features, model),
  });
  const set = (patch: Partial<FanModel>): void => {
    model = { ...model, ...patch };
  };
  const { topics, on } = stateTopics(ctx, render);
  on('state_topic', 'state_value_template', (v) => {
    if (v === payloadOn) set({ on: true });
    else if (v === payloadOff) set({ on: false });
    else if (v === 'None') set({ on: null });
  });
  on('percentage_state_topic', 'percentage_value_template', (v) => {
    if (v === resetPercentage) set({ percentage: null });
    // int() of the payload, as fan.py reads it: "2" is speed 2, "2.5" is refused.
    else if (/^-?\d+$/.test(v)) {
      const percentage = Math.floor(((Number(v) - min + 1) * 100) / states);
      if (percentage >= 0 && percentage <= 100) set({ percentage });
    }
  });
  on('preset_mode_state_topic', 'preset_mode_value_template', (v) => {
    if (v === resetPreset) set({ presetMode: null });
    else if (presets?.includes(v)) set({ presetMode: v });
  });
  on('oscillation_state_topic', 'oscillation_value_template', (v) => {
    if (v === oscOn || v === oscOff) set({ oscillating: v === oscOn });
    else if (v === 'None') set({ oscillating: null });
  });
  on('direction_state_topic', 'direction_value_template', (v) => {
    if (FAN_DIRECTIONS.includes(v as FanDirection)) set({ direction: v as FanDirection });
    else if (v === 'None') set({ direction: null });
  });
  const assume = (stateKey: string, patch: Partial<FanModel>): void => {
    if (!optimistic(ctx, stateKey)) return;
    set(patch);
    ctx.assume(render());
  };
  const setPercentage = (p: number): void => {
    // percentage_to_ranged_value, rounded up: 66% of speeds 1..3 is 2.
    send(ctx, 'percentage_command_topic', 'percentage_command_template', Math.ceil((states * p) / 100) + min - 1);
    assume('percentage_state_topic', { percentage: p });
  };
  const setPresetMode = (m: string): void => {
    send(ctx, 'preset_mode_command_topic', 'preset_mode_command_template', m);
    assume('preset_mode_state_topic', { presetMode: m });
  };
  const platform = {
    turnOn: (params: { percentage?: number; presetMode?: string }) => {
      send(ctx, 'command_topic', 'command_template', payloadOn);
      if (params.percentage !== undefined) setPercentage(params.percentage);
      if (params.presetMode !== undefined) setPresetMode(params.presetMode);
      assume('state_topic', { on: true });
    },
    turnOff: () => {
      send(ctx, 'command_topic', 'command_template', payloadOff);
      assume('state_topic', { on: false });
    },
    ...(caps.speedCount ? { setPercentage } : {}),
    ...(presets ? { setPresetMode } : {}),
    ...(caps.oscillate
      ? {
          oscillate: (o: boolean) => {
            send(ctx, 'oscillation_command_topic', 'oscillation_command_template', o ? oscOn : oscOff);
            assume('oscillation_state_topic', { oscillating: o });
          },
        }
      : {}),
    ...(caps.direction
      ? {
          setDirection: (d: FanDirection) => {
            send(ctx, 'direction_command_topic', 'direction_command_template', d);
            assume('direction_state_topic', { direction: d });
          },
        }
      : {}),
  };
  return { platform, fixed: fanFixedAttributes(withFeatures, features, undefined), data: withFeatures, topics };
}
