import type { Expose } from 'zigbee-herdsman-converters';
import { climateEntities, NUMBER_MAX, NUMBER_MIN, NUMBER_STEP } from './climate-exposes.js';
import { fanSpec, featureNamed, lightSpec, propOf } from './composite-specs.js';
import type { EntityKind, EntitySpec, SpecBase } from './entity-spec.js';
import { type Hint, hintFor, SWITCH_OWN_ENTITY, unitHint } from './ha-lookup.js';

/**
 * A definition's exposes as the entities zigbee2mqtt's Home Assistant extension makes of them
 * (lib/extension/homeassistant.ts, exposeToConfig): one light/switch/cover/lock/climate/fan per composite expose
 * (per endpoint); a read-only numeric, enum, text or list is a sensor, a read-only binary a binary_sensor; a settable
 * binary is a switch, a settable numeric a number, a settable enum a select (a button when it has one value), a
 * settable text a text. `action` is no entity: it becomes `zigbee_action` events. The key is zigbee2mqtt's object
 * id (and the unique id's suffix), so entity ids follow its rule. Pure data, so it is tested without a device.
 */

/** Expose access bits (zigbee-herdsman-converters' `access`). */
const STATE = 1;
const SET = 2;

export type { EntityKind, EntitySpec };

export interface ExposeMapping {
  readonly specs: EntitySpec[];
  /** The device sends button/remote actions (an `action` expose). */
  readonly actions: boolean;
}

/** zigbee2mqtt's link quality expose, which every device has (the converters add it to each definition). */
export const LINKQUALITY_SPEC: EntitySpec = {
  kind: 'sensor',
  key: 'linkquality',
  label: 'Linkquality',
  endpoint: undefined,
  properties: ['linkquality'],
  property: 'linkquality',
  unit: 'lqi',
  ...hinted(hintFor('numeric', 'linkquality')),
};

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function mainKey(kind: string, endpoint: string | undefined): string {
  return endpoint ? `${kind}_${endpoint}` : kind;
}

function suffixed(label: string, endpoint: string | undefined): string {
  return endpoint ? `${label} ${endpoint}` : label;
}

type Hinted = Pick<SpecBase, 'category' | 'enabledByDefault' | 'icon' | 'deviceClass'> & {
  stateClass?: 'measurement' | 'total_increasing';
};

/** A table's hint as spec fields (only those it sets). */
function hinted(h: Hint): Hinted {
  const out: { -readonly [K in keyof Hinted]: Hinted[K] } = {};
  if (h.dc !== undefined) out.deviceClass = h.dc;
  if (h.sc !== undefined) out.stateClass = h.sc;
  if (h.cat !== undefined) out.category = h.cat;
  if (h.icon !== undefined) out.icon = h.icon;
  if (h.enabled !== undefined) out.enabledByDefault = h.enabled;
  return out;
}

