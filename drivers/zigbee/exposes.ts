import type { Expose } from 'zigbee-herdsman-converters';
import type { BinarySensorDeviceClass } from '../../src/domains/binary-sensor.js';
import type { SensorDeviceClass, SensorStateClass } from '../../src/domains/sensor.js';
import {
  type ClimateSpec,
  climateSpec,
  type FanSpec,
  fanSpec,
  featureNamed,
  type LightSpec,
  lightSpec,
  propOf,
} from './composite-specs.js';
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

function suffixed(label: string, endpoint: string | undefined): string {
  return endpoint ? `${label} ${endpoint}` : label;
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
