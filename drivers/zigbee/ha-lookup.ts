import { lookupTable, ownValue } from '../../src/core/own-keys.js';

/**
 * What zigbee2mqtt's Home Assistant extension gives an expose by its name (device class, state class, entity
 * category, icon, enabled by default), as facts taken from Koenkk/zigbee2mqtt lib/extension/homeassistant.ts at
 * commit 6835cbf5a73116aa4bfa097f2ad0dfb972018997 (its BINARY_, NUMERIC_, ENUM_ and LIST_DISCOVERY_LOOKUP and the
 * switch names it gives their own entity). Written here in hearth's own form; tables without prototypes, since
 * the names come from device definitions.
 */
export interface Hint {
  readonly dc?: string;
  readonly sc?: 'measurement' | 'total_increasing';
  readonly cat?: 'config' | 'diagnostic';
  readonly icon?: string;
  /** enabled_by_default as zigbee2mqtt sets it; undefined leaves the default (enabled). */
  readonly enabled?: boolean;
}

const M = 'measurement' as const;
const TI = 'total_increasing' as const;
const cfg = (icon?: string): Hint => (icon === undefined ? { cat: 'config' } : { cat: 'config', icon });
const diag = (icon?: string): Hint => (icon === undefined ? { cat: 'diagnostic' } : { cat: 'diagnostic', icon });
const meas = (dc?: string, extra: Hint = {}): Hint => ({ ...(dc === undefined ? {} : { dc }), sc: M, ...extra });
const many = (names: string, hint: Hint): Record<string, Hint> => Object.fromEntries(names.split(' ').map((n) => [n, hint]));

/** A `switch` composite whose state is one of these is its own entity (object id = the property), not the device's switch. */
export const SWITCH_OWN_ENTITY = lookupTable<Hint>({
  auto_lock: cfg('mdi:lock'),
  away_mode: cfg('mdi:home-export-outline'),
  comfort_smiley: cfg('mdi:emoticon-happy-outline'),
  enable_display: cfg('mdi:monitor'),
  indicator: cfg('mdi:led-on'),
  tilt_mode: cfg('mdi:angle-acute'),
  valve_detection: cfg('mdi:pipe-valve'),
  window_detection: cfg('mdi:window-open-variant'),
});

const BINARY = lookupTable<Hint>({
  activity_led_indicator: { icon: 'mdi:led-on' },
  ...many('area1Occupancy area2Occupancy area3Occupancy area4Occupancy occupancy presence', { dc: 'occupancy' }),
  auto_lock: cfg('mdi:lock'),
  auto_off: { icon: 'mdi:flash-auto' },
  away_mode: cfg('mdi:home-export-outline'),
  battery_low: { cat: 'diagnostic', dc: 'battery' },
  button_lock: cfg('mdi:lock'),
  ...many('calibration calibration_left calibration_right', cfg('mdi:progress-wrench')),
  ...many(
    'capabilities_configurable_curve capabilities_forward_phase_control capabilities_overload_detection capabilities_reactance_discriminator capabilities_reverse_phase_control status_capacitive_load status_forward_phase_control status_inductive_load status_overload status_reverse_phase_control',
    diag('mdi:tune'),
  ),
  carbon_monoxide: { dc: 'carbon_monoxide' },
  card: cfg('mdi:clipboard-check'),
  child_lock: cfg('mdi:account-lock'),
  color_sync: cfg('mdi:sync-circle'),
  consumer_connected: { dc: 'plug' },
  contact: { dc: 'door' },
  garage_door_contact: { dc: 'garage_door' },
  frost_protection: cfg('mdi:snowflake-thermometer'),
  heating_stop: cfg('mdi:radiator-off'),
  eco_mode: cfg('mdi:leaf'),
  enable_display: cfg('mdi:monitor'),
  expose_pin: cfg('mdi:pin'),
  ...many('flip_indicator_light invert_cover motor_reversal motor_reversal_left motor_reversal_right', cfg('mdi:arrow-left-right')),
  gas: { dc: 'gas' },
  ...many('indicator indicator_mode led_indication led_enable', cfg('mdi:led-on')),
  led_disabled_night: cfg('mdi:led-off'),
  moving: { dc: 'moving' },
  no_position_support: cfg('mdi:minus-circle-outline'),
  noise_detected: { dc: 'sound' },
  power_outage_memory: cfg('mdi:memory'),
  rain_status: { dc: 'moisture', icon: 'mdi:weather-pouring' },
  setup: { dc: 'running' },
  smoke: { dc: 'smoke' },
  sos: { dc: 'safety' },
  schedule: { icon: 'mdi:calendar' },
  tamper: { dc: 'tamper' },
  temperature_scale: cfg('mdi:temperature-celsius'),
  test: diag('mdi:test-tube'),
  th_heater: { icon: 'mdi:heat-wave' },
  tilt_mode: cfg('mdi:angle-acute'),
  trigger_indicator: { icon: 'mdi:led-on' },
  valve_alarm: { dc: 'problem' },
  valve_detection: cfg('mdi:pipe-valve'),
  valve_state: { dc: 'opening' },
  vibration: { dc: 'vibration' },
  water_leak: { dc: 'moisture' },
  ...many('window window_open', { dc: 'window' }),
  window_detection: cfg('mdi:window-open-variant'),
});