/** The entities zigbee2mqtt makes of one expose (exposeToConfig), before the category and metadata rules. */
function entitiesOf(e: Expose, all: readonly Expose[], model: string | undefined): EntitySpec[] {
  const ep = e.endpoint;
  const base = { endpoint: ep, label: ep ? capitalize(ep) : undefined };
  const named = (label: string) => ({ label: suffixed(label, ep), endpoint: ep });
  switch (e.type) {
    case 'light': {
      const light = lightSpec(e, all);
      if (!light) return [];
      const props = [light.state, light.brightness, light.colorTemp?.property, light.color?.property, light.colorMode];
      return [{ ...base, kind: 'light', key: mainKey('light', ep), light, properties: props.filter((p) => p !== undefined) }];
    }
    case 'switch': {
      const state = featureNamed(e.features, 'state');
      if (state?.type !== 'binary') return [];
      const property = propOf(state);
      const common = { property, valueOn: state.value_on, valueOff: state.value_off, properties: [property] };
      // Window or valve detection on a radiator valve is a switch composite of its own: named and keyed by its property.
      const own = Object.hasOwn(SWITCH_OWN_ENTITY, property) ? SWITCH_OWN_ENTITY[property] : undefined;
      if (own !== undefined) return [{ ...common, ...hinted(own), kind: 'switch', key: property, label: e.label, endpoint: ep }];
      return [{ ...base, ...common, kind: 'switch', key: mainKey('switch', ep) }];
    }
    case 'lock': {
      const state = featureNamed(e.features, 'state');
      if (state?.type !== 'binary') return [];
      const property = propOf(state);
      return [
        {
          ...base,
          kind: 'lock',
          key: mainKey('lock', ep),
          property,
          valueOn: state.value_on,
          valueOff: state.value_off,
          properties: [property],
        },
      ];
    }
    case 'cover': {
      const state = featureNamed(e.features, 'state');
      if (state === undefined) return [];
      const position = featureNamed(e.features, 'position');
      const tilt = featureNamed(e.features, 'tilt');
      const props = [propOf(state), position && propOf(position), tilt && propOf(tilt)].filter((p): p is string => typeof p === 'string');
      return [
        {
          ...base,
          kind: 'cover',
          key: mainKey('cover', ep),
          state: propOf(state),
          position: position && propOf(position),
          tilt: tilt && propOf(tilt),
          properties: props,
        },
      ];
    }
    case 'climate':
      return climateEntities(e, all);
    case 'fan': {
      const fan = fanSpec(e, model);
      if (!fan) return [];
      const props = [fan.state, fan.mode?.property, fan.speed?.property].filter((p) => p !== undefined);
      return [{ ...base, kind: 'fan', key: mainKey('fan', ep), fan, properties: props }];
    }
    case 'numeric': {
      const property = propOf(e);
      const key = ep ? `${e.name}_${ep}` : e.name;
      const h = hintFor('numeric', e.name);
      if (e.access & SET) {
        return [
          {
            ...named(e.label),
            kind: 'number',
            key,
            property,
            properties: [property],
            min: e.value_min ?? NUMBER_MIN,
            max: e.value_max ?? NUMBER_MAX,
            step: e.value_step || NUMBER_STEP,
            ...(e.unit ? { unit: e.unit } : {}),
            ...hinted({ ...h, sc: undefined }),
            // zigbee2mqtt keeps only a temperature device class on a number.
            deviceClass: h.dc === 'temperature' ? 'temperature' : undefined,
          },
        ];
      }
      if (!(e.access & STATE)) return [];
      // Home Assistant has a separate device class for VOC in ppb/ppm.
      const lookup = e.name === 'voc' && (e.unit === 'ppb' || e.unit === 'ppm') ? hintFor('numeric', 'voc_parts') : h;
      const merged = { ...lookup, ...unitHint(e.unit) };
      // A device class without a unit makes Home Assistant warn; zigbee2mqtt drops it (and an empty unit).
      if (!e.unit) delete (merged as { dc?: string }).dc;
      const unit = e.unit ? { unit: e.unit } : {};
      return [{ ...named(e.label), kind: 'sensor', key, property, properties: [property], ...unit, ...hinted(merged) }];
    }
    case 'binary': {
      const property = propOf(e);
      const h = hintFor('binary', e.name);
      const common = { ...named(e.label), property, properties: [property], valueOn: e.value_on, valueOff: e.value_off, ...hinted(h) };
      if (e.access & SET) return [{ ...common, kind: 'switch', key: ep ? `switch_${e.name}_${ep}` : `switch_${e.name}` }];
      if (!(e.access & STATE)) return [];
      return [{ ...common, kind: 'binary_sensor', key: ep ? `${e.name}_${ep}` : e.name }];
    }
    case 'enum': {
      // zigbee2mqtt 2.x makes no entity of `action` (it is an event here); an endpoint's `action_l1` stays a sensor.
      if (e.property === 'action') return [];
      const property = propOf(e);
      const h = hinted(hintFor('enum', e.name));
      const common = { ...named(e.label), key: property, property, properties: [property], ...h };
      if (e.access & SET && e.values.length === 1) return [{ ...common, kind: 'button', payload: String(e.values[0]) }];
      if (e.access & SET) return [{ ...common, kind: 'select', options: e.values.map(String), readable: (e.access & STATE) !== 0 }];
      if (e.access & STATE) return [{ ...common, kind: 'sensor' }];
      return [];
    }
    case 'text':
    case 'list':
    case 'composite': {
      const property = propOf(e);
      const common = { ...named(e.label), key: property, property, properties: [property], ...hinted(hintFor('list', e.name)) };
      if (e.type === 'composite' && e.name === 'warning' && e.access & SET) return [sirenOf(e)];
      if (e.type === 'text' && e.access & SET) return [{ ...common, kind: 'text', readable: (e.access & STATE) !== 0 }];
      if (e.access & STATE) return [{ ...common, kind: 'sensor', ...(e.type === 'text' ? {} : { json: true }) }];
      return [];
    }
    default:
      return [];
  }
}

