import type { Core } from '../../src/core/core.js';
import { lookupTable } from '../../src/core/own-keys.js';
import { addBinarySensor, BINARY_SENSOR_DEVICE_CLASSES, type BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import { addButton, BUTTON_DEVICE_CLASSES, type ButtonDeviceClass } from '../../src/domains/button.js';
import { addClimate, type ClimatePlatform, type HvacAction, type HvacMode } from '../../src/domains/climate.js';
import { addCover, type CoverPlatform } from '../../src/domains/cover.js';
import { addFan, type FanPlatform, percentageOfSpeed, speedOfPercentage } from '../../src/domains/fan.js';
import { addLock } from '../../src/domains/lock.js';
import { addNumber } from '../../src/domains/number.js';
import { addSelect } from '../../src/domains/select.js';
import { addSensor, SENSOR_DEVICE_CLASSES, type SensorDeviceClass } from '../../src/domains/sensor.js';
import { addSiren, type SirenTurnOn } from '../../src/domains/siren.js';
import { addSwitch, type SwitchDeviceClass } from '../../src/domains/switch.js';
import { addText } from '../../src/domains/text.js';
import type { BuiltEntity, DeviceLink, EntityIdentity } from './built-entity.js';
import type { EntitySpec } from './exposes.js';
import { addZigbeeLight } from './light.js';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function onOff(v: unknown, on: unknown, off: unknown): boolean | null {
  if (v === on) return true;
  if (v === off) return false;
  return null;
}

/** The device class when the domain has it (zigbee2mqtt's tables name some Home Assistant refuses for that domain). */
function classIn<T extends string>(classes: readonly T[], dc: string | undefined): T | undefined {
  return dc !== undefined && (classes as readonly string[]).includes(dc) ? (dc as T) : undefined;
}

/** zigbee2mqtt's text template cuts a value at 254 characters; a list or composite shows as JSON. */
function textOf(v: unknown, json: boolean | undefined): string | null {
  if (v === undefined || v === null) return null;
  const text = typeof v === 'string' && !json ? v : json || typeof v === 'object' ? JSON.stringify(v) : String(v);
  return text.length > 254 ? text.slice(0, 254) : text;
}

/** Keyed by what a thermostat reports: no prototype. */
const RUNNING_TO_ACTION = lookupTable<HvacAction>({ idle: 'idle', heat: 'heating', cool: 'cooling', fan_only: 'fan' });

export function buildEntity(core: Core, id: EntityIdentity, spec: EntitySpec, link: DeviceLink): BuiltEntity {
  const init = {
    entityId: id.entityId,
    name: id.name,
    uniqueId: id.uniqueId,
    deviceId: id.deviceId,
    owner: id.owner,
    entityCategory: spec.category,
    enabledByDefault: spec.enabledByDefault,
    // A Zigbee device keeps its own state across a hub restart: restoring would send it commands nobody asked for.
    restore: false,
  };
  const send = (message: Record<string, unknown>) => link.send(message, spec.endpoint);
  switch (spec.kind) {
    case 'light':
      return addZigbeeLight(core, init, spec, send);
    case 'sensor': {
      const deviceClass = classIn<SensorDeviceClass>(SENSOR_DEVICE_CLASSES, spec.deviceClass);
      const h = addSensor(core, { ...init, deviceClass, unit: spec.unit, stateClass: spec.stateClass, icon: spec.icon });
      return {
        spec,
        entity: h.entity,
        render(state) {
          const v = state[spec.property];
          h.report(typeof v === 'number' && !spec.json ? v : textOf(v, spec.json));
        },
      };
    }
    case 'binary_sensor': {
      const deviceClass = classIn<BinarySensorDeviceClass>(BINARY_SENSOR_DEVICE_CLASSES, spec.deviceClass);
      const h = addBinarySensor(core, { ...init, deviceClass, icon: spec.icon });
      return { spec, entity: h.entity, render: (state) => h.report(onOff(state[spec.property], spec.valueOn, spec.valueOff)) };
    }
    case 'switch': {
      const h = addSwitch(core, {
        ...init,
        deviceClass: classIn<SwitchDeviceClass>(['outlet', 'switch'], spec.deviceClass),
        icon: spec.icon,
        platform: { turnOn: () => send({ [spec.property]: spec.valueOn }), turnOff: () => send({ [spec.property]: spec.valueOff }) },
      });
      return { spec, entity: h.entity, render: (state) => h.report(onOff(state[spec.property], spec.valueOn, spec.valueOff)) };
    }
    case 'select': {
      const h = addSelect(core, {
        ...init,
        options: spec.options,
        icon: spec.icon,
        platform: { selectOption: (o) => send({ [spec.property]: o }) },
      });
      return {
        spec,
        entity: h.entity,
        render: (state) => {
          const v = state[spec.property];
          h.report(typeof v === 'string' || typeof v === 'number' ? String(v) : null);
        },
      };
    }
    case 'number': {
      const h = addNumber(core, {
        ...init,
        range: { min: spec.min, max: spec.max, step: spec.step },
        unit: spec.unit,
        deviceClass: spec.deviceClass,
        icon: spec.icon,
        platform: { setValue: (v) => send({ [spec.property]: v }) },
      });
      return { spec, entity: h.entity, render: (state) => h.report(num(state[spec.property]) ?? null) };
    }
    case 'text': {
      const h = addText(core, { ...init, icon: spec.icon, platform: { setValue: (v) => send({ [spec.property]: v }) } });
      return { spec, entity: h.entity, render: (state) => h.report(textOf(state[spec.property], false)) };
    }
    case 'button': {
      const deviceClass = classIn<ButtonDeviceClass>(BUTTON_DEVICE_CLASSES, spec.deviceClass);
      const h = addButton(core, {
        ...init,
        deviceClass,
        icon: spec.icon,
        platform: { press: () => send({ [spec.property]: spec.payload }) },
      });
      // A button's state is its last press, which the domain keeps; nothing the device says changes it.
      return { spec, entity: h.entity, render: () => h.report() };
    }
    case 'lock': {
      const h = addLock(core, {
        ...init,
        platform: { lock: () => send({ [spec.property]: spec.valueOn }), unlock: () => send({ [spec.property]: spec.valueOff }) },
      });
      return {
        spec,
        entity: h.entity,
        render(state) {
          const on = onOff(state[spec.property], spec.valueOn, spec.valueOff);
          h.report({ state: on === null ? null : on ? 'locked' : 'unlocked' });
        },
      };
    }
    case 'cover': {
      const platform: CoverPlatform = {
        openCover: () => send({ [spec.state]: 'OPEN' }),
        closeCover: () => send({ [spec.state]: 'CLOSE' }),
        stopCover: () => send({ [spec.state]: 'STOP' }),
      };
      const position = spec.position;
      const tilt = spec.tilt;
      if (position) platform.setCoverPosition = (p) => send({ [position]: p });
      if (tilt) platform.setCoverTiltPosition = (p) => send({ [tilt]: p });
      const h = addCover(core, { ...init, platform });
      return {
        spec,
        entity: h.entity,
        render(state) {
          const pos = position ? num(state[position]) : undefined;
          const s = str(state[spec.state]);
          const closed = pos !== undefined ? pos === 0 : s === 'CLOSE' ? true : s === 'OPEN' ? false : null;
          h.report({ closed, position: pos ?? null, tiltPosition: tilt ? (num(state[tilt]) ?? null) : undefined });
        },
      };
    }
    case 'climate':
      return climateEntity(core, init, spec, send);
    case 'fan':
      return fanEntity(core, init, spec, send);
    case 'siren':
      return sirenEntity(core, init, spec, send);
  }
}

type Init = EntityIdentity & { readonly entityCategory?: 'config' | 'diagnostic'; readonly restore?: boolean };
type Send = (message: Record<string, unknown>) => Promise<void>;

function climateEntity(core: Core, init: Init, spec: Extract<EntitySpec, { kind: 'climate' }>, send: Send): BuiltEntity {
  const c = spec.climate;
  // A thermostat that exposes no mode only heats (a TRV).
  const hvacModes: readonly HvacMode[] = c.systemMode && c.systemMode.modes.length > 0 ? c.systemMode.modes : ['heat'];
  const platform: ClimatePlatform = {
    setHvacMode: (mode) => (c.systemMode ? send({ [c.systemMode.property]: mode }) : Promise.resolve()),
    setTemperature: async (p) => {
      const message: Record<string, unknown> = {};
      if (p.hvacMode && c.systemMode) message[c.systemMode.property] = p.hvacMode;
      if (p.temperature !== undefined && c.setpoint) message[c.setpoint.property] = p.temperature;
      await send(message);
    },
  };
  if (c.preset) {
    const prop = c.preset.property;
    platform.setPresetMode = (mode) => send({ [prop]: mode });
  }
  if (c.fanMode) {
    const prop = c.fanMode.property;
    platform.setFanMode = (mode) => send({ [prop]: mode });
  }
  const step = c.setpoint?.step;
  const h = addClimate(core, {
    ...init,
    platform,
    capabilities: {
      hvacModes,
      minTemp: c.setpoint?.min,
      maxTemp: c.setpoint?.max,
      targetTempStep: step,
      precision: step === 0.5 ? 0.5 : step === 1 ? 1 : 0.1,
      presetModes: c.preset?.values,
      fanModes: c.fanMode?.values,
    },
  });
  return {
    spec,
    entity: h.entity,
    render(state) {
      // Nothing heard from the thermostat yet: unknown, rather than a mode it may not be in.
      if (!spec.properties.some((p) => state[p] !== undefined)) {
        h.report(null);
        return;
      }
      const mode = c.systemMode ? str(state[c.systemMode.property]) : undefined;
      const hvacMode =
        mode !== undefined && hvacModes.includes(mode as HvacMode) ? (mode as HvacMode) : hvacModes.length === 1 ? hvacModes[0] : null;
      const running = c.runningState ? str(state[c.runningState]) : undefined;
      h.report({
        hvacMode: hvacMode ?? null,
        hvacAction: running === undefined ? undefined : (RUNNING_TO_ACTION[running] ?? null),
        currentTemperature: c.localTemperature ? num(state[c.localTemperature]) : undefined,
        targetTemperature: c.setpoint ? num(state[c.setpoint.property]) : undefined,
        presetMode: c.preset ? str(state[c.preset.property]) : undefined,
        fanMode: c.fanMode ? str(state[c.fanMode.property]) : undefined,
      });
    },
  };
}

function fanEntity(core: Core, init: Init, spec: Extract<EntitySpec, { kind: 'fan' }>, send: Send): BuiltEntity {
  const f = spec.fan;
  const mode = f.mode;
  const speed = f.speed;
  const count = mode ? mode.speeds.length : speed ? speed.max - speed.min + 1 : 0;
  const toMessage = (percentage: number): Record<string, unknown> => {
    if (mode) return { [mode.property]: mode.speeds[Math.max(speedOfPercentage(count, percentage), 1) - 1] };
    if (speed) return { [speed.property]: speed.min - 1 + Math.max(speedOfPercentage(count, percentage), 1) };
    return { [f.state]: 'ON' };
  };
  const platform: FanPlatform = {
    turnOn: (p) => {
      if (p.presetMode && mode) return send({ [mode.property]: p.presetMode });
      return send(p.percentage !== undefined ? toMessage(p.percentage) : { [f.state]: 'ON' });
    },
    turnOff: () => send({ [f.state]: 'OFF' }),
  };
  if (count > 0) platform.setPercentage = (p) => send(toMessage(p));
  if (mode && mode.presets.length > 0) platform.setPresetMode = (m) => send({ [mode.property]: m });
  const h = addFan(core, { ...init, platform, capabilities: { speedCount: count || undefined, presetModes: mode?.presets } });
  return {
    spec,
    entity: h.entity,
    render(state) {
      const on = onOff(state[f.state], 'ON', 'OFF');
      let percentage: number | null | undefined;
      let presetMode: string | null | undefined;
      if (mode) {
        const m = str(state[mode.property]);
        const i = m === undefined ? -1 : mode.speeds.indexOf(m);
        percentage = m === 'off' ? 0 : i >= 0 ? percentageOfSpeed(count, i + 1) : null;
        presetMode = m !== undefined && mode.presets.includes(m) ? m : null;
      } else if (speed) {
        const s = num(state[speed.property]);
        percentage = s === undefined ? null : percentageOfSpeed(count, s - speed.min + 1);
      }
      h.report({ on, percentage, presetMode });
    },
  };
}

/** zigbee2mqtt's siren command template: the volume in four steps, `medium` when none. */
function warningLevel(volume: number | undefined): string {
  if (volume === undefined) return 'medium';
  return volume <= 0.25 ? 'low' : volume <= 0.5 ? 'medium' : volume <= 0.75 ? 'high' : 'very_high';
}

/** zigbee2mqtt's siren: optimistic (the device reports nothing), `emergency` for 10 s unless told otherwise. */
function sirenEntity(core: Core, init: Init, spec: Extract<EntitySpec, { kind: 'siren' }>, send: Send): BuiltEntity {
  const h = addSiren(core, {
    ...init,
    availableTones: spec.tones,
    volumeSet: spec.volume,
    duration: spec.duration,
    platform: {
      turnOn: async (p: SirenTurnOn) => {
        await send({ [spec.property]: { mode: p.tone ?? 'emergency', level: warningLevel(p.volumeLevel), duration: p.duration ?? 10 } });
        h.report(true);
      },
      turnOff: async () => {
        await send({ [spec.property]: { mode: 'stop' } });
        h.report(false);
      },
    },
  });
  // Nothing the device says is its state: the first render writes `unknown`, later ones leave the last command's.
  let shown = false;
  const render = () => {
    if (!shown) h.report(null);
    shown = true;
  };
  return { spec, entity: h.entity, render };
}
