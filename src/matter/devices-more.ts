// The Matter devices besides lights and switches: fans, covers, locks, thermostats, sensors and binary sensors.
// Matter's units: hundredths of a degree Celsius and of a percent; covers count closed from 0 (open) to 10000.
import type { State } from '../core/state.js';
import { clamp, type DeviceKind, num, onChange, typeWith } from './kind.js';
import type { MatterLib } from './lib.js';

/** A sensor's state in degrees Celsius (HA may report Fahrenheit). */
function celsius(s: State, value: unknown = s.state): number | undefined {
  const v = num(value);
  if (v === undefined) return undefined;
  const unit = s.attributes.unit_of_measurement ?? s.attributes.temperature_unit;
  return unit === '\u00b0F' ? ((v - 32) * 5) / 9 : v;
}

function fanKind(lib: MatterLib): DeviceKind | undefined {
  const type = lib.devices.FanDevice;
  if (type === undefined) return undefined;
  const percent = (s: State): number => (s.state === 'on' ? clamp(num(s.attributes.percentage) ?? 100, 0, 100) : 0);
  return {
    type,
    patch: (s) => {
      const p = percent(s);
      // FanMode: Off 0, Low 1, Medium 2, High 3, On 4; sequence 0 is Off/Low/Medium/High.
      const mode = p === 0 ? 0 : p <= 33 ? 1 : p <= 66 ? 2 : 3;
      return { fanControl: { fanModeSequence: 0, fanMode: mode, percentSetting: p, percentCurrent: p } };
    },
    listen(endpoint, link) {
      onChange(endpoint, 'fanControl', 'percentSetting', (value) => {
        const s = link.state();
        if (typeof value !== 'number' || s === undefined || value === percent(s)) return;
        if (value === 0) link.call('fan', 'turn_off');
        else link.call('fan', 'set_percentage', { percentage: value });
      });
      onChange(endpoint, 'fanControl', 'fanMode', (value) => {
        const s = link.state();
        if (s === undefined) return;
        if (value === 0 && s.state === 'on') link.call('fan', 'turn_off');
        else if (value === 4 && s.state !== 'on') link.call('fan', 'turn_on');
      });
    },
  };
}

function coverKind(lib: MatterLib): DeviceKind | undefined {
  const type = lib.devices.WindowCoveringDevice;
  const server = lib.behaviors.WindowCoveringServer;
  if (type === undefined || server === undefined) return undefined;
  // HA's position is open percent; Matter's is closed hundredths.
  const closed = (s: State): number | null => {
    const position = num(s.attributes.current_position);
    if (position !== undefined) return clamp((100 - position) * 100, 0, 10000);
    if (s.state === 'open') return 0;
    if (s.state === 'closed') return 10000;
    return null;
  };
  return {
    type: typeWith(type, server.with('Lift', 'PositionAwareLift')),
    patch: (s) => {
      const position = closed(s);
      return {
        windowCovering: {
          currentPositionLiftPercent100ths: position,
          targetPositionLiftPercent100ths: position,
          currentPositionLiftPercentage: position === null ? null : Math.round(position / 100),
        },
      };
    },
    listen(endpoint, link) {
      onChange(endpoint, 'windowCovering', 'targetPositionLiftPercent100ths', (value) => {
        const s = link.state();
        if (typeof value !== 'number' || s === undefined || value === closed(s)) return;
        const supported = num(s.attributes.supported_features) ?? 0;
        if ((supported & 4) !== 0) link.call('cover', 'set_cover_position', { position: clamp(100 - value / 100, 0, 100) });
        else link.call('cover', value >= 5000 ? 'close_cover' : 'open_cover');
      });
    },
  };
}

function lockKind(lib: MatterLib): DeviceKind | undefined {
  const type = lib.devices.DoorLockDevice;
  if (type === undefined) return undefined;
  // LockState: NotFullyLocked 0, Locked 1, Unlocked 2; null when unknown (jammed, unavailable).
  const lockState = (s: State): number | null =>
    s.state === 'locked'
      ? 1
      : s.state === 'unlocked' || s.state === 'open'
        ? 2
        : s.state === 'locking' || s.state === 'unlocking'
          ? 0
          : null;
  return {
    type,
    patch: (s) => ({
      doorLock: {
        lockState: lockState(s),
        lockType: 0,
        actuatorEnabled: true,
        // OperatingMode Normal; the supported-modes bitmap is inverted (a cleared bit is a supported mode).
        operatingMode: 0,
        wrongCodeEntryLimit: 3,
        userCodeTemporaryDisableTime: 10,
        supportedOperatingModes: { normal: false, vacation: true, privacy: true, noRemoteLockUnlock: true, passage: true, alwaysSet: 2047 },
      },
    }),
    listen(endpoint, link) {
      onChange(endpoint, 'doorLock', 'lockState', (value) => {
        const s = link.state();
        if (s === undefined || value === lockState(s)) return;
        if (value === 1) link.call('lock', 'lock');
        else if (value === 2) link.call('lock', 'unlock');
      });
    },
  };
}

