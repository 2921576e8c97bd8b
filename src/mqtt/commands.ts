import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { lookupTable } from '../core/own-keys.js';
import type { Attributes } from '../core/state.js';
import { fanSpeedCount } from './discovery-configs.js';

/** A service call a command message asks for. */
export interface CommandCall {
  readonly service: string;
  readonly data: JsonObject;
}

const refuse = (what: string, payload: string, allowed: string): HubError =>
  new HubError('invalid_format', `command ${what}: ${JSON.stringify(payload.slice(0, 100))} is not allowed: expected ${allowed}`);

function parseJsonObject(payload: string, what: string): JsonObject {
  try {
    const v = JSON.parse(payload) as JsonValue;
    if (isJsonObject(v)) return v;
  } catch {
    // refused below
  }
  throw refuse(what, payload, 'a JSON object');
}

function number(payload: string, what: string): number {
  const n = Number(payload.trim());
  if (payload.trim() === '' || !Number.isFinite(n)) throw refuse(what, payload, 'a number');
  return n;
}

function onOff(payload: string, what: string): boolean {
  const p = payload.trim().toLowerCase();
  if (p === 'on') return true;
  if (p === 'off') return false;
  throw refuse(what, payload, 'ON or OFF');
}

/** A JSON schema light command (Home Assistant's light/schema_json.py) as light.turn_on / turn_off data. */
function lightCommand(payload: string): CommandCall {
  const c = parseJsonObject(payload, 'light');
  const state = typeof c.state === 'string' ? c.state.toUpperCase() : undefined;
  if (state !== 'ON' && state !== 'OFF') throw refuse('light state', String(c.state), 'ON or OFF');
  const data: Record<string, JsonValue> = {};
  if (typeof c.transition === 'number') data.transition = c.transition;
  if (state === 'OFF') return { service: 'turn_off', data };
  if (typeof c.brightness === 'number') data.brightness = c.brightness;
  const color = c.color;
  if (isJsonObject(color)) {
    if (typeof color.h === 'number' && typeof color.s === 'number') data.hs_color = [color.h, color.s];
    else if (typeof color.x === 'number' && typeof color.y === 'number') data.xy_color = [color.x, color.y];
    else if (typeof color.r === 'number' && typeof color.g === 'number' && typeof color.b === 'number')
      data.rgb_color = [color.r, color.g, color.b];
  }
  if (typeof c.color_temp === 'number' && c.color_temp > 0) data.color_temp_kelvin = Math.round(1_000_000 / c.color_temp);
  if (typeof c.effect === 'string') data.effect = c.effect;
  if (typeof c.flash === 'string') data.flash = c.flash;
  return { service: 'turn_on', data };
}

// Keyed by command payloads from the broker: tables without a prototype.
const COVER = lookupTable({ OPEN: 'open_cover', CLOSE: 'close_cover', STOP: 'stop_cover' });
const LOCK = lookupTable({ LOCK: 'lock', UNLOCK: 'unlock', OPEN: 'open' });
const ALARM = lookupTable({
  ARM_HOME: 'alarm_arm_home',
  ARM_AWAY: 'alarm_arm_away',
  ARM_NIGHT: 'alarm_arm_night',
  ARM_VACATION: 'alarm_arm_vacation',
  ARM_CUSTOM_BYPASS: 'alarm_arm_custom_bypass',
  DISARM: 'alarm_disarm',
  TRIGGER: 'alarm_trigger',
});

function fromTable(table: Readonly<Record<string, string>>, payload: string, what: string): CommandCall {
  const service = table[payload.trim().toUpperCase()];
  if (service === undefined) throw refuse(what, payload, `one of ${Object.keys(table).join(', ')}`);
  return { service, data: {} };
}

/** A lock command: `LOCK`, or the command_template's `{"action": "UNLOCK", "code": "1234"}` (code null when none). */
function lockCommand(payload: string): CommandCall {
  const trimmed = payload.trim();
  if (!trimmed.startsWith('{')) return fromTable(LOCK, trimmed, 'lock');
  const c = parseJsonObject(trimmed, 'lock');
  const call = fromTable(LOCK, typeof c.action === 'string' ? c.action : '', 'lock action');
  return typeof c.code === 'string' && c.code !== '' ? { service: call.service, data: { code: c.code } } : call;
}

