/**
 * The entities zigbee2mqtt's Home Assistant extension makes of each device, written by hand from its rules:
 * Koenkk/zigbee2mqtt lib/extension/homeassistant.ts (exposeToConfig, getConfigs, discover's object_id and
 * default_entity_id, and the BINARY/NUMERIC/ENUM/LIST lookup tables) and the full payloads in
 * test/extensions/homeassistant.test.ts, at commit 6835cbf5a73116aa4bfa097f2ad0dfb972018997, applied to each
 * definition's exposes in zigbee-herdsman-converters 26.112.0.
 *
 * One row per entity: `entity_id | category | enabled | attributes`. Category: `-` none, `config`, `diagnostic`.
 * Enabled: `on`, or `off` for enabled_by_default false. Attributes (only these are compared, and all of them):
 * u unit_of_measurement, dc device_class, sc state_class, o options (comma-separated), min, max, step.
 */

export interface MappedDevice {
  readonly name: string;
  readonly modelID: string;
  readonly manufacturerName: string;
  readonly endpoints?: readonly number[];
  /** The converters' model it must resolve to. */
  readonly model: string;
  readonly rows: readonly string[];
}

const LQI = (slug: string) => `sensor.${slug}_linkquality | diagnostic | off | u=lqi sc=measurement`;
const battery = (slug: string) => `sensor.${slug}_battery | diagnostic | on | u=% dc=battery sc=measurement`;
const batteryLow = (slug: string) => `binary_sensor.${slug}_battery_low | diagnostic | on | dc=battery`;
const mv = (slug: string) => `sensor.${slug}_voltage | diagnostic | on | u=mV dc=voltage sc=measurement`;
const devTemp = (slug: string) => `sensor.${slug}_device_temperature | diagnostic | on | u=°C dc=temperature sc=measurement`;
const identify = (slug: string) => `button.${slug}_identify | config | on | dc=identify`;
const outages = (slug: string) => `sensor.${slug}_power_outage_count | diagnostic | off | sc=measurement`;
const triggers = (slug: string) => `sensor.${slug}_trigger_count | diagnostic | off | sc=measurement`;
const POB = 'o=off,on,toggle,previous';

