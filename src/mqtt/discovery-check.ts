import { HubError } from '../core/errors.js';
import { isJsonObject, type JsonValue } from '../core/json.js';
import { HVAC_MODES } from '../domains/climate.js';
import { coerceNumber } from './adopt-values.js';
import { isValidTopic } from './topics.js';

// The parts of Home Assistant's discovery schemas (PLATFORM_SCHEMA_MODERN of each component) that decide whether a
// config is adopted: a config that breaks one is refused with one line naming the field and what is allowed.

const show = (v: JsonValue | undefined): string => {
  const text = JSON.stringify(v) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

const refuse = (field: string, v: JsonValue | undefined, allowed: string): HubError =>
  new HubError('invalid_format', `${field}: ${show(v)} is not allowed: expected ${allowed}`);

function oneOf(c: Record<string, JsonValue>, field: string, allowed: readonly (string | number | boolean)[]): void {
  const v = c[field];
  if (v !== undefined && !allowed.includes(v as string)) throw refuse(field, v, `one of ${allowed.join(', ')}`);
}

function listOf(c: Record<string, JsonValue>, field: string, allowed?: readonly string[]): void {
  const v = c[field];
  if (v === undefined) return;
  const what = allowed ? `a list of ${allowed.join(', ')}` : 'a list of strings';
  if (!Array.isArray(v)) throw refuse(field, v, what);
  for (const x of v as JsonValue[]) if (typeof x !== 'string' || (allowed && !allowed.includes(x))) throw refuse(field, v, what);
}

function numeric(c: Record<string, JsonValue>, field: string): void {
  const v = c[field];
  if (v !== undefined && v !== null && coerceNumber(v) === undefined) throw refuse(field, v, 'a number');
}

const COLOR_MODES = ['onoff', 'brightness', 'color_temp', 'hs', 'xy', 'rgb', 'rgbw', 'rgbww', 'white'] as const;
const STATE_CLASSES = ['measurement', 'measurement_angle', 'total', 'total_increasing'] as const;

/** Throws a HubError naming the first field of `c` (expanded) that Home Assistant's schema for `component` refuses. */
export function checkDiscovery(component: string, c: Record<string, JsonValue>): void {
  oneOf(c, 'qos', [0, 1, 2]);
  oneOf(c, 'availability_mode', ['all', 'any', 'latest']);
  oneOf(c, 'entity_category', ['config', 'diagnostic']);
  oneOf(c, 'enabled_by_default', [true, false]);
  oneOf(c, 'retain', [true, false]);
  oneOf(c, 'optimistic', [true, false]);
  for (const [field, v] of Object.entries(c)) {
    // Topics: text; the ones published to without wildcards (valid_publish_topic).
    if (field.endsWith('_topic') && v !== undefined && v !== null) {
      if (typeof v !== 'string' || v === '') throw refuse(field, v, 'a topic');
      if (field.endsWith('command_topic') && !isValidTopic(v)) throw refuse(field, v, 'a topic without + or #');
    }
    if (field.endsWith('_template') && v !== undefined && v !== null && typeof v !== 'string') throw refuse(field, v, 'a template (text)');
  }
  if (c.device !== undefined && !isJsonObject(c.device)) throw refuse('device', c.device, 'a mapping');
  // cv.ensure_list: one mapping is a list of one.
  if (c.availability !== undefined) {
    const list = Array.isArray(c.availability) ? (c.availability as JsonValue[]) : [c.availability];
    for (const a of list)
      if (!isJsonObject(a) || typeof a.topic !== 'string') throw refuse('availability', c.availability, 'a list of mappings with a topic');
  }
  switch (component) {
    case 'sensor':
      oneOf(c, 'state_class', STATE_CLASSES);
      numeric(c, 'suggested_display_precision');
      numeric(c, 'expire_after');
      break;
    case 'light':
      oneOf(c, 'schema', ['basic', 'json', 'template']);
      listOf(c, 'supported_color_modes', COLOR_MODES);
      numeric(c, 'brightness_scale');
      break;
    case 'climate':
      listOf(c, 'modes', HVAC_MODES);
      oneOf(c, 'temperature_unit', ['C', 'F']);
      for (const f of ['min_temp', 'max_temp', 'temp_step', 'min_humidity', 'max_humidity', 'initial']) numeric(c, f);
      if (c.precision !== undefined && ![0.1, 0.5, 1].includes(coerceNumber(c.precision) ?? Number.NaN))
        throw refuse('precision', c.precision, 'one of 0.1, 0.5, 1.0');
      for (const f of ['fan_modes', 'swing_modes', 'preset_modes']) listOf(c, f);
      if (Array.isArray(c.preset_modes) && (c.preset_modes as JsonValue[]).includes('none'))
        throw refuse('preset_modes', c.preset_modes, "preset modes without 'none' (no preset is its own state)");
      break;
    case 'fan': {
      numeric(c, 'speed_range_min');
      numeric(c, 'speed_range_max');
      const min = coerceNumber(c.speed_range_min) ?? 1;
      const max = coerceNumber(c.speed_range_max) ?? 100;
      if (min < 1) throw refuse('speed_range_min', c.speed_range_min, 'a number of at least 1');
      if (max <= min) throw refuse('speed_range_max', c.speed_range_max, `a number above speed_range_min (${min})`);
      listOf(c, 'preset_modes');
      break;
    }
    case 'cover':
      for (const f of ['position_open', 'position_closed', 'tilt_min', 'tilt_max']) numeric(c, f);
      break;
    case 'number':
      oneOf(c, 'mode', ['auto', 'box', 'slider']);
      for (const f of ['min', 'max', 'step']) numeric(c, f);
      if ((coerceNumber(c.max) ?? 100) < (coerceNumber(c.min) ?? 1)) throw refuse('max', c.max, `a number not below min (${show(c.min)})`);
      break;
    case 'select':
      if (!Array.isArray(c.options) || c.options.length === 0) throw refuse('options', c.options, 'a list of options (text)');
      break;
    default:
      break;
  }
}
