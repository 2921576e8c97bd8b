// What an entity registry entry changes in its entity's state: the user's name, icon and device class written
// over the provider's attributes, and a sensor shown in the unit the user chose (Home Assistant's sensor options).
import type { StateAdjust } from '../core/entities.js';
import { domainOf } from '../core/entity-id.js';
import type { JsonObject, JsonValue } from '../core/json.js';
import { merge } from '../core/merge.js';
import type { Attributes } from '../core/state.js';
import { converterFor, type UnitConverter } from '../util/unit-conversion.js';
import type { EntityOptions, EntryFields } from './entity-entry.js';

/** Attributes the user set in the registry, or undefined when none. */
export function overridesOf(entry: EntryFields): Attributes | undefined {
  if (entry.name === null && entry.icon === null && entry.device_class === null) return undefined;
  const out: Record<string, JsonValue> = {};
  if (entry.name !== null) out.friendly_name = entry.name;
  if (entry.icon !== null) out.icon = entry.icon;
  if (entry.device_class !== null) out.device_class = entry.device_class;
  return out;
}

/** A sensor option's value, when the options hold that domain. */
function option(options: EntityOptions, domain: string, key: string): JsonValue | undefined {
  const forDomain: JsonObject | undefined = Object.hasOwn(options, domain) ? options[domain] : undefined;
  return forDomain !== undefined && Object.hasOwn(forDomain, key) ? forDomain[key] : undefined;
}

/** The display precision the options hold: the user's, else the integration's suggestion (HA's `_display_precision_or_none`). */
export function displayPrecisionOf(options: EntityOptions): number | undefined {
  for (const key of ['display_precision', 'suggested_display_precision']) {
    const p = option(options, 'sensor', key);
    if (typeof p === 'number') return p;
  }
  return undefined;
}

/**
 * The unit a sensor is shown in: the user's choice, else the integration's suggestion, when its converter knows
 * both that and the sensor's own unit (HA's `_custom_unit_or_undef`); undefined keeps its own.
 */
function shownUnit(options: EntityOptions, converter: UnitConverter | undefined, native: JsonValue | undefined): string | undefined {
  if (converter === undefined || typeof native !== 'string' || !converter.units.has(native)) return undefined;
  for (const [domain, key] of [
    ['sensor', 'unit_of_measurement'],
    ['sensor.private', 'suggested_unit_of_measurement'],
  ] as const) {
    const unit = option(options, domain, key);
    if (typeof unit === 'string' && converter.units.has(unit)) return unit;
  }
  return undefined;
}

/**
 * The options with the sensor's suggested display precision (the decimals its provider rounds to), scaled to the
 * unit it is shown in (HA's `_update_suggested_precision`: 1500 W with 0 decimals is 1.500 kW).
 */
export function withSuggestedPrecision(options: EntityOptions, suggested: number | undefined, provided: Attributes): EntityOptions {
  if (suggested !== undefined && Object.keys(options).length === 0) return suggestedOnly(suggested);
  let precision = suggested;
  const native = provided.unit_of_measurement;
  const converter = converterFor(provided.device_class);
  const unit = shownUnit(options, converter, native);
  if (precision !== undefined && converter !== undefined && typeof native === 'string' && unit !== undefined && unit !== native) {
    const ratio = Math.log10(converter.ratio(native, unit));
    precision = Math.max(0, precision + (ratio > 0 ? Math.floor(ratio) : Math.ceil(ratio)));
  }
  const sensor: Record<string, JsonValue> = { ...(Object.hasOwn(options, 'sensor') ? options.sensor : {}) };
  if (sensor.suggested_display_precision === precision) return options;
  delete sensor.suggested_display_precision;
  if (precision !== undefined) sensor.suggested_display_precision = precision;
  const next = Object.create(null) as Record<string, JsonObject>;
  for (const key of Object.keys(options)) if (key !== 'sensor') next[key] = options[key] as JsonObject;
  if (Object.keys(sensor).length > 0) next.sensor = sensor;
  return next;
}

/** The options of most sensors, shared (frozen) between them: a suggested precision and nothing else. */
const SUGGESTED_ONLY = new Map<number, EntityOptions>();

function suggestedOnly(precision: number): EntityOptions {
  let options = SUGGESTED_ONLY.get(precision);
  if (options === undefined) {
    const out = Object.create(null) as Record<string, JsonObject>;
    out.sensor = Object.freeze({ suggested_display_precision: precision });
    options = Object.freeze(out);
    SUGGESTED_ONLY.set(precision, options);
  }
  return options;
}

/** A string attribute, or null. */
export function stringAttr(attrs: Attributes | undefined, key: string): string | null {
  const v = attrs?.[key];
  return typeof v === 'string' ? v : null;
}

/** A decimal number as Python's int()/float() read a state string; undefined otherwise (HA leaves such states). */
const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*$/i;

/** Python's `f"{x:z.{p}f}"`: fixed decimals, never a negative zero. */
function fixed(x: number, decimals: number): string {
  const text = x.toFixed(Math.min(100, Math.max(0, decimals)));
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** Python's `str(float)`: `1000.0`, `29.5`, `1e-05`, as Home Assistant writes a converted value it does not round. */
export function pythonFloat(x: number): string {
  const abs = Math.abs(x);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e16)) {
    const [mantissa, exp] = x.toExponential().split('e') as [string, string];
    const sign = exp.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exp.replace(/^[-+]/, '').padStart(2, '0')}`;
  }
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/**
 * A sensor shown in another unit (Home Assistant's SensorEntity.state and unit_of_measurement): the unit the user
 * chose, else the one the integration suggested, applies when the sensor's device class has a converter that
 * knows both its own unit and that one. A numeric state is converted; without a display precision it is
 * rounded to as many decimals as the sensor gave, more when the new unit is larger (1.1 Wh is 0.0011 kWh).
 */
export function sensorAdjust(entityId: string, options: EntityOptions): StateAdjust | undefined {
  if (domainOf(entityId) !== 'sensor') return undefined;
  const chosen = option(options, 'sensor', 'unit_of_measurement');
  const suggested = option(options, 'sensor.private', 'suggested_unit_of_measurement');
  if (typeof chosen !== 'string' && typeof suggested !== 'string') return undefined;
  const rounded = displayPrecisionOf(options) === undefined;
  return (state, attributes) => {
    const native = attributes.unit_of_measurement;
    const converter = converterFor(attributes.device_class);
    const unit = shownUnit(options, converter, native);
    if (converter === undefined || typeof native !== 'string' || unit === undefined || unit === native) return undefined;
    const shown = merge(attributes, { unit_of_measurement: unit });
    const value = NUMBER.test(state) ? Number(state) : Number.NaN;
    if (!Number.isFinite(value)) return { state, attributes: shown };
    const converted = converter.convert(value, native, unit);
    if (!rounded) return { state: pythonFloat(converted), attributes: shown };
    const trimmed = state.trim();
    const dot = trimmed.indexOf('.');
    const decimals = dot === -1 ? 0 : trimmed.length - dot - 1;
    const larger = Math.floor(Math.max(0, Math.log10(converter.ratio(native, unit))));
    return { state: fixed(converted, decimals + larger), attributes: shown };
  };
}
