import type { JsonObject, JsonValue } from '../core/json.js';
import type { Attributes } from '../core/state.js';
import { AlarmFeature } from '../domains/alarm-control-panel.js';
import { ClimateFeature } from '../domains/climate.js';
import { CoverFeature } from '../domains/cover.js';
import { FanFeature } from '../domains/fan.js';
import { LockFeature } from '../domains/lock.js';

/** Where one published entity lives: `<base>/<entity_id>/...`. */
export interface EntityTopics {
  readonly state: string;
  readonly attributes: string;
  readonly availability: string;
  /** `<base>/<entity_id>/set`; other commands are `<base>/<entity_id>/<what>/set`. */
  readonly command: string;
  readonly base: string;
}

export function entityTopics(baseTopic: string, entityId: string): EntityTopics {
  const base = `${baseTopic}/${entityId}`;
  return { base, state: `${base}/state`, attributes: `${base}/attributes`, availability: `${base}/availability`, command: `${base}/set` };
}

const num = (v: JsonValue | undefined): number | undefined => (typeof v === 'number' ? v : undefined);
const strList = (v: JsonValue | undefined): string[] | undefined =>
  Array.isArray(v) ? (v as JsonValue[]).filter((x): x is string => typeof x === 'string') : undefined;
const attrTemplate = (key: string) => `{{ value_json.${key} }}`;

function lightConfig(a: Attributes, t: EntityTopics): JsonObject {
  const modes = strList(a.supported_color_modes) ?? ['onoff'];
  const out: Record<string, JsonValue> = {
    schema: 'json',
    state_topic: t.state,
    command_topic: t.command,
    // schema_json.py's current keys: supported_color_modes says it all (the `color_mode` flag was removed in 2025.3).
    supported_color_modes: modes,
    brightness: modes.some((m) => m !== 'onoff'),
    brightness_scale: 255,
  };
  const effects = strList(a.effect_list);
  if (effects && effects.length > 0) {
    out.effect = true;
    out.effect_list = effects;
  }
  if (modes.includes('color_temp')) {
    const min = num(a.min_mireds);
    const max = num(a.max_mireds);
    if (min !== undefined) out.min_mireds = min;
    if (max !== undefined) out.max_mireds = max;
  }
  if ((num(a.supported_features) ?? 0) & 32) out.transition = true;
  return out;
}

function coverConfig(a: Attributes, t: EntityTopics): JsonObject {
  const f = num(a.supported_features) ?? CoverFeature.OPEN | CoverFeature.CLOSE;
  const out: Record<string, JsonValue> = {
    command_topic: t.command,
    payload_open: f & CoverFeature.OPEN ? 'OPEN' : null,
    payload_close: f & CoverFeature.CLOSE ? 'CLOSE' : null,
    payload_stop: f & CoverFeature.STOP ? 'STOP' : null,
    state_topic: t.state,
    state_open: 'open',
    state_opening: 'opening',
    state_closed: 'closed',
    state_closing: 'closing',
  };
  if (f & CoverFeature.SET_POSITION) {
    out.position_topic = t.attributes;
    out.position_template = attrTemplate('current_position');
    out.set_position_topic = `${t.base}/position/set`;
  }
  return out;
}

/** What the published configs need from the hub beyond an entity's attributes. */
export interface PublishContext {
  /** The hub's temperature unit (its unit system): climate's temperature_unit. */
  readonly temperatureUnit: 'C' | 'F';
}

