import type { Expose } from 'zigbee-herdsman-converters';
import { climateSpec, featureNamed, propOf } from './composite-specs.js';
import type { EntitySpec } from './entity-spec.js';

/** A climate expose as zigbee2mqtt's Home Assistant extension maps it (exposeToConfig's climate case). */

/** Home Assistant MQTT number's range and step when zigbee2mqtt sends none (DEFAULT_MIN_VALUE, DEFAULT_MAX_VALUE, DEFAULT_STEP). */
export const NUMBER_MIN = 1;
export const NUMBER_MAX = 100;
export const NUMBER_STEP = 1;

/** Expose access bits (zigbee-herdsman-converters' `access`). */
const STATE = 1;
const SET = 2;

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function mainKey(kind: string, endpoint: string | undefined): string {
  return endpoint ? `${kind}_${endpoint}` : kind;
}

function suffixed(label: string, endpoint: string | undefined): string {
  return endpoint ? `${label} ${endpoint}` : label;
}

/** A climate expose: the climate entity, and the calibration, heating demand and local temperature zigbee2mqtt adds beside it. */
export function climateEntities(e: Extract<Expose, { type: 'climate' }>, all: readonly Expose[]): EntitySpec[] {
  const ep = e.endpoint;
  const climate = climateSpec(e);
  const props = [
    climate.localTemperature,
    climate.setpoint?.property,
    climate.systemMode?.property,
    climate.runningState,
    climate.preset?.property,
    climate.fanMode?.property,
  ];
  const out: EntitySpec[] = [
    {
      endpoint: ep,
      label: ep ? capitalize(ep) : undefined,
      kind: 'climate',
      key: mainKey('climate', ep),
      climate,
      properties: props.filter((p) => p !== undefined),
    },
  ];
  const feature = (name: string) => {
    const f = featureNamed(e.features, name);
    return f?.type === 'numeric' ? f : undefined;
  };
  const keyOf = (name: string) => (ep ? `${name}_${ep}` : name);
  const calibration = feature('local_temperature_calibration');
  if (calibration) {
    const property = propOf(calibration);
    out.push({
      kind: 'number',
      key: keyOf(calibration.name),
      label: suffixed(calibration.label, ep),
      endpoint: ep,
      property,
      properties: [property],
      min: calibration.value_min ?? NUMBER_MIN,
      max: calibration.value_max ?? NUMBER_MAX,
      step: calibration.value_step ?? NUMBER_STEP,
      ...(calibration.unit ? { unit: calibration.unit } : {}),
      deviceClass: 'temperature_delta',
      category: 'config',
    });
  }
  const heating = feature('pi_heating_demand');
  if (heating) {
    const property = propOf(heating);
    const common = { key: keyOf(heating.name), label: suffixed(heating.label, ep), endpoint: ep, property, properties: [property] };
    if (heating.access & SET) {
      out.push({
        ...common,
        kind: 'number',
        min: heating.value_min ?? NUMBER_MIN,
        max: heating.value_max ?? NUMBER_MAX,
        step: NUMBER_STEP,
        unit: heating.unit,
        icon: 'mdi:radiator',
      });
    } else out.push({ ...common, kind: 'sensor', unit: heating.unit, icon: 'mdi:radiator', category: 'diagnostic' });
  }
  const cooling = feature('pi_cooling_demand');
  if (cooling) {
    const property = propOf(cooling);
    out.push({
      kind: 'sensor',
      key: keyOf(cooling.name),
      label: suffixed(cooling.label, ep),
      endpoint: ep,
      property,
      properties: [property],
      unit: cooling.unit,
      icon: 'mdi:air-conditioner',
      category: 'diagnostic',
    });
  }
  // Its local temperature gets a sensor of its own when nothing else measures temperature.
  const local = feature('local_temperature');
  const measured = all.some(
    (x) => x.type === 'numeric' && (x.name === 'temperature' || x.name === 'local_temperature') && x.access & STATE,
  );
  if (local && !measured) {
    const property = propOf(local);
    out.push({
      kind: 'sensor',
      key: keyOf(local.name),
      label: suffixed(local.label, ep),
      endpoint: ep,
      property,
      properties: [property],
      unit: local.unit,
      deviceClass: 'temperature',
      stateClass: 'measurement',
    });
  }
  return out;
}
