import { isJsonObject, type JsonObject, type JsonValue } from '../core/json.js';
import { ownValue, setOwn } from '../core/own-keys.js';

/** Home Assistant's discovery abbreviations (components/mqtt/abbreviations.py), the ones adopted components read. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  act_t: 'action_topic',
  act_tpl: 'action_template',
  atype: 'automation_type',
  avty: 'availability',
  avty_mode: 'availability_mode',
  avty_t: 'availability_topic',
  avty_tpl: 'availability_template',
  bri_cmd_t: 'brightness_command_topic',
  bri_cmd_tpl: 'brightness_command_template',
  bri_scl: 'brightness_scale',
  bri_stat_t: 'brightness_state_topic',
  bri_val_tpl: 'brightness_value_template',
  clr_temp_cmd_t: 'color_temp_command_topic',
  clr_temp_stat_t: 'color_temp_state_topic',
  clr_temp_val_tpl: 'color_temp_value_template',
  clrm: 'color_mode',
  cmd_off_tpl: 'command_off_template',
  cmd_on_tpl: 'command_on_template',
  cmd_t: 'command_topic',
  cmd_tpl: 'command_template',
  cmps: 'components',
  curr_temp_t: 'current_temperature_topic',
  curr_temp_tpl: 'current_temperature_template',
  dev: 'device',
  dev_cla: 'device_class',
  def_ent_id: 'default_entity_id',
  e: 'encoding',
  en: 'enabled_by_default',
  ent_cat: 'entity_category',
  ent_pic: 'entity_picture',
  exp_aft: 'expire_after',
  frc_upd: 'force_update',
  fx_cmd_t: 'effect_command_topic',
  fx_list: 'effect_list',
  fx_stat_t: 'effect_state_topic',
  fx_val_tpl: 'effect_value_template',
  ic: 'icon',
  json_attr_t: 'json_attributes_topic',
  json_attr_tpl: 'json_attributes_template',
  max_mirs: 'max_mireds',
  min_mirs: 'min_mireds',
  max_kvn: 'max_kelvin',
  min_kvn: 'min_kelvin',
  mode_cmd_t: 'mode_command_topic',
  mode_cmd_tpl: 'mode_command_template',
  mode_stat_t: 'mode_state_topic',
  mode_stat_tpl: 'mode_state_template',
  o: 'origin',
  obj_id: 'object_id',
  off_dly: 'off_delay',
  on_cmd_type: 'on_command_type',
  ops: 'options',
  opt: 'optimistic',
  p: 'platform',
  pct_cmd_t: 'percentage_command_topic',
  pct_cmd_tpl: 'percentage_command_template',
  pct_stat_t: 'percentage_state_topic',
  pct_val_tpl: 'percentage_value_template',
  pl: 'payload',
  pl_avail: 'payload_available',
  pl_cls: 'payload_close',
  pl_lock: 'payload_lock',
  pl_not_avail: 'payload_not_available',
  pl_off: 'payload_off',
  pl_on: 'payload_on',
  pl_open: 'payload_open',
  pl_prs: 'payload_press',
  pl_rst: 'payload_reset',
  pl_stop: 'payload_stop',
  pl_unlk: 'payload_unlock',
  pos_clsd: 'position_closed',
  pos_open: 'position_open',
  pos_t: 'position_topic',
  pos_tpl: 'position_template',
  pr_mode_cmd_t: 'preset_mode_command_topic',
  pr_mode_stat_t: 'preset_mode_state_topic',
  pr_mode_val_tpl: 'preset_mode_value_template',
  pr_modes: 'preset_modes',
  ret: 'retain',
  set_pos_t: 'set_position_topic',
  set_pos_tpl: 'set_position_template',
  stat_cla: 'state_class',
  stat_clsd: 'state_closed',
  stat_closing: 'state_closing',
  stat_jam: 'state_jammed',
  stat_locked: 'state_locked',
  stat_locking: 'state_locking',
  stat_off: 'state_off',
  stat_on: 'state_on',
  stat_open: 'state_open',
  stat_opening: 'state_opening',
  stat_stopped: 'state_stopped',
  stat_t: 'state_topic',
  stat_tpl: 'state_template',
  stat_unlocked: 'state_unlocked',
  stat_unlocking: 'state_unlocking',
  stat_val_tpl: 'state_value_template',
  stype: 'subtype',
  sug_dsp_prc: 'suggested_display_precision',
  sup_clrm: 'supported_color_modes',
  sup_feat: 'supported_features',
  t: 'topic',
  temp_cmd_t: 'temperature_command_topic',
  temp_cmd_tpl: 'temperature_command_template',
  temp_stat_t: 'temperature_state_topic',
  temp_stat_tpl: 'temperature_state_template',
  temp_unit: 'temperature_unit',
  uniq_id: 'unique_id',
  unit_of_meas: 'unit_of_measurement',
  val_tpl: 'value_template',
};

const DEVICE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  cns: 'connections',
  cu: 'configuration_url',
  hw: 'hw_version',
  ids: 'identifiers',
  mdl: 'model',
  mdl_id: 'model_id',
  mf: 'manufacturer',
  sa: 'suggested_area',
  sn: 'serial_number',
  sw: 'sw_version',
};

const ORIGIN_ABBREVIATIONS: Readonly<Record<string, string>> = { sw: 'sw_version', url: 'support_url' };

function expandKeys(o: JsonObject, table: Readonly<Record<string, string>>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  // Keys from the broker: `constructor` is not an abbreviation, and `__proto__` stays a key.
  for (const [k, v] of Object.entries(o)) setOwn(out, ownValue(table, k) ?? k, v);
  return out;
}

/** `~` at the start or end of a topic is the payload's base topic (Home Assistant's rule). */
function expandBase(topic: JsonValue, base: string | undefined): JsonValue {
  if (typeof topic !== 'string' || base === undefined) return topic;
  if (topic.startsWith('~')) return base + topic.slice(1);
  if (topic.endsWith('~')) return topic.slice(0, -1) + base;
  return topic;
}

/** A discovery payload with every abbreviation expanded and `~` substituted in topics, as discovery.py does. */
export function expandDiscovery(payload: JsonObject): Record<string, JsonValue> {
  const out = expandKeys(payload, ABBREVIATIONS);
  const base = typeof out['~'] === 'string' ? out['~'] : undefined;
  for (const [k, v] of Object.entries(out)) if (k.endsWith('_topic') || k === 'topic') out[k] = expandBase(v, base);
  if (isJsonObject(out.device)) out.device = expandKeys(out.device, DEVICE_ABBREVIATIONS);
  if (isJsonObject(out.origin)) out.origin = expandKeys(out.origin, ORIGIN_ABBREVIATIONS);
  if (Array.isArray(out.availability)) {
    out.availability = (out.availability as JsonValue[]).map((a) => {
      if (!isJsonObject(a)) return a;
      const e = expandKeys(a, ABBREVIATIONS);
      e.topic = expandBase(e.topic ?? null, base);
      return e;
    });
  }
  return out;
}