export const MAPPED_DEVICES: readonly MappedDevice[] = [
  // The fixtures' devices.
  {
    name: 'Living Room Bulb',
    modelID: 'TRADFRI bulb E27 WS opal 980lm',
    manufacturerName: 'IKEA of Sweden',
    model: 'LED1545G12',
    rows: [
      'light.living_room_bulb | - | on |',
      'select.living_room_bulb_effect | - | off | o=blink,breathe,okay,channel_change,finish_effect,stop_effect',
      `select.living_room_bulb_power_on_behavior | config | on | ${POB}`,
      'sensor.living_room_bulb_color_options | diagnostic | on |',
      identify('living_room_bulb'),
      `update.living_room_bulb | config | on | dc=firmware`,
      LQI('living_room_bulb'),
    ],
  },
  {
    name: 'Living Room',
    modelID: 'lumi.weather',
    manufacturerName: 'LUMI',
    model: 'WSDCGQ11LM',
    rows: [
      battery('living_room'),
      'sensor.living_room_temperature | - | on | u=°C dc=temperature sc=measurement',
      'sensor.living_room_humidity | - | on | u=% dc=humidity sc=measurement',
      'sensor.living_room_pressure | - | on | u=hPa dc=atmospheric_pressure sc=measurement',
      mv('living_room'),
      LQI('living_room'),
    ],
  },
  {
    name: 'Front Door',
    modelID: 'lumi.sensor_magnet.aq2',
    manufacturerName: 'LUMI',
    model: 'MCCGQ11LM',
    rows: [
      battery('front_door'),
      'binary_sensor.front_door_contact | - | on | dc=door',
      devTemp('front_door'),
      mv('front_door'),
      outages('front_door'),
      triggers('front_door'),
      identify('front_door'),
      LQI('front_door'),
    ],
  },
  {
    name: 'Kettle',
    modelID: 'TS011F',
    manufacturerName: '_TZ3000_gjnozsaz',
    model: 'NAS-WR01B',
    rows: [
      'switch.kettle | - | on |',
      'number.kettle_countdown | - | on | u=s min=0 max=43200 step=1',
      'select.kettle_power_outage_memory | config | on | o=on,off,restore',
      'select.kettle_switch_type_button | config | on | o=release,press',
      'select.kettle_indicator_mode | config | on | o=off,off/on,on/off,on',
      'sensor.kettle_power | - | on | u=W dc=power sc=measurement',
      'sensor.kettle_current | - | on | u=A dc=current sc=measurement',
      'sensor.kettle_voltage | - | on | u=V dc=voltage sc=measurement',
      'sensor.kettle_energy | - | on | u=kWh dc=energy sc=total_increasing',
      'switch.kettle_child_lock | config | on |',
      identify('kettle'),
      `update.kettle | config | on | dc=firmware`,
      LQI('kettle'),
    ],
  },
  {
    name: 'Hall Dimmer',
    modelID: 'RWL021',
    manufacturerName: 'Philips',
    endpoints: [1, 2],
    model: '324131092621',
    rows: [
      battery('hall_dimmer'),
      'sensor.hall_dimmer_action_duration | diagnostic | on | u=s dc=duration',
      `update.hall_dimmer | config | on | dc=firmware`,
      LQI('hall_dimmer'),
    ],
  },
  {
    name: 'Bedroom Radiator',
    modelID: 'eTRV0100',
    manufacturerName: 'Danfoss',
    model: '014G2461',
    rows: [
      'sensor.bedroom_radiator_system_status_code | diagnostic | on |',
      'climate.bedroom_radiator | - | on |',
      'sensor.bedroom_radiator_pi_heating_demand | diagnostic | on | u=%',
      'sensor.bedroom_radiator_local_temperature | - | on | u=°C dc=temperature sc=measurement',
      'number.bedroom_radiator_max_heat_setpoint_limit | - | on | u=°C min=5 max=35 step=0.5',
      'select.bedroom_radiator_programming_operation_mode | - | on | o=setpoint,schedule,schedule_with_preheat,eco',
      'number.bedroom_radiator_occupied_heating_setpoint_scheduled | - | on | u=°C min=5 max=35 step=0.5',
      'sensor.bedroom_radiator_abs_max_heat_setpoint_limit | diagnostic | on | u=°C',
      battery('bedroom_radiator'),
      'select.bedroom_radiator_keypad_lockout | config | on | o=unlock,lock',
      'binary_sensor.bedroom_radiator_mounted_mode_active | diagnostic | on |',
      'switch.bedroom_radiator_mounted_mode_control | config | on |',
      'switch.bedroom_radiator_thermostat_orientation | config | on |',
      'switch.bedroom_radiator_viewing_direction | config | on |',
      'switch.bedroom_radiator_heat_available | config | on |',
      'binary_sensor.bedroom_radiator_heat_required | diagnostic | on |',
      'sensor.bedroom_radiator_setpoint_change_source | diagnostic | on |',
      'number.bedroom_radiator_external_measured_room_sensor | - | on | min=-8000 max=3500 step=1',
      'switch.bedroom_radiator_radiator_covered | - | on |',
      'switch.bedroom_radiator_window_open_feature | config | on |',
      'sensor.bedroom_radiator_window_open_internal | diagnostic | on |',
      'switch.bedroom_radiator_window_open_external | - | on |',
      'select.bedroom_radiator_day_of_week | config | on | o=sunday,monday,tuesday,wednesday,thursday,friday,saturday,away_or_vacation',
      'text.bedroom_radiator_trigger_time | config | on | min=0 max=255',
      'number.bedroom_radiator_algorithm_scale_factor | - | on | min=1 max=10 step=1',
      'switch.bedroom_radiator_load_balancing_enable | - | on |',
      'number.bedroom_radiator_load_room_mean | - | on | min=-8000 max=3600 step=1',
      'sensor.bedroom_radiator_load_estimate | - | on | sc=measurement',
      'binary_sensor.bedroom_radiator_preheat_status | - | on |',
      'sensor.bedroom_radiator_preheat_time | - | on |',
      'sensor.bedroom_radiator_adaptation_run_status | - | on |',
      'switch.bedroom_radiator_adaptation_run_settings | - | on |',
      'select.bedroom_radiator_adaptation_run_control | - | on | o=idle,initiate_adaptation,cancel_adaptation',
      'number.bedroom_radiator_regulation_setpoint_offset | config | on | u=°C min=-2.5 max=2.5 step=0.1',
      `update.bedroom_radiator | config | on | dc=firmware`,
      LQI('bedroom_radiator'),
    ],
  },
  // Models beyond the fixtures.
  {
    name: 'Hall Motion',
    modelID: 'SML001',
    manufacturerName: 'Philips',
    model: '9290012607',
    rows: [
      'sensor.hall_motion_temperature | - | on | u=°C dc=temperature sc=measurement',
      'binary_sensor.hall_motion_occupancy | - | on | dc=occupancy',
      battery('hall_motion'),
      'select.hall_motion_motion_sensitivity | config | on | o=low,medium,high',
      'switch.hall_motion_led_indication | config | on |',
      'number.hall_motion_occupancy_timeout | config | on | u=s min=0 max=65535 step=1',
      'sensor.hall_motion_illuminance | - | on | u=lx dc=illuminance sc=measurement',
      identify('hall_motion'),
      `update.hall_motion | config | on | dc=firmware`,
      LQI('hall_motion'),
    ],
  },
  {
    name: 'Desk Lamp',
    modelID: 'LCT015',
    manufacturerName: 'Philips',
    model: '9290012573A',
    rows: [
      'light.desk_lamp | - | on |',
      `select.desk_lamp_power_on_behavior | config | on | ${POB}`,
      'select.desk_lamp_effect | - | off | o=blink,breathe,okay,channel_change,candle,fireplace,colorloop,sunset,sunrise,sparkle,opal,glisten,underwater,cosmos,sunbeam,enchant,none,finish_effect,stop_effect,stop_hue_effect',
      'number.desk_lamp_effect_speed | - | on | min=0 max=1 step=0.01',
      'text.desk_lamp_effect_color | - | on | min=0 max=255',
      identify('desk_lamp'),
      `update.desk_lamp | config | on | dc=firmware`,
      LQI('desk_lamp'),
    ],
  },
  {
    name: 'Bath Leak',
    modelID: 'lumi.sensor_wleak.aq1',
    manufacturerName: 'LUMI',
    model: 'SJCGQ11LM',
    rows: [
      battery('bath_leak'),
      mv('bath_leak'),
      devTemp('bath_leak'),
      outages('bath_leak'),
      triggers('bath_leak'),
      'binary_sensor.bath_leak_water_leak | - | on | dc=moisture',
      batteryLow('bath_leak'),
      LQI('bath_leak'),
    ],
  },
  {
    name: 'Kitchen Smoke',
    modelID: 'lumi.sensor_smoke',
    manufacturerName: 'LUMI',
    model: 'JTYJ-GD-01LM/BW',
    rows: [
      'binary_sensor.kitchen_smoke_smoke | - | on | dc=smoke',
      batteryLow('kitchen_smoke'),
      'binary_sensor.kitchen_smoke_tamper | - | on | dc=tamper',
      battery('kitchen_smoke'),
      'select.kitchen_smoke_sensitivity | config | on | o=low,medium,high',
      'sensor.kitchen_smoke_smoke_density | - | on | sc=measurement',
      'button.kitchen_smoke_selftest | - | on |',
      mv('kitchen_smoke'),
      'binary_sensor.kitchen_smoke_test | diagnostic | on |',
      devTemp('kitchen_smoke'),
      outages('kitchen_smoke'),
      LQI('kitchen_smoke'),
    ],
  },
  {
    name: 'Hall Remote',
    modelID: 'TRADFRI on/off switch',
    manufacturerName: 'IKEA of Sweden',
    model: 'E1743',
    rows: [identify('hall_remote'), battery('hall_remote'), `update.hall_remote | config | on | dc=firmware`, LQI('hall_remote')],
  },
  {
    name: 'Bedroom Blind',
    modelID: 'FYRTUR block-out roller blind',
    manufacturerName: 'IKEA of Sweden',
    model: 'E1757',
    rows: [
      'cover.bedroom_blind | - | on |',
      identify('bedroom_blind'),
      battery('bedroom_blind'),
      `update.bedroom_blind | config | on | dc=firmware`,
      LQI('bedroom_blind'),
    ],
  },
  {
    name: 'Fridge Plug',
    modelID: 'lumi.plug',
    manufacturerName: 'LUMI',
    model: 'ZNCZ02LM',
    rows: [
      'switch.fridge_plug | - | on |',
      'sensor.fridge_plug_power | - | on | u=W dc=power sc=measurement',
      'sensor.fridge_plug_energy | - | on | u=kWh dc=energy sc=total_increasing',
      devTemp('fridge_plug'),
      'switch.fridge_plug_power_outage_memory | config | on |',
      `update.fridge_plug | config | on | dc=firmware`,
      LQI('fridge_plug'),
    ],
  },
  {
    name: 'Back Door',
    modelID: 'DS01',
    manufacturerName: 'eWeLink',
    model: 'SNZB-04',
    rows: [
      battery('back_door'),
      mv('back_door'),
      'binary_sensor.back_door_contact | - | on | dc=door',
      batteryLow('back_door'),
      LQI('back_door'),
    ],
  },
  {
    name: 'Front Door Lock',
    modelID: 'YRD226 TSDB',
    manufacturerName: 'Yale',
    model: 'YRD226HA2619',
    rows: [
      'lock.front_door_lock | - | on |',
      battery('front_door_lock'),
      'sensor.front_door_lock_pin_code | - | on |',
      'sensor.front_door_lock_action_source_name | - | on |',
      'sensor.front_door_lock_action_user | - | on |',
      'number.front_door_lock_auto_relock_time | config | on | u=s min=0 max=3600 step=1',
      'select.front_door_lock_sound_volume | config | on | o=silent_mode,low_volume,high_volume',
      batteryLow('front_door_lock'),
      LQI('front_door_lock'),
    ],
  },
  {
    name: 'Desk Button',
    modelID: 'lumi.sensor_switch.aq2',
    manufacturerName: 'LUMI',
    model: 'WXKG11LM',
    rows: [
      battery('desk_button'),
      mv('desk_button'),
      devTemp('desk_button'),
      outages('desk_button'),
      identify('desk_button'),
      LQI('desk_button'),
    ],
  },
  {
    name: 'Hall Switch',
    modelID: 'lumi.ctrl_neutral2',
    manufacturerName: 'LUMI',
    endpoints: [1, 2, 3, 4, 5, 6, 7],
    model: 'QBKG03LM',
    rows: [
      'switch.hall_switch_left | - | on |',
      'switch.hall_switch_right | - | on |',
      devTemp('hall_switch'),
      'select.hall_switch_operation_mode_left | config | on | o=control_left_relay,control_right_relay,decoupled',
      'select.hall_switch_operation_mode_right | config | on | o=control_left_relay,control_right_relay,decoupled',
      `update.hall_switch | config | on | dc=firmware`,
      LQI('hall_switch'),
    ],
  },
  {
    name: 'Living TRV',
    modelID: 'TS0601',
    manufacturerName: '_TZE200_ckud7u2l',
    model: 'TS0601_thermostat',
    rows: [
      'switch.living_trv_child_lock | config | on |',
      'switch.living_trv_window_detection | config | on |',
      'binary_sensor.living_trv_window_open | - | on | dc=window',
      batteryLow('living_trv'),
      'switch.living_trv_valve_detection | config | on |',
      'sensor.living_trv_position | - | on | u=% sc=measurement',
      'climate.living_trv | - | on |',
      'number.living_trv_local_temperature_calibration | config | on | u=°C dc=temperature_delta min=-9 max=9 step=0.5',
      'sensor.living_trv_local_temperature | - | on | u=°C dc=temperature sc=measurement',
      'switch.living_trv_auto_lock | config | on |',
      'switch.living_trv_away_mode | config | on |',
      'number.living_trv_away_preset_days | config | on | min=0 max=100 step=1',
      'number.living_trv_boost_time | config | on | u=s min=0 max=900 step=1',
      'number.living_trv_comfort_temperature | config | on | u=°C min=0 max=30 step=1',
      'number.living_trv_eco_temperature | config | on | u=°C min=0 max=35 step=1',
      'select.living_trv_force | config | on | o=normal,open,close',
      'number.living_trv_max_temperature | config | on | u=°C min=16 max=70 step=1',
      'number.living_trv_min_temperature | config | on | u=°C min=1 max=15 step=1',
      'number.living_trv_away_preset_temperature | config | on | u=°C min=-10 max=35 step=1',
      'select.living_trv_week | config | on | o=5+2,6+1,7',
      'text.living_trv_workdays_schedule | - | on | min=0 max=255',
      'text.living_trv_holidays_schedule | - | on | min=0 max=255',
      `update.living_trv | config | on | dc=firmware`,
      LQI('living_trv'),
    ],
  },
];

/** The catalogue's plug (the fake stick's) is a TS011F_plug_1, with the same exposes as the NAS-WR01B above. */
const kettle = MAPPED_DEVICES.find((d) => d.name === 'Kettle');
export const CATALOGUE_PLUG: MappedDevice = {
  name: 'Kettle',
  modelID: 'TS011F',
  manufacturerName: '_TZ3000_cphmq0q7',
  model: 'TS011F_plug_1',
  rows: kettle?.rows ?? [],
};