/** A warning composite: Home Assistant's siren, optimistic (no state), its tones the modes but `stop`. */
function sirenOf(e: Extract<Expose, { type: 'composite' }>): EntitySpec {
  const ep = e.endpoint;
  const mode = featureNamed(e.features, 'mode');
  const level = featureNamed(e.features, 'level');
  const duration = featureNamed(e.features, 'duration');
  return {
    kind: 'siren',
    key: mainKey('siren', ep),
    label: ep ? capitalize(ep) : undefined,
    endpoint: ep,
    property: e.property,
    properties: [],
    tones: mode?.type === 'enum' ? mode.values.map(String).filter((v) => v !== 'stop') : [],
    volume: level?.type === 'enum',
    duration: duration?.type === 'numeric',
  };
}

/**
 * zigbee2mqtt's rules after the entities of an expose are made: the expose's own category wins over the tables,
 * then the converters' Home Assistant metadata (entityCategory, deviceClass, enabledByDefault, icon), and a sensor
 * is never `config` (it takes no input).
 */
function finish(spec: EntitySpec, e: Expose): EntitySpec {
  let { category, deviceClass, enabledByDefault, icon } = spec;
  if (e.category === 'config' || e.category === 'diagnostic') category = e.category;
  const meta = e.homeassistant;
  if (meta !== undefined) {
    if (typeof meta.entityCategory === 'string') category = meta.entityCategory;
    if (typeof meta.deviceClass === 'string') deviceClass = meta.deviceClass;
    if (typeof meta.enabledByDefault === 'boolean') enabledByDefault = meta.enabledByDefault;
    if (typeof meta.icon === 'string') icon = meta.icon;
  }
  if ((spec.kind === 'sensor' || spec.kind === 'binary_sensor') && category === 'config') category = 'diagnostic';
  return { ...spec, category, deviceClass, enabledByDefault, icon };
}

/** The entities of a definition's exposes (already resolved for the device), plus the link quality sensor; `model` for zigbee2mqtt's per-model rules. */
export function mapExposes(exposes: readonly Expose[], model?: string): ExposeMapping {
  const specs: EntitySpec[] = [];
  const at = new Map<string, number>();
  const add = (spec: EntitySpec): void => {
    // Two exposes with one object id: zigbee2mqtt publishes the later config over the earlier one.
    const i = at.get(spec.key);
    if (i === undefined) {
      at.set(spec.key, specs.length);
      specs.push(spec);
    } else specs[i] = spec;
  };
  for (const e of exposes) for (const spec of entitiesOf(e, exposes, model)) add(finish(spec, e));
  if (!at.has('linkquality')) add(LINKQUALITY_SPEC);
  const actions = exposes.some((e) => e.name === 'action' && (e.type === 'enum' || e.type === 'text'));
  return { specs, actions };
}

/**
 * The entity id's object part, zigbee2mqtt's rule: the device name, then the part of the object id after the first
 * `_` when it starts with the domain (`switch_child_lock` → `_child_lock`), the whole object id when it does not
 * (`temperature`), nothing when it is the domain itself (`light`).
 */
export function objectIdSuffix(kind: string, key: string): string {
  if (key.startsWith(kind) && key.includes('_')) return key.slice(key.indexOf('_') + 1);
  if (!key.startsWith(kind)) return key;
  return '';
}
