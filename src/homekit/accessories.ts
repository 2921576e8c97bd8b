// Entities as HomeKit accessories, as Home Assistant's HomeKit Bridge maps them (homeassistant/components/homekit/
// type_*.py): each characteristic reads the entity's state and writes through its domain's services.
import type * as HAP from 'hap-nodejs';
import type { JsonObject, JsonValue } from '../core/json.js';
import type { State } from '../core/state.js';

type Hap = typeof HAP;
type CharacteristicValue = HAP.CharacteristicValue;

/** What an accessory needs of the hub: the entity's current state and a way to call a service on it. */
export interface EntityLink {
  readonly entityId: string;
  state(): State | undefined;
  call(domain: string, service: string, data?: JsonObject): void;
}

export interface MappedAccessory {
  readonly accessory: HAP.Accessory;
  /** Pushes the entity's new state to every characteristic (events to paired controllers). */
  update(state: State): void;
}

type Binding = (state: State) => void;

function num(value: JsonValue | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A characteristic that reads `get(state)` and, when writable, calls `set`; returns its updater. */
function bind(
  link: EntityLink,
  service: HAP.Service,
  characteristic: HAP.WithUUID<new () => HAP.Characteristic>,
  get: (state: State) => CharacteristicValue,
  set?: (value: CharacteristicValue) => void,
): Binding {
  const c = service.getCharacteristic(characteristic);
  c.onGet(() => {
    const state = link.state();
    if (state === undefined || state.state === 'unavailable') throw new Error('unavailable');
    return get(state);
  });
  if (set !== undefined) c.onSet((value) => set(value));
  return (state) => {
    if (state.state === 'unavailable') return;
    c.updateValue(get(state));
  };
}

/** The accessory for an entity, or undefined for one HomeKit has no type for. */
export function accessoryFor(hap: Hap, link: EntityLink, uuid: string, name: string, state: State): MappedAccessory | undefined {
  const domain = link.entityId.slice(0, link.entityId.indexOf('.'));
  const deviceClass = typeof state.attributes.device_class === 'string' ? state.attributes.device_class : undefined;
  const accessory = new hap.Accessory(name, uuid);
  const info = accessory.getService(hap.Service.AccessoryInformation);
  info
    ?.setCharacteristic(hap.Characteristic.Manufacturer, 'hearth')
    .setCharacteristic(hap.Characteristic.Model, domain)
    .setCharacteristic(hap.Characteristic.SerialNumber, link.entityId);
  const bindings = mapServices(hap, accessory, link, domain, deviceClass, name, state);
  if (bindings === undefined) return undefined;
  // Each service lists its type's optional characteristics only so getCharacteristic can accept them (types, not
  // instances, as load-hap.ts loads hap-nodejs); hearth has added all it uses above, so the lists go.
  for (const service of accessory.services) service.optionalCharacteristics = [];
  return {
    accessory,
    update(s) {
      for (const b of bindings) b(s);
    },
  };
}

function mapServices(
  hap: Hap,
  acc: HAP.Accessory,
  link: EntityLink,
  domain: string,
  deviceClass: string | undefined,
  name: string,
  state: State,
): Binding[] | undefined {
  const { Service: S, Characteristic: C } = hap;
  const on = (s: State) => s.state === 'on';
  const onOff = (d: string) => (v: CharacteristicValue) => link.call(d, v === true || v === 1 ? 'turn_on' : 'turn_off');
  switch (domain) {
    case 'light': {
      const svc = acc.addService(S.Lightbulb, name);
      const modes = Array.isArray(state.attributes.supported_color_modes) ? (state.attributes.supported_color_modes as string[]) : [];
      const out = [bind(link, svc, C.On, on, onOff('light'))];
      if (modes.some((m) => m !== 'onoff')) {
        out.push(
          bind(
            link,
            svc,
            C.Brightness,
            (s) => Math.round((num(s.attributes.brightness, 0) / 255) * 100),
            (v) => link.call('light', 'turn_on', { brightness_pct: Number(v) }),
          ),
        );
      }
      if (modes.some((m) => m === 'hs' || m === 'rgb' || m === 'rgbw' || m === 'rgbww' || m === 'xy')) {
        const hs = (s: State): number[] => (Array.isArray(s.attributes.hs_color) ? (s.attributes.hs_color as number[]) : [0, 0]);
        let pending: { h?: number; s?: number } = {};
        const send = () => {
          const current = link.state();
          const [h0 = 0, s0 = 0] = current === undefined ? [0, 0] : hs(current);
          link.call('light', 'turn_on', { hs_color: [pending.h ?? h0, pending.s ?? s0] });
          pending = {};
        };
        out.push(
          bind(
            link,
            svc,
            C.Hue,
            (s) => Math.round(hs(s)[0] ?? 0),
            (v) => {
              pending.h = Number(v);
              queueMicrotask(send);
            },
          ),
          bind(
            link,
            svc,
            C.Saturation,
            (s) => Math.round(hs(s)[1] ?? 0),
            (v) => {
              pending.s = Number(v);
              queueMicrotask(send);
            },
          ),
        );
      }
      if (modes.includes('color_temp')) {
        const min = num(state.attributes.min_mireds, 153);
        const max = num(state.attributes.max_mireds, 500);
        svc
          .getCharacteristic(C.ColorTemperature)
          .setProps({ minValue: Math.max(50, Math.round(min)), maxValue: Math.min(400, Math.round(max)) });
        out.push(
          bind(
            link,
            svc,
            C.ColorTemperature,
            (s) => clamp(Math.round(num(s.attributes.color_temp, min)), Math.max(50, Math.round(min)), Math.min(400, Math.round(max))),
            (v) => link.call('light', 'turn_on', { color_temp_kelvin: Math.round(1_000_000 / Number(v)) }),
          ),
        );
      }
      return out;
    }
    case 'switch':
    case 'input_boolean': {
      if (deviceClass === 'outlet') {
        const svc = acc.addService(S.Outlet, name);
        svc.setCharacteristic(C.OutletInUse, true);
        return [bind(link, svc, C.On, on, onOff(domain))];
      }
      return [bind(link, acc.addService(S.Switch, name), C.On, on, onOff(domain))];
    }
    case 'button':
    case 'input_button': {
      // A momentary switch, as Home Assistant's bridge shows buttons: on presses it and it turns itself off.
      const svc = acc.addService(S.Switch, name);
      const c = svc.getCharacteristic(C.On);
      c.onGet(() => false);
      c.onSet((v) => {
        if (v !== true) return;
        link.call(domain, 'press');
        setTimeout(() => c.updateValue(false), 100).unref();
      });
      return [];
    }
    case 'fan': {
      const svc = acc.addService(S.Fanv2, name);
      const out = [
        bind(
          link,
          svc,
          C.Active,
          (s) => (on(s) ? 1 : 0),
          (v) => link.call('fan', Number(v) === 1 ? 'turn_on' : 'turn_off'),
        ),
      ];
      if (typeof state.attributes.percentage === 'number' || (num(state.attributes.supported_features, 0) & 1) === 1) {
        out.push(
          bind(
            link,
            svc,
            C.RotationSpeed,
            (s) => num(s.attributes.percentage, 0),
            (v) => link.call('fan', 'set_percentage', { percentage: Number(v) }),
          ),
        );
      }
      return out;
    }
    case 'cover': {
      const svc = acc.addService(S.WindowCovering, name);
      const position = (s: State) => num(s.attributes.current_position, s.state === 'open' || s.state === 'opening' ? 100 : 0);
      const canPosition = (num(state.attributes.supported_features, 0) & 4) === 4;
      return [
        bind(link, svc, C.CurrentPosition, position),
        bind(link, svc, C.TargetPosition, position, (v) =>
          canPosition
            ? link.call('cover', 'set_cover_position', { position: Number(v) })
            : link.call('cover', Number(v) >= 50 ? 'open_cover' : 'close_cover'),
        ),
        bind(link, svc, C.PositionState, (s) => (s.state === 'opening' ? 1 : s.state === 'closing' ? 0 : 2)),
      ];
    }
    case 'lock': {
      const svc = acc.addService(S.LockMechanism, name);
      const current = (s: State) =>
        s.state === 'locked' ? 1 : s.state === 'unlocked' || s.state === 'open' ? 0 : s.state === 'jammed' ? 2 : 3;
      return [
        bind(link, svc, C.LockCurrentState, current),
        bind(
          link,
          svc,
          C.LockTargetState,
          (s) => (s.state === 'locked' || s.state === 'locking' ? 1 : 0),
          (v) => link.call('lock', Number(v) === 1 ? 'lock' : 'unlock'),
        ),
      ];
    }
    case 'climate':
      return climate(hap, acc, link, name);
    case 'alarm_control_panel': {
      const svc = acc.addService(S.SecuritySystem, name);
      const CURRENT: Record<string, number> = { armed_home: 0, armed_away: 1, armed_night: 2, disarmed: 3, triggered: 4 };
      const SERVICES = ['alarm_arm_home', 'alarm_arm_away', 'alarm_arm_night', 'alarm_disarm'];
      return [
        bind(link, svc, C.SecuritySystemCurrentState, (s) => CURRENT[s.state] ?? 3),
        bind(
          link,
          svc,
          C.SecuritySystemTargetState,
          (s) => Math.min(3, CURRENT[s.state] ?? 3),
          (v) => link.call('alarm_control_panel', SERVICES[Number(v)] ?? 'alarm_disarm'),
        ),
      ];
    }
    case 'sensor':
      return sensor(hap, acc, link, deviceClass, name, state);
    case 'binary_sensor':
      return binarySensor(hap, acc, link, deviceClass, name);
    default:
      return undefined;
  }
}

function celsius(s: State): number {
  const value = Number.parseFloat(s.state);
  if (!Number.isFinite(value)) return 0;
  return s.attributes.unit_of_measurement === '°F' ? ((value - 32) * 5) / 9 : value;
}

function sensor(
  hap: Hap,
  acc: HAP.Accessory,
  link: EntityLink,
  deviceClass: string | undefined,
  name: string,
  state: State,
): Binding[] | undefined {
  const { Service: S, Characteristic: C } = hap;
  const value = (s: State) => {
    const v = Number.parseFloat(s.state);
    return Number.isFinite(v) ? v : 0;
  };
  if (deviceClass === 'temperature' || state.attributes.unit_of_measurement === '°C' || state.attributes.unit_of_measurement === '°F') {
    return [bind(link, acc.addService(S.TemperatureSensor, name), C.CurrentTemperature, (s) => clamp(celsius(s), -270, 100))];
  }
  if (deviceClass === 'humidity')
    return [bind(link, acc.addService(S.HumiditySensor, name), C.CurrentRelativeHumidity, (s) => clamp(value(s), 0, 100))];
  if (deviceClass === 'illuminance')
    return [bind(link, acc.addService(S.LightSensor, name), C.CurrentAmbientLightLevel, (s) => clamp(value(s), 0.0001, 100000))];
  if (deviceClass === 'carbon_dioxide') {
    const svc = acc.addService(S.CarbonDioxideSensor, name);
    return [
      bind(link, svc, C.CarbonDioxideLevel, (s) => clamp(value(s), 0, 100000)),
      bind(link, svc, C.CarbonDioxideDetected, (s) => (value(s) > 1000 ? 1 : 0)),
    ];
  }
  if (deviceClass === 'pm25' || deviceClass === 'aqi' || deviceClass === 'pm10') {
    // Home Assistant's density_to_air_quality thresholds for PM2.5 (µg/m³).
    const quality = (s: State) => {
      const v = value(s);
      return v <= 12 ? 1 : v <= 35.4 ? 2 : v <= 55.4 ? 3 : v <= 150.4 ? 4 : 5;
    };
    return [bind(link, acc.addService(S.AirQualitySensor, name), C.AirQuality, quality)];
  }
  return undefined;
}

function binarySensor(
  hap: Hap,
  acc: HAP.Accessory,
  link: EntityLink,
  deviceClass: string | undefined,
  name: string,
): Binding[] | undefined {
  const { Service: S, Characteristic: C } = hap;
  const detected = (s: State) => s.state === 'on';
  switch (deviceClass) {
    case 'motion':
      return [bind(link, acc.addService(S.MotionSensor, name), C.MotionDetected, detected)];
    case 'occupancy':
    case 'presence':
      return [bind(link, acc.addService(S.OccupancySensor, name), C.OccupancyDetected, (s) => (detected(s) ? 1 : 0))];
    case 'moisture':
      return [bind(link, acc.addService(S.LeakSensor, name), C.LeakDetected, (s) => (detected(s) ? 1 : 0))];
    case 'smoke':
      return [bind(link, acc.addService(S.SmokeSensor, name), C.SmokeDetected, (s) => (detected(s) ? 1 : 0))];
    case 'carbon_monoxide':
    case 'gas':
      return [bind(link, acc.addService(S.CarbonMonoxideSensor, name), C.CarbonMonoxideDetected, (s) => (detected(s) ? 1 : 0))];
    default:
      // Doors, windows, openings and anything else: a contact sensor (0 = closed, 1 = open), as Home Assistant.
      return [bind(link, acc.addService(S.ContactSensor, name), C.ContactSensorState, (s) => (detected(s) ? 1 : 0))];
  }
}

function climate(hap: Hap, acc: HAP.Accessory, link: EntityLink, name: string): Binding[] {
  const { Service: S, Characteristic: C } = hap;
  const svc = acc.addService(S.Thermostat, name);
  const MODES: Record<string, number> = { off: 0, heat: 1, cool: 2, heat_cool: 3, auto: 3 };
  const HVAC = ['off', 'heat', 'cool', 'auto'];
  const target = (s: State) => clamp(num(s.attributes.temperature, num(s.attributes.target_temp_low, 20)), 10, 38);
  svc.getCharacteristic(C.TargetTemperature).setProps({ minValue: 7, maxValue: 35, minStep: 0.5 });
  return [
    bind(link, svc, C.CurrentHeatingCoolingState, (s) =>
      s.attributes.hvac_action === 'heating' ? 1 : s.attributes.hvac_action === 'cooling' ? 2 : 0,
    ),
    bind(
      link,
      svc,
      C.TargetHeatingCoolingState,
      (s) => MODES[s.state] ?? 0,
      (v) => {
        const state = link.state();
        const modes = Array.isArray(state?.attributes.hvac_modes) ? (state?.attributes.hvac_modes as string[]) : [];
        const wanted = HVAC[Number(v)] ?? 'off';
        link.call('climate', 'set_hvac_mode', {
          hvac_mode: wanted === 'auto' && !modes.includes('auto') && modes.includes('heat_cool') ? 'heat_cool' : wanted,
        });
      },
    ),
    bind(link, svc, C.CurrentTemperature, (s) => clamp(num(s.attributes.current_temperature, 0), -270, 100)),
    bind(
      link,
      svc,
      C.TargetTemperature,
      (s) => clamp(target(s), 7, 35),
      (v) => link.call('climate', 'set_temperature', { temperature: Number(v) }),
    ),
    bind(link, svc, C.TemperatureDisplayUnits, () => 0),
  ];
}