const NUMERIC = lookupTable<Hint>({
  ac_frequency: meas('frequency'),
  action_duration: { dc: 'duration', icon: 'mdi:timer' },
  alarm_humidity_max: { dc: 'humidity', ...cfg('mdi:water-plus') },
  alarm_humidity_min: { dc: 'humidity', ...cfg('mdi:water-minus') },
  alarm_temperature_max: { dc: 'temperature', ...cfg('mdi:thermometer-high') },
  alarm_temperature_min: { dc: 'temperature', ...cfg('mdi:thermometer-low') },
  ...many('angle angle_axis', { icon: 'angle-acute' }),
  apparent_temperature: meas('temperature', { icon: 'mdi:thermometer-lines' }),
  aqi: meas('aqi'),
  ...many(
    'auto_relock_time away_preset_days boost_heating_countdown_time_set boost_time detection_delay duration fading_time interval_time occupancy_timeout presence_timeout vibration_timeout',
    cfg('mdi:timer'),
  ),
  ...many('away_preset_temperature comfort_temperature deadzone_temperature eco_temperature', cfg('mdi:thermometer')),
  ...many('ballast_maximum_level ballast_minimum_level minimum_on_level', cfg()),
  ...many('ballast_physical_maximum_level ballast_physical_minimum_level', diag()),
  battery: meas('battery'),
  battery2: meas('battery', { cat: 'diagnostic' }),
  battery_voltage: meas('voltage', { cat: 'diagnostic', enabled: true }),
  boost_heating_countdown: { dc: 'duration' },
  ...many(
    'calibration calibration_time calibration_time_left calibration_time_right humidity_calibration illuminance_calibration soil_calibration temperature_calibration',
    cfg('mdi:wrench-clock'),
  ),
  co2: meas('carbon_dioxide'),
  ...many('comfort_humidity_max comfort_humidity_min', { dc: 'humidity', ...cfg('mdi:water-percent') }),
  comfort_temperature_max: { dc: 'temperature', ...cfg('mdi:thermometer-high') },
  comfort_temperature_min: { dc: 'temperature', ...cfg('mdi:thermometer-low') },
  ...many('cpu_temperature device_temperature internalTemperature', meas('temperature', { cat: 'diagnostic' })),
  cube_side: { icon: 'mdi:cube' },
  ...many('current current_phase_b current_phase_c', meas('current')),
  detection_interval: { icon: 'mdi:timer' },
  dew_point: meas('temperature', { icon: 'mdi:thermometer-water' }),
  distance: meas('distance'),
  eco2: meas('volatile_organic_compounds_parts'),
  energy: { dc: 'energy', sc: TI },
  external_temperature_input: { dc: 'temperature', icon: 'mdi:thermometer' },
  external_temperature: meas('temperature', { icon: 'mdi:thermometer' }),
  external_humidity: meas('humidity', { icon: 'mdi:water-percent' }),
  formaldehyd: meas(),
  flow: meas('volume_flow_rate'),
  gas: { dc: 'gas', sc: TI, icon: 'mdi:meter-gas' },
  ...many('gas_density smoke_density', meas(undefined, { icon: 'mdi:google-circles-communities' })),
  gust_speed: meas('wind_speed', { icon: 'mdi:weather-windy-variant' }),
  hcho: meas(undefined, { icon: 'mdi:air-filter' }),
  heat_stress: meas(undefined, { icon: 'mdi:weather-sunny-alert' }),
  humidex: meas('temperature', { icon: 'mdi:thermometer-alert' }),
  humidity: meas('humidity'),
  ...many('humidity_max humidity_min', cfg('mdi:water-percent')),
  illuminance: meas('illuminance'),
  illuminance_raw: meas(),
  linkquality: meas(undefined, { cat: 'diagnostic', icon: 'mdi:signal', enabled: false }),
  load_estimate: meas(),
  local_temperature: meas('temperature'),
  ...many(
    'large_motion_detection_distance max_range maximum_range minimum_range medium_motion_detection_distance small_detection_distance',
    cfg('mdi:signal-distance-variant'),
  ),
  ...many(
    'large_motion_detection_sensitivity medium_motion_detection_sensitivity motion_sensitivity occupancy_sensitivity small_detection_sensitivity',
    cfg('mdi:motion-sensor'),
  ),
  ...many('max_temperature max_temperature_limit', cfg('mdi:thermometer-high')),
  ...many('min_temperature min_temperature_limit', cfg('mdi:thermometer-low')),
  ...many('measurement_interval measurement_poll_interval soil_sampling temperature_sampling', cfg('mdi:clock-out')),
  noise: meas('sound_pressure'),
  noise_detect_level: { icon: 'mdi:volume-equal' },
  noise_timeout: { icon: 'mdi:timer' },
  occupancy_level: meas(undefined, { icon: 'mdi:motion-sensor' }),
  overload_protection: { icon: 'mdi:flash' },
  pm10: meas('pm10'),
  pm25: meas('pm25'),
  people: meas(undefined, { icon: 'mdi:account-multiple' }),
  position: meas(undefined, { icon: 'mdi:valve' }),
  ...many('power power_phase_b power_phase_c', meas('power')),
  power_factor: meas('power_factor', { cat: 'diagnostic', enabled: false }),
  ...many('power_outage_count trigger_count', meas(undefined, { icon: 'mdi:counter', enabled: false })),
  precipitation: { dc: 'precipitation', sc: TI, icon: 'mdi:weather-rainy' },
  precision: cfg('mdi:decimal-comma-increase'),
  pressure: meas('atmospheric_pressure'),
  pressure_trend: meas(undefined, { icon: 'mdi:trending-up' }),
  rain_rate: meas('precipitation_intensity', { icon: 'mdi:weather-pouring' }),
  reporting_time: cfg('mdi:clock-time-one-outline'),
  ...many('requested_brightness_level requested_brightness_percent', { cat: 'diagnostic', icon: 'mdi:brightness-5', enabled: false }),
  sensitivity: cfg('mdi:tune'),
  soil_fertility: meas('conductivity'),
  soil_moisture: meas('moisture'),
  soil_warning: cfg('mdi:water-percent-alert'),
  ...many('temperature temperature_probe', meas('temperature')),
  temperature_max: cfg('mdi:thermometer-plus'),
  temperature_min: cfg('mdi:thermometer-minus'),
  temperature_offset: { icon: 'mdi:thermometer-lines' },
  transition: cfg('mdi:transition'),
  uv_index: meas(undefined, { icon: 'mdi:white-balance-sunny' }),
  voc: meas('volatile_organic_compounds'),
  voc_index: meas(undefined, { icon: 'mdi:molecule' }),
  voc_parts: meas('volatile_organic_compounds_parts'),
  ...many('voltage voltage_phase_b voltage_phase_c', meas('voltage')),
  water_consumed: { dc: 'water', sc: TI },
  wind_chill: meas('temperature', { icon: 'mdi:snowflake-thermometer' }),
  wind_direction: meas(undefined, { icon: 'mdi:compass-outline' }),
  wind_speed: meas('wind_speed', { icon: 'mdi:weather-windy' }),
  ...many('x x_axis', meas(undefined, { icon: 'mdi:axis-x-arrow' })),
  ...many('y y_axis', meas(undefined, { icon: 'mdi:axis-y-arrow' })),
  ...many('z z_axis', meas(undefined, { icon: 'mdi:axis-z-arrow' })),
});