/** One end of a thermostat's range: set_temperature wants both, so the other is the entity's current one. */
function rangeCommand(end: 'low' | 'high', payload: string, attributes: Attributes): CommandCall {
  const value = number(payload, `temperature_${end}`);
  const other = attributes[end === 'low' ? 'target_temp_high' : 'target_temp_low'];
  const data: Record<string, JsonValue> = end === 'low' ? { target_temp_low: value } : { target_temp_high: value };
  if (typeof other === 'number') data[end === 'low' ? 'target_temp_high' : 'target_temp_low'] = other;
  return { service: 'set_temperature', data };
}

/** A fan speed (1..count, the published speed_range) as its percentage: ranged_value_to_percentage. */
function fanPercentage(payload: string, attributes: Attributes): CommandCall {
  const speed = number(payload, 'fan percentage');
  const count = fanSpeedCount(attributes);
  const percentage = count === 100 ? speed : Math.floor((speed * 100) / count);
  return { service: 'set_percentage', data: { percentage: Math.max(0, Math.min(100, percentage)) } };
}

function alarmCommand(payload: string): CommandCall {
  const trimmed = payload.trim();
  if (!trimmed.startsWith('{')) return fromTable(ALARM, trimmed, 'alarm_control_panel');
  const c = parseJsonObject(trimmed, 'alarm_control_panel');
  const call = fromTable(ALARM, typeof c.action === 'string' ? c.action : '', 'alarm_control_panel action');
  return typeof c.code === 'string' && c.code !== '' ? { service: call.service, data: { code: c.code } } : call;
}

/**
 * The service call a message on `<base>/<entity_id>/[<what>/]set` asks for, in the payloads the published
 * discovery configs announce; throws a HubError naming the command and what is allowed.
 */
export function commandCall(domain: string, what: string, payload: string, attributes: Attributes = {}): CommandCall {
  const key = `${domain}/${what}`;
  switch (key) {
    case 'light/':
      return lightCommand(payload);
    case 'switch/':
    case 'fan/':
      return { service: onOff(payload, domain) ? 'turn_on' : 'turn_off', data: {} };
    case 'cover/':
      return fromTable(COVER, payload, 'cover');
    case 'cover/position':
      return { service: 'set_cover_position', data: { position: number(payload, 'cover position') } };
    case 'lock/':
      return lockCommand(payload);
    case 'alarm_control_panel/':
      return alarmCommand(payload);
    case 'climate/mode':
      return { service: 'set_hvac_mode', data: { hvac_mode: payload.trim() } };
    case 'climate/temperature':
      return { service: 'set_temperature', data: { temperature: number(payload, 'temperature') } };
    case 'climate/temperature_low':
      return rangeCommand('low', payload, attributes);
    case 'climate/temperature_high':
      return rangeCommand('high', payload, attributes);
    case 'climate/humidity':
      return { service: 'set_humidity', data: { humidity: number(payload, 'humidity') } };
    case 'climate/fan_mode':
      return { service: 'set_fan_mode', data: { fan_mode: payload.trim() } };
    case 'climate/preset_mode':
      return { service: 'set_preset_mode', data: { preset_mode: payload.trim() } };
    case 'climate/swing_mode':
      return { service: 'set_swing_mode', data: { swing_mode: payload.trim() } };
    case 'fan/percentage':
      return fanPercentage(payload, attributes);
    case 'fan/preset_mode':
      return { service: 'set_preset_mode', data: { preset_mode: payload.trim() } };
    case 'button/':
      if (payload.trim().toUpperCase() !== 'PRESS') throw refuse('button', payload, 'PRESS');
      return { service: 'press', data: {} };
    case 'number/':
      return { service: 'set_value', data: { value: number(payload, 'number') } };
    case 'select/':
      // The option as it is: select.select_option refuses one the entity does not have, naming its options.
      return { service: 'select_option', data: { option: payload } };
    case 'fan/oscillation':
      return { service: 'oscillate', data: { oscillating: ['true', 'oscillate_on', 'on'].includes(payload.trim().toLowerCase()) } };
    default:
      throw new HubError('invalid_format', `command ${key.replace(/\/$/, '')}: no such command for a ${domain} entity`);
  }
}
