import type { Expose, Feature } from 'zigbee-herdsman-converters';
import type { BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import { HVAC_MODES, type HvacMode } from '../../src/domains/climate.js';
import type { SensorDeviceClass, SensorStateClass } from '../../src/domains/sensor.js';
import { binaryHints, numericHints } from './ha-lookup.js';

/**
 * A definition's exposes as the entities hearth makes of them, following zigbee2mqtt's Home Assistant extension:
 * one light/switch/cover/lock/climate/fan per composite expose (per endpoint), a sensor per read-only numeric,
 * enum or text, a binary_sensor per read-only binary and a switch per settable binary. `action` is no entity:
 * it becomes `zigbee_action` events. Pure data, so it is tested without a device.
 */

/** Expose access bits (zigbee-herdsman-converters' `access`). */
const STATE = 1;
const SET = 2;

type Scalar = string | number | boolean;

interface SpecBase {
  /** Unique among the device's entities: the unique id is `<ieee>_<key>`, so it survives renames. */
  readonly key: string;
  /** The entity's name after the device's; undefined for the device's main entity (named as the device). */
  readonly label: string | undefined;
  readonly endpoint: string | undefined;
  /** The device-state keys the entity is rendered from. */
  readonly properties: readonly string[];
  /** Home Assistant's entity category (zigbee2mqtt's; a sensor is never `config`). */
  readonly category?: 'config' | 'diagnostic';
}

export interface LightSpec {
  readonly state: string;
  readonly brightness?: string;
  readonly colorTemp?: { readonly property: string; readonly minMireds: number; readonly maxMireds: number };
  /** The composite `color` property and which colour space the light prefers. */
  readonly color?: { readonly property: string; readonly space: 'xy' | 'hs' };
  readonly effects?: readonly string[];
  /** Where the converters say which colour mode the light is in (`color_mode`, or `color_mode_<endpoint>`). */
  readonly colorMode: string;
}

export interface ClimateSpec {
  readonly localTemperature?: string;
  readonly setpoint?: { readonly property: string; readonly min?: number; readonly max?: number; readonly step?: number };
  readonly systemMode?: { readonly property: string; readonly modes: readonly HvacMode[] };
  readonly runningState?: string;
  readonly preset?: { readonly property: string; readonly values: readonly string[] };
  readonly fanMode?: { readonly property: string; readonly values: readonly string[] };
}

export interface FanSpec {
  readonly state: string;
  /** hvacFanCtrl-style modes: speeds (after `off`) and presets. */
  readonly mode?: { readonly property: string; readonly speeds: readonly string[]; readonly presets: readonly string[] };
  readonly speed?: { readonly property: string; readonly min: number; readonly max: number };
}

export type EntitySpec =
  | (SpecBase & { readonly kind: 'light'; readonly light: LightSpec })
  | (SpecBase & { readonly kind: 'switch'; readonly property: string; readonly valueOn: Scalar; readonly valueOff: Scalar })
  | (SpecBase & {
      readonly kind: 'sensor';
      readonly property: string;
      readonly unit?: string;
      readonly deviceClass?: SensorDeviceClass;
      readonly stateClass?: SensorStateClass;
      readonly icon?: string;
    })
  | (SpecBase & {
      readonly kind: 'binary_sensor';
      readonly property: string;
      readonly valueOn: Scalar;
      readonly valueOff: Scalar;
      readonly deviceClass?: BinarySensorDeviceClass;
    })
  | (SpecBase & { readonly kind: 'cover'; readonly state: string; readonly position?: string; readonly tilt?: string })
  | (SpecBase & { readonly kind: 'lock'; readonly property: string; readonly valueOn: Scalar; readonly valueOff: Scalar })
  | (SpecBase & { readonly kind: 'climate'; readonly climate: ClimateSpec })
  | (SpecBase & { readonly kind: 'fan'; readonly fan: FanSpec });

export interface ExposeMapping {
  readonly specs: EntitySpec[];
  /** The device sends button/remote actions (an `action` expose). */
  readonly actions: boolean;
}

/** zigbee2mqtt adds link quality to every device's exposes (lib/model/device.ts). */
export const LINKQUALITY_SPEC: EntitySpec = {
  kind: 'sensor',
  key: 'linkquality',
  label: 'Linkquality',
  endpoint: undefined,
  properties: ['linkquality'],
  property: 'linkquality',
  unit: 'lqi',
  ...numericHints('linkquality', 'lqi', 'diagnostic'),
};

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function mainKey(kind: string, endpoint: string | undefined): string {
  return endpoint ? `${kind}_${endpoint}` : kind;
}

function featureNamed(features: readonly Feature[] | undefined, ...names: string[]): Feature | undefined {
  return features?.find((f) => names.includes(f.name));
}

function propOf(f: Feature): string {
  return f.property ?? f.name;
}

function suffixed(label: string, endpoint: string | undefined): string {
  return endpoint ? `${label} ${endpoint}` : label;
}

function lightSpec(expose: Expose, all: readonly Expose[]): LightSpec | undefined {
  const features = expose.features;
  const state = featureNamed(features, 'state');
  if (state === undefined) return undefined;
  const brightness = featureNamed(features, 'brightness');
  const ct = featureNamed(features, 'color_temp');
  const xyIndex = features?.findIndex((f) => f.name === 'color_xy') ?? -1;
  const hsIndex = features?.findIndex((f) => f.name === 'color_hs') ?? -1;
  // zigbee2mqtt prefers xy unless hs comes first in the features.
  const colorFeature =
    xyIndex !== -1 && (hsIndex === -1 || xyIndex < hsIndex) ? features?.[xyIndex] : hsIndex !== -1 ? features?.[hsIndex] : undefined;
  const effects = all
    .filter((e) => e.type === 'enum' && e.name === 'effect')
    .flatMap((e) => (e.type === 'enum' ? e.values.map(String) : []));
  const colorMode = expose.endpoint ? `color_mode_${expose.endpoint}` : 'color_mode';
  const spec: { -readonly [K in keyof LightSpec]: LightSpec[K] } = { state: propOf(state), colorMode };
  if (brightness) spec.brightness = propOf(brightness);
  if (ct?.type === 'numeric') spec.colorTemp = { property: propOf(ct), minMireds: ct.value_min ?? 153, maxMireds: ct.value_max ?? 500 };
  if (colorFeature) spec.color = { property: propOf(colorFeature), space: colorFeature.name === 'color_xy' ? 'xy' : 'hs' };
  if (effects.length > 0) spec.effects = [...new Set(effects)];
  return spec;
}

function climateSpec(expose: Expose): ClimateSpec {
  const f = expose.features;
  const out: { -readonly [K in keyof ClimateSpec]: ClimateSpec[K] } = {};
  const local = featureNamed(f, 'local_temperature');
  if (local) out.localTemperature = propOf(local);
  const sp = featureNamed(f, 'occupied_heating_setpoint', 'current_heating_setpoint') ?? featureNamed(f, 'occupied_cooling_setpoint');
  if (sp?.type === 'numeric') out.setpoint = { property: propOf(sp), min: sp.value_min, max: sp.value_max, step: sp.value_step };
  const mode = featureNamed(f, 'system_mode');
  if (mode?.type === 'enum') {
    // 'sleep' and other ZCL modes Home Assistant has no word for are left out, as zigbee2mqtt does.
    const modes = mode.values.map(String).filter((m): m is HvacMode => (HVAC_MODES as readonly string[]).includes(m));
    out.systemMode = { property: propOf(mode), modes };
  }
  const running = featureNamed(f, 'running_state');
  if (running) out.runningState = propOf(running);
  const preset = featureNamed(f, 'preset');
  if (preset?.type === 'enum') out.preset = { property: propOf(preset), values: preset.values.map(String) };
  const fan = featureNamed(f, 'fan_mode');
  if (fan?.type === 'enum') out.fanMode = { property: propOf(fan), values: fan.values.map(String) };
  return out;
}

function fanSpec(expose: Expose): FanSpec | undefined {
  const state = featureNamed(expose.features, 'state');
  if (state === undefined) return undefined;
  const mode = featureNamed(expose.features, 'mode');
  const speed = featureNamed(expose.features, 'speed');
  const out: { -readonly [K in keyof FanSpec]: FanSpec[K] } = { state: propOf(state) };
  if (mode?.type === 'enum') {
    const values = mode.values.map(String);
    out.mode = {
      property: propOf(mode),
      speeds: ['low', 'medium', 'high', '1', '2', '3', '4', '5', '6', '7', '8', '9'].filter((s) => values.includes(s)),
      presets: ['on', 'auto', 'smart'].filter((s) => values.includes(s)),
    };
  } else if (speed?.type === 'numeric') out.speed = { property: propOf(speed), min: speed.value_min ?? 1, max: speed.value_max ?? 100 };
  return out;
}

/** One expose (or one feature of a composite) as an entity spec, or undefined when hearth has no entity for it. */
function specOf(e: Expose, all: readonly Expose[]): EntitySpec | undefined {
  const ep = e.endpoint;
  const base = { endpoint: ep, label: ep ? capitalize(ep) : undefined };
  switch (e.type) {
    case 'light': {
      const light = lightSpec(e, all);
      if (!light) return undefined;
      const props = [light.state, light.brightness, light.colorTemp?.property, light.color?.property, light.colorMode];
      return { ...base, kind: 'light', key: mainKey('light', ep), light, properties: props.filter((p) => p !== undefined) };
    }
    case 'switch': {
      const state = featureNamed(e.features, 'state');
      if (state?.type !== 'binary') return undefined;
      const property = propOf(state);
      return {
        ...base,
        kind: 'switch',
        key: mainKey('switch', ep),
        property,
        valueOn: state.value_on,
        valueOff: state.value_off,
        properties: [property],
      };
    }
    case 'lock': {
      const state = featureNamed(e.features, 'state');
      if (state?.type !== 'binary') return undefined;
      const property = propOf(state);
      return {
        ...base,
        kind: 'lock',
        key: mainKey('lock', ep),
        property,
        valueOn: state.value_on,
        valueOff: state.value_off,
        properties: [property],
      };
    }
    case 'cover': {
      const state = featureNamed(e.features, 'state');
      if (state === undefined) return undefined;
      const position = featureNamed(e.features, 'position');
      const tilt = featureNamed(e.features, 'tilt');
      const props = [propOf(state), position && propOf(position), tilt && propOf(tilt)].filter((p): p is string => typeof p === 'string');
      return {
        ...base,
        kind: 'cover',
        key: mainKey('cover', ep),
        state: propOf(state),
        position: position && propOf(position),
        tilt: tilt && propOf(tilt),
        properties: props,
      };
    }
    case 'climate': {
      const climate = climateSpec(e);
      const props = [
        climate.localTemperature,
        climate.setpoint?.property,
        climate.systemMode?.property,
        climate.runningState,
        climate.preset?.property,
        climate.fanMode?.property,
      ];
      return { ...base, kind: 'climate', key: mainKey('climate', ep), climate, properties: props.filter((p) => p !== undefined) };
    }
    case 'fan': {
      const fan = fanSpec(e);
      if (!fan) return undefined;
      const props = [fan.state, fan.mode?.property, fan.speed?.property].filter((p) => p !== undefined);
      return { ...base, kind: 'fan', key: mainKey('fan', ep), fan, properties: props };
    }
    case 'numeric': {
      if (e.access & SET || !(e.access & STATE)) return undefined; // a settable number: no hearth domain yet
      const property = propOf(e);
      return {
        kind: 'sensor',
        key: property,
        label: suffixed(e.label, ep),
        endpoint: ep,
        property,
        properties: [property],
        unit: e.unit,
        ...numericHints(e.name, e.unit, e.category),
      };
    }
    case 'binary': {
      if (!(e.access & STATE)) return undefined;
      const property = propOf(e);
      const common = { key: property, label: suffixed(e.label, ep), endpoint: ep, property, properties: [property] };
      if (e.access & SET) {
        return { ...common, kind: 'switch', key: `switch_${property}`, valueOn: e.value_on, valueOff: e.value_off, category: e.category };
      }
      return { ...common, kind: 'binary_sensor', valueOn: e.value_on, valueOff: e.value_off, ...binaryHints(e.name, e.category) };
    }
    case 'enum':
    case 'text': {
      if (e.access & SET || !(e.access & STATE) || e.name === 'action') return undefined;
      const property = propOf(e);
      const category = e.category === undefined ? {} : { category: 'diagnostic' as const };
      return { kind: 'sensor', key: property, label: suffixed(e.label, ep), endpoint: ep, property, properties: [property], ...category };
    }
    default:
      return undefined;
  }
}

/** The entities of a definition's exposes (already resolved for the device), plus the link quality sensor. */
export function mapExposes(exposes: readonly Expose[]): ExposeMapping {
  const specs: EntitySpec[] = [];
  const keys = new Set<string>();
  const add = (spec: EntitySpec | undefined): void => {
    if (spec === undefined || keys.has(spec.key)) return;
    keys.add(spec.key);
    specs.push(spec);
  };
  for (const e of exposes) add(specOf(e, exposes));
  // zigbee2mqtt gives a thermostat's local temperature its own sensor when nothing else measures temperature.
  for (const s of [...specs]) {
    if (s.kind !== 'climate' || s.climate.localTemperature === undefined) continue;
    const property = s.climate.localTemperature;
    if (specs.some((o) => o.kind === 'sensor' && (o.property === 'temperature' || o.property === property))) continue;
    add({
      kind: 'sensor',
      key: property,
      label: suffixed('Local temperature', s.endpoint),
      endpoint: s.endpoint,
      property,
      properties: [property],
      unit: '°C',
      ...numericHints('local_temperature', '°C', undefined),
    });
  }
  add(LINKQUALITY_SPEC);
  const actions = exposes.some((e) => e.name === 'action' && (e.type === 'enum' || e.type === 'text'));
  return { specs, actions };
}