/** SystemMode: Off 0, Auto 1, Cool 3, Heat 4. */
const SYSTEM_MODES = new Map<string, number>([
  ['off', 0],
  ['heat_cool', 1],
  ['auto', 1],
  ['cool', 3],
  ['heat', 4],
]);

function climateKind(lib: MatterLib, state: State): DeviceKind | undefined {
  const type = lib.devices.ThermostatDevice;
  const server = lib.behaviors.ThermostatServer;
  if (type === undefined || server === undefined) return undefined;
  const modes = Array.isArray(state.attributes.hvac_modes) ? state.attributes.hvac_modes : [];
  const cooling = modes.includes('cool') || modes.includes('heat_cool');
  const heating = modes.includes('heat') || modes.includes('heat_cool') || !cooling;
  // Matter's Auto mode (heat_cool) needs both sides and the AutoMode feature, with a dead band between setpoints.
  const auto = heating && cooling && (modes.includes('heat_cool') || modes.includes('auto'));
  const low = clamp((celsius(state, state.attributes.min_temp) ?? 7) * 100, -27315, 32767);
  const high = clamp((celsius(state, state.attributes.max_temp) ?? 35) * 100, low, 32767);
  const features = [...(heating ? ['Heating'] : []), ...(cooling ? ['Cooling'] : []), ...(auto ? ['AutoMode'] : [])];
  const hundredths = (s: State, key: string): number | undefined => {
    const t = celsius(s, s.attributes[key]);
    return t === undefined ? undefined : clamp(t * 100, low, high);
  };
  // HA's heat_cool keeps a range (target_temp_low/high); the other modes one temperature.
  const heatSetpoint = (s: State) => hundredths(s, 'target_temp_low') ?? hundredths(s, 'temperature');
  const coolSetpoint = (s: State) => hundredths(s, 'target_temp_high') ?? hundredths(s, 'temperature');
  const systemMode = (s: State): number => {
    const mode = SYSTEM_MODES.get(s.state) ?? 0;
    if (mode === 1 && !auto) return heating ? 4 : 3;
    return mode;
  };
  return {
    type: typeWith(type, server.with(...features)),
    patch(s) {
      const current = celsius(s, s.attributes.current_temperature);
      const t: Record<string, unknown> = {
        localTemperature: current === undefined ? null : clamp(current * 100, -27315, 32767),
        systemMode: systemMode(s),
        // ControlSequenceOfOperation: CoolingOnly 0, HeatingOnly 2, CoolingAndHeating 4.
        controlSequenceOfOperation: heating && cooling ? 4 : cooling ? 0 : 2,
      };
      for (const side of [...(heating ? ['Heat'] : []), ...(cooling ? ['Cool'] : [])]) {
        t[`absMin${side}SetpointLimit`] = low;
        t[`absMax${side}SetpointLimit`] = high;
        t[`min${side}SetpointLimit`] = low;
        t[`max${side}SetpointLimit`] = high;
      }
      if (auto) t.minSetpointDeadBand = 0;
      const heat = heatSetpoint(s);
      const cool = coolSetpoint(s);
      if (heating && heat !== undefined) t.occupiedHeatingSetpoint = heat;
      if (cooling && cool !== undefined) t.occupiedCoolingSetpoint = auto && heat !== undefined ? Math.max(cool, heat) : cool;
      return { thermostat: t };
    },
    listen(endpoint, link) {
      const setTo = (side: 'low' | 'high') => (value: unknown) => {
        const s = link.state();
        if (typeof value !== 'number' || s === undefined) return;
        if (value === (side === 'low' ? heatSetpoint(s) : coolSetpoint(s))) return;
        const range = num(s.attributes.target_temp_low) !== undefined && num(s.attributes.target_temp_high) !== undefined;
        if (range && s.state === 'heat_cool') {
          const other = side === 'low' ? coolSetpoint(s) : heatSetpoint(s);
          const [lo, hi] = side === 'low' ? [value, other ?? value] : [other ?? value, value];
          link.call('climate', 'set_temperature', { target_temp_low: lo / 100, target_temp_high: hi / 100 });
        } else link.call('climate', 'set_temperature', { temperature: value / 100 });
      };
      if (heating) onChange(endpoint, 'thermostat', 'occupiedHeatingSetpoint', setTo('low'));
      if (cooling) onChange(endpoint, 'thermostat', 'occupiedCoolingSetpoint', setTo('high'));
      onChange(endpoint, 'thermostat', 'systemMode', (value) => {
        const s = link.state();
        if (s === undefined || value === systemMode(s)) return;
        const mode = [...SYSTEM_MODES].find(([m, v]) => v === value && modes.includes(m))?.[0];
        if (mode !== undefined) link.call('climate', 'set_hvac_mode', { hvac_mode: mode });
      });
    },
  };
}