const ENUM = lookupTable<Hint>({
  action: { icon: 'mdi:gesture-double-tap' },
  alarm_humidity: cfg('mdi:water-percent-alert'),
  alarm_temperature: cfg('mdi:thermometer-alert'),
  backlight_auto_dim: cfg('mdi:brightness-auto'),
  backlight_mode: cfg('mdi:lightbulb'),
  ...many('calibrate mode_switch sensor', { icon: 'mdi:tune' }),
  color_power_on_behavior: cfg('mdi:palette'),
  ...many(
    'control_mode device_mode load_detection_mode mode_phase_control mode motion_sensitivity operation_mode sensitivity sensors_type switch_type',
    cfg('mdi:tune'),
  ),
  effect: { icon: 'mdi:palette', enabled: false },
  force: cfg('mdi:valve'),
  keep_time: cfg('mdi:av-timer'),
  identify: { dc: 'identify' },
  keypad_lockout: cfg('mdi:lock'),
  load_dimmable: cfg('mdi:chart-bell-curve'),
  load_type: cfg('mdi:led-on'),
  melody: cfg('mdi:music-note'),
  motor_direction: cfg('mdi:arrow-left-right'),
  ...many('power_on_behavior power_outage_memory power_supply_mode', cfg('mdi:power-settings')),
  power_type: cfg('mdi:lightning-bolt-circle'),
  restart: { dc: 'restart' },
  set_limits: cfg('mdi:ray-start-end'),
  sound_volume: cfg('mdi:volume-high'),
  status: { icon: 'mdi:state-machine' },
  ...many('temperature_display_mode thermostat_unit', cfg('mdi:thermometer')),
  temperature_sensor_select: cfg('mdi:home-thermometer'),
  temperature_unit: cfg('mdi:temperature-celsius'),
  update: { dc: 'update' },
  volume: cfg('mdi: volume-high'),
  weather_condition: { icon: 'mdi:weather-partly-cloudy' },
  week: cfg('mdi:calendar-clock'),
});

const LIST = lookupTable<Hint>({
  action: { icon: 'mdi:gesture-double-tap' },
  color_options: { icon: 'mdi:palette' },
  level_config: diag(),
  programming_mode: { icon: 'mdi:calendar-clock' },
  schedule_settings: cfg('mdi:calendar-clock'),
});

const TABLES = { binary: BINARY, numeric: NUMERIC, enum: ENUM, list: LIST } as const;

/** zigbee2mqtt's hint for an expose of that kind and name (the list table also serves text and composite exposes). */
export function hintFor(table: keyof typeof TABLES, name: string): Hint {
  return ownValue(TABLES[table], name) ?? {};
}

/** A read-only numeric's device and state class from its unit, as zigbee2mqtt derives them (after the name's). */
export function unitHint(unit: string | undefined): Hint {
  if (unit === 'Wh' || unit === 'kWh') return { dc: 'energy', sc: TI };
  if (unit === 'A' || unit === 'mA') return { dc: 'current', sc: M };
  if (unit === 'mW' || unit === 'W' || unit === 'kW') return { dc: 'power', sc: M };
  return {};
}
