import type { JsonValue } from '../core/json.js';
import {
  addFan,
  type FanDirection,
  FanFeature,
  type FanModel,
  type FanPlatform,
  type FanTurnOnParams,
  fanStateAttributes,
} from '../domains/fan.js';
import { baseOf, type DeviceContext, type DeviceEntity, floatOf, onceLogger, withCustom } from './device.js';
import type { Presented } from './entity.js';
import { actionRunner } from './scripts.js';

const UNKNOWN_STATES: readonly JsonValue[] = ['unavailable', 'unknown'];

/**
 * A template fan (homeassistant/components/template/fan.py): its state, percentage, preset_mode, oscillating and
 * direction templates, and turn_on (with `percentage` and `preset_mode`), turn_off, set_percentage,
 * set_preset_mode, set_oscillating and set_direction, each action adding its feature. Without a state template (or
 * with `optimistic: true`) it takes on/off at once; a value without its own template is shown at once too.
 */
export function addTemplateFan(d: DeviceContext): DeviceEntity {
  const { ctx, device } = d;
  const templates = device.templates;
  const run = (name: string) => {
    const actions = device.actions.get(name);
    return actions === undefined ? undefined : actionRunner(ctx, d.entityId, name, actions);
  };
  const on = run('turn_on');
  const off = run('turn_off');
  const setPercentage = run('set_percentage');
  const setPreset = run('set_preset_mode');
  const setOscillating = run('set_oscillating');
  const setDirection = run('set_direction');
  const assumed = device.optimistic ?? d.def.state === undefined;
  const rejected = onceLogger(d);
  let features = FanFeature.TURN_ON | FanFeature.TURN_OFF;
  if (setPercentage !== undefined) features |= FanFeature.SET_SPEED;
  if (setPreset !== undefined) features |= FanFeature.PRESET_MODE;
  if (setOscillating !== undefined) features |= FanFeature.OSCILLATE;
  if (setDirection !== undefined) features |= FanFeature.DIRECTION;
  const capabilities = { speedCount: device.speedCount ?? 100, presetModes: device.presetModes, supportedFeatures: features };
  // Home Assistant's template fan starts off until its state template renders.
  const m: { -readonly [K in keyof FanModel]: FanModel[K] } = {
    on: false,
    percentage: null,
    presetMode: null,
    oscillating: null,
    direction: null,
  };
  let custom: Record<string, JsonValue> = {};

  const present = (): Presented => {
    const attributes = { ...fanStateAttributes(capabilities, features, m) };
    if (assumed) attributes.assumed_state = true;
    return { state: m.on === null ? null : m.on ? 'on' : 'off', attributes: withCustom(attributes, custom) };
  };
  const write = () => d.writer().writePresented(present());
  const context = () => ctx.core.newContext();

  const platform: FanPlatform = {
    turnOn: async (params: FanTurnOnParams) => {
      await on?.({ percentage: params.percentage ?? null, preset_mode: params.presetMode ?? null }, context());
      if (params.presetMode !== undefined) await platform.setPresetMode?.(params.presetMode);
      if (params.percentage !== undefined) await platform.setPercentage?.(params.percentage);
      if (assumed) {
        m.on = true;
        write();
      }
    },
    turnOff: async () => {
      await off?.({}, context());
      if (assumed) {
        m.on = false;
        write();
      }
    },
    setPercentage: async (percentage) => {
      m.percentage = percentage;
      m.presetMode = null;
      await setPercentage?.({ percentage }, context());
      if (assumed) m.on = percentage !== 0;
      if (assumed || !templates.has('percentage')) write();
    },
    setPresetMode: async (mode) => {
      m.presetMode = mode;
      await setPreset?.({ preset_mode: mode }, context());
      if (assumed) m.on = true;
      if (assumed || !templates.has('preset_mode')) write();
    },
    oscillate: async (oscillating) => {
      m.oscillating = oscillating;
      await setOscillating?.({ oscillating }, context());
      if (!templates.has('oscillating')) write();
    },
    setDirection: async (direction: FanDirection) => {
      m.direction = direction;
      await setDirection?.({ direction }, context());
      if (!templates.has('direction')) write();
    },
  };
  const handle = addFan(ctx.core, { ...baseOf(d), capabilities, platform });

  const readPercentage = (value: JsonValue | undefined): number => {
    const n = floatOf(value ?? undefined);
    const p = n === undefined ? undefined : Math.trunc(n);
    if (p !== undefined && p >= 0 && p <= 100) return p;
    rejected('percentage', `Received invalid percentage: ${String(value)} for entity ${d.entityId}`);
    return 0;
  };
  const readPreset = (value: JsonValue | undefined): string | null => {
    const mode = value === null || value === undefined ? 'None' : typeof value === 'string' ? value : JSON.stringify(value);
    if (device.presetModes?.includes(mode)) return mode;
    if (UNKNOWN_STATES.includes(mode)) return null;
    rejected(
      'preset_mode',
      `Received invalid preset_mode: ${mode} for entity ${d.entityId}. Expected: ${(device.presetModes ?? []).join(', ')}`,
    );
    return null;
  };
  const readOscillating = (value: JsonValue | undefined): boolean | null => {
    if (value === true || value === 'True') return true;
    if (value === false || value === 'False') return false;
    if (value !== undefined && UNKNOWN_STATES.includes(value)) return null;
    rejected('oscillating', `Received invalid oscillating: ${String(value)} for entity ${d.entityId}. Expected: True/False`);
    return null;
  };
  const readDirection = (value: JsonValue | undefined): FanDirection | null => {
    if (value === 'forward' || value === 'reverse') return value;
    if (value !== undefined && UNKNOWN_STATES.includes(value)) return null;
    rejected('direction', `Received invalid direction: ${String(value)} for entity ${d.entityId}. Expected: forward, reverse`);
    return null;
  };

  return {
    entity: handle.entity,
    adapt: (result) => {
      custom = result.attributes;
      const values = result.values;
      // _handle_state: true or on (any case) is on, anything else off.
      if (d.def.state !== undefined)
        m.on = result.state !== null && result.state !== undefined && ['true', 'on'].includes(result.state.toLowerCase());
      if (templates.has('percentage')) m.percentage = readPercentage(values?.get('percentage'));
      if (templates.has('preset_mode')) m.presetMode = readPreset(values?.get('preset_mode'));
      if (templates.has('oscillating')) m.oscillating = readOscillating(values?.get('oscillating'));
      if (templates.has('direction')) m.direction = readDirection(values?.get('direction'));
      return present();
    },
  };
}