function sensorKind(lib: MatterLib, state: State): DeviceKind | undefined {
  const dc = state.attributes.device_class;
  const none = () => {};
  if (dc === 'temperature' && lib.devices.TemperatureSensorDevice !== undefined)
    return {
      type: lib.devices.TemperatureSensorDevice,
      patch: (s) => {
        const c = celsius(s);
        return { temperatureMeasurement: { measuredValue: c === undefined ? null : clamp(c * 100, -27315, 32767) } };
      },
      listen: none,
    };
  if (dc === 'humidity' && lib.devices.HumiditySensorDevice !== undefined)
    return {
      type: lib.devices.HumiditySensorDevice,
      patch: (s) => {
        const h = num(s.state);
        return { relativeHumidityMeasurement: { measuredValue: h === undefined ? null : clamp(h * 100, 0, 10000) } };
      },
      listen: none,
    };
  if (dc === 'illuminance' && lib.devices.LightSensorDevice !== undefined)
    return {
      type: lib.devices.LightSensorDevice,
      patch: (s) => {
        // MeasuredValue = 10000 log10(lux) + 1; 0 means too dark to measure.
        const lux = num(s.state);
        const value = lux === undefined ? null : lux <= 0 ? 0 : clamp(10000 * Math.log10(lux) + 1, 1, 0xfffe);
        return { illuminanceMeasurement: { measuredValue: value } };
      },
      listen: none,
    };
  return undefined;
}

const MOTION = new Set(['motion', 'occupancy', 'presence', 'moving']);
const CONTACT = new Set(['door', 'window', 'garage_door', 'opening', 'lock']);

function binaryKind(lib: MatterLib, state: State): DeviceKind | undefined {
  const dc = state.attributes.device_class;
  const none = () => {};
  const occupancy = lib.devices.OccupancySensorDevice;
  const server = lib.behaviors.OccupancySensingServer;
  if (typeof dc === 'string' && MOTION.has(dc) && occupancy !== undefined && server !== undefined)
    return {
      type: typeWith(occupancy, server.with('PassiveInfrared')),
      patch: (s) => ({
        occupancySensing: {
          occupancy: { occupied: s.state === 'on' },
          occupancySensorType: 0,
          occupancySensorTypeBitmap: { pir: true },
        },
      }),
      listen: none,
    };
  if (typeof dc === 'string' && CONTACT.has(dc) && lib.devices.ContactSensorDevice !== undefined)
    // BooleanState true is "contact": the door is closed, HA's off.
    return { type: lib.devices.ContactSensorDevice, patch: (s) => ({ booleanState: { stateValue: s.state === 'off' } }), listen: none };
  return undefined;
}

/** The device for an entity of a domain other than light, switch and input_boolean. */
export function moreKindFor(lib: MatterLib, state: State): DeviceKind | undefined {
  const domain = state.entity_id.slice(0, state.entity_id.indexOf('.'));
  switch (domain) {
    case 'fan':
      return fanKind(lib);
    case 'cover':
      return coverKind(lib);
    case 'lock':
      return lockKind(lib);
    case 'climate':
      return climateKind(lib, state);
    case 'sensor':
      return sensorKind(lib, state);
    case 'binary_sensor':
      return binaryKind(lib, state);
    default:
      return undefined;
  }
}