function climateConfig(a: Attributes, t: EntityTopics, ctx: PublishContext): JsonObject {
  const f = num(a.supported_features) ?? ClimateFeature.TARGET_TEMPERATURE;
  const out: Record<string, JsonValue> = {
    mode_state_topic: t.state,
    mode_command_topic: `${t.base}/mode/set`,
    modes: strList(a.hvac_modes) ?? ['off'],
    current_temperature_topic: t.attributes,
    current_temperature_template: attrTemplate('current_temperature'),
    temperature_unit: ctx.temperatureUnit,
  };
  if (f & ClimateFeature.TARGET_TEMPERATURE) {
    out.temperature_command_topic = `${t.base}/temperature/set`;
    out.temperature_state_topic = t.attributes;
    out.temperature_state_template = attrTemplate('temperature');
  }
  if (f & ClimateFeature.TARGET_TEMPERATURE_RANGE) {
    for (const [end, attr] of [
      ['low', 'target_temp_low'],
      ['high', 'target_temp_high'],
    ] as const) {
      out[`temperature_${end}_command_topic`] = `${t.base}/temperature_${end}/set`;
      out[`temperature_${end}_state_topic`] = t.attributes;
      out[`temperature_${end}_state_template`] = attrTemplate(attr);
    }
  }
  if (f & ClimateFeature.TARGET_HUMIDITY) {
    out.target_humidity_command_topic = `${t.base}/humidity/set`;
    out.target_humidity_state_topic = t.attributes;
    out.target_humidity_state_template = attrTemplate('humidity');
    const minH = num(a.min_humidity);
    const maxH = num(a.max_humidity);
    if (minH !== undefined) out.min_humidity = minH;
    if (maxH !== undefined) out.max_humidity = maxH;
  }
  if (a.current_humidity !== undefined) {
    out.current_humidity_topic = t.attributes;
    out.current_humidity_template = attrTemplate('current_humidity');
  }
  // A thermostat that says what it is doing: hvac_action (absent while it is not known, which Home Assistant ignores).
  if (a.hvac_action !== undefined) {
    out.action_topic = t.attributes;
    out.action_template = attrTemplate('hvac_action');
  }
  const min = num(a.min_temp);
  const max = num(a.max_temp);
  const step = num(a.target_temp_step);
  if (min !== undefined) out.min_temp = min;
  if (max !== undefined) out.max_temp = max;
  if (step !== undefined) out.temp_step = step;
  for (const kind of ['fan', 'preset', 'swing'] as const) {
    // Home Assistant's MQTT climate refuses a preset list with `none` in it (no preset is its own state).
    const list = strList(a[`${kind}_modes`])?.filter((m) => kind !== 'preset' || m !== 'none');
    if (list === undefined || list.length === 0) continue;
    out[`${kind}_modes`] = list;
    out[`${kind}_mode_command_topic`] = `${t.base}/${kind}_mode/set`;
    out[`${kind}_mode_state_topic`] = t.attributes;
    // climate.py names the preset's template preset_mode_value_template, the others *_mode_state_template.
    out[kind === 'preset' ? 'preset_mode_value_template' : `${kind}_mode_state_template`] = attrTemplate(`${kind}_mode`);
  }
  return out;
}

/** A fan's number of speeds, from its percentage_step (100 when it has none). */
export function fanSpeedCount(a: Attributes): number {
  const step = num(a.percentage_step);
  return step !== undefined && step > 0 ? Math.max(1, Math.min(100, Math.round(100 / step))) : 100;
}

function fanConfig(a: Attributes, t: EntityTopics): JsonObject {
  const f = num(a.supported_features) ?? 0;
  const out: Record<string, JsonValue> = { state_topic: t.state, command_topic: t.command, payload_on: 'on', payload_off: 'off' };
  if (f & FanFeature.SET_SPEED) {
    // The fan's speeds as Home Assistant's speed range (1..count), so it shows the same percentage_step: the state
    // is the speed a percentage is (rounded up, as percentage_to_ranged_value), commands are speeds.
    const count = fanSpeedCount(a);
    out.percentage_state_topic = t.attributes;
    out.percentage_value_template =
      count === 100 ? attrTemplate('percentage') : `{{ ((value_json.percentage or 0) * ${count} + 99) // 100 }}`;
    out.percentage_command_topic = `${t.base}/percentage/set`;
    out.speed_range_min = 1;
    out.speed_range_max = count;
  }
  const presets = strList(a.preset_modes);
  if (presets && presets.length > 0) {
    out.preset_modes = presets;
    out.preset_mode_state_topic = t.attributes;
    out.preset_mode_value_template = attrTemplate('preset_mode');
    out.preset_mode_command_topic = `${t.base}/preset_mode/set`;
  }
  if (f & FanFeature.OSCILLATE) {
    out.oscillation_state_topic = t.attributes;
    // The attribute is a JSON boolean, which templates print as Python does.
    out.oscillation_value_template = attrTemplate('oscillating');
    out.payload_oscillation_on = 'True';
    out.payload_oscillation_off = 'False';
    out.oscillation_command_topic = `${t.base}/oscillation/set`;
  }
  return out;
}

const ALARM_FEATURES: readonly [number, string][] = [
  [AlarmFeature.ARM_HOME, 'arm_home'],
  [AlarmFeature.ARM_AWAY, 'arm_away'],
  [AlarmFeature.ARM_NIGHT, 'arm_night'],
  [AlarmFeature.ARM_VACATION, 'arm_vacation'],
  [AlarmFeature.ARM_CUSTOM_BYPASS, 'arm_custom_bypass'],
  [AlarmFeature.TRIGGER, 'trigger'],
];

function alarmConfig(a: Attributes, t: EntityTopics): JsonObject {
  const f = num(a.supported_features) ?? 0;
  const out: Record<string, JsonValue> = {
    state_topic: t.state,
    command_topic: t.command,
    supported_features: ALARM_FEATURES.filter(([bit]) => f & bit).map(([, name]) => name),
    command_template: '{"action":"{{ action }}","code":"{{ code }}"}',
  };
  // A panel that wants a code gets it from the user in Home Assistant and passes it on in the command.
  if (a.code_format === 'number' || a.code_format === 'text') out.code = 'REMOTE_CODE';
  return out;
}

const DEFAULT_CONTEXT: PublishContext = { temperatureUnit: 'C' };

/**
 * The component-specific part of an entity's discovery config, in Home Assistant's schema for that component;
 * undefined for a domain not published.
 */
export function componentConfig(
  domain: string,
  a: Attributes,
  t: EntityTopics,
  ctx: PublishContext = DEFAULT_CONTEXT,
): JsonObject | undefined {
  switch (domain) {
    case 'light':
      return lightConfig(a, t);
    case 'switch':
      return { state_topic: t.state, command_topic: t.command, payload_on: 'on', payload_off: 'off' };
    case 'sensor': {
      const out: Record<string, JsonValue> = { state_topic: t.state };
      if (typeof a.unit_of_measurement === 'string') out.unit_of_measurement = a.unit_of_measurement;
      if (typeof a.state_class === 'string') out.state_class = a.state_class;
      return out;
    }
    case 'binary_sensor':
      return { state_topic: t.state, payload_on: 'on', payload_off: 'off' };
    case 'cover':
      return coverConfig(a, t);
    case 'lock': {
      const open = ((num(a.supported_features) ?? 0) & LockFeature.OPEN) !== 0;
      return {
        state_topic: t.state,
        command_topic: t.command,
        // The code Home Assistant asks for goes along with the command (lock.py renders the template with value and
        // code), and the lock checks it; code_format makes Home Assistant ask for one.
        command_template: '{"action": "{{ value }}", "code": {{ code | to_json }}}',
        ...(typeof a.code_format === 'string' ? { code_format: a.code_format } : {}),
        payload_lock: 'LOCK',
        payload_unlock: 'UNLOCK',
        ...(open ? { payload_open: 'OPEN' } : {}),
        state_locked: 'locked',
        state_unlocked: 'unlocked',
        state_locking: 'locking',
        state_unlocking: 'unlocking',
        state_jammed: 'jammed',
        state_open: 'open',
        state_opening: 'opening',
      };
    }
    case 'climate':
      return climateConfig(a, t, ctx);
    case 'fan':
      return fanConfig(a, t);
    case 'alarm_control_panel':
      return alarmConfig(a, t);
    case 'button':
      return { command_topic: t.command, payload_press: 'PRESS' };
    case 'number': {
      const out: Record<string, JsonValue> = { command_topic: t.command, state_topic: t.state };
      for (const k of ['min', 'max', 'step'] as const) if (num(a[k]) !== undefined) out[k] = num(a[k]) as number;
      if (typeof a.mode === 'string') out.mode = a.mode;
      if (typeof a.unit_of_measurement === 'string') out.unit_of_measurement = a.unit_of_measurement;
      return out;
    }
    case 'select':
      return { command_topic: t.command, state_topic: t.state, options: strList(a.options) ?? [] };
    default:
      return undefined;
  }
}
