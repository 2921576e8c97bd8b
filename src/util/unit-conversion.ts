/**
 * Home Assistant's unit converters (homeassistant/util/unit_conversion.py) and which sensor device class uses
 * which (components/sensor/const.py UNIT_CONVERTERS), for the units a sensor's state may be shown in. Every
 * converter but temperature's and the Beaufort scale's is a ratio to a base unit; the ratios are HA's, so a
 * converted state is the same number Home Assistant shows.
 */

const MM_TO_M = 0.001;
const CM_TO_M = 0.01;
const KM_TO_M = 1000;
const IN_TO_M = 0.0254;
const FOOT_TO_M = IN_TO_M * 12;
const YARD_TO_M = FOOT_TO_M * 3;
const MILE_TO_M = YARD_TO_M * 1760;
const NAUTICAL_MILE_TO_M = 1852;
const HRS_TO_SECS = 3600;
const DAYS_TO_SECS = 24 * HRS_TO_SECS;
const WH_TO_J = 3600;
const WH_TO_CAL = WH_TO_J / 4.184;
const POUND_TO_G = 453.59237;
const OUNCE_TO_G = POUND_TO_G / 16;
const STONE_TO_G = POUND_TO_G * 14;
const STANDARD_GRAVITY = 9.80665;
const MERCURY_DENSITY = 13.5951;
const L_TO_CUBIC_METER = 0.001;
const ML_TO_CUBIC_METER = 0.001 * L_TO_CUBIC_METER;
const GALLON_TO_CUBIC_METER = 231 * IN_TO_M ** 3;
const FLUID_OUNCE_TO_CUBIC_METER = GALLON_TO_CUBIC_METER / 128;
const CUBIC_FOOT_TO_CUBIC_METER = FOOT_TO_M ** 3;
const CCF_TO_CUBIC_METER = CUBIC_FOOT_TO_CUBIC_METER * 100;

export interface UnitConverter {
  /** HA's UNIT_CLASS. */
  readonly unitClass: string;
  /** HA's VALID_UNITS. */
  readonly units: ReadonlySet<string>;
  convert(value: number, from: string, to: string): number;
  /** How many `to` make one `from` (HA's get_unit_ratio): a larger unit has a ratio below 1. */
  ratio(from: string, to: string): number;
}

/** A converter whose units are each a fixed number of its base unit (HA's BaseUnitConverter). */
function ratioConverter(unitClass: string, perBase: ReadonlyArray<readonly [string, number]>): UnitConverter {
  const table = new Map(perBase);
  const of = (unit: string): number => {
    const r = table.get(unit);
    if (r === undefined) throw new RangeError(`${unit} is not a recognized ${unitClass} unit`);
    return r;
  };
  return {
    unitClass,
    units: new Set(table.keys()),
    convert: (value, from, to) => (from === to ? value : (value / of(from)) * of(to)),
    ratio: (from, to) => of(from) / of(to),
  };
}

const distance = ratioConverter('distance', [
  ['m', 1],
  ['mm', 1 / MM_TO_M],
  ['cm', 1 / CM_TO_M],
  ['km', 1 / KM_TO_M],
  ['in', 1 / IN_TO_M],
  ['ft', 1 / FOOT_TO_M],
  ['yd', 1 / YARD_TO_M],
  ['mi', 1 / MILE_TO_M],
]);

const energy = ratioConverter('energy', [
  ['J', WH_TO_J * 1e3],
  ['kJ', WH_TO_J],
  ['MJ', WH_TO_J / 1e3],
  ['GJ', WH_TO_J / 1e6],
  ['Wh', 1e3],
  ['kWh', 1],
  ['MWh', 1 / 1e3],
  ['cal', WH_TO_CAL * 1e3],
  ['kcal', WH_TO_CAL],
  ['Mcal', WH_TO_CAL / 1e3],
  ['Gcal', WH_TO_CAL / 1e6],
]);

const mass = ratioConverter('mass', [
  ['µg', 1e6],
  ['mg', 1e3],
  ['g', 1],
  ['kg', 1 / 1000],
  ['oz', 1 / OUNCE_TO_G],
  ['lb', 1 / POUND_TO_G],
  ['st', 1 / STONE_TO_G],
]);

const power = ratioConverter('power', [
  ['W', 1],
  ['kW', 1 / 1000],
]);

const pressure = ratioConverter('pressure', [
  ['Pa', 1],
  ['hPa', 1 / 100],
  ['kPa', 1 / 1000],
  ['bar', 1 / 100000],
  ['cbar', 1 / 1000],
  ['mbar', 1 / 100],
  ['inHg', 1 / (IN_TO_M * 1000 * STANDARD_GRAVITY * MERCURY_DENSITY)],
  ['psi', 1 / 6894.757],
  ['mmHg', 1 / (MM_TO_M * 1000 * STANDARD_GRAVITY * MERCURY_DENSITY)],
]);

const speedRatios = ratioConverter('speed', [
  ['in/d', DAYS_TO_SECS / IN_TO_M],
  ['in/h', HRS_TO_SECS / IN_TO_M],
  ['mm/d', DAYS_TO_SECS / MM_TO_M],
  ['mm/h', HRS_TO_SECS / MM_TO_M],
  ['ft/s', 1 / FOOT_TO_M],
  ['km/h', HRS_TO_SECS / KM_TO_M],
  ['kn', HRS_TO_SECS / NAUTICAL_MILE_TO_M],
  ['m/s', 1],
  ['mm/s', 1 / MM_TO_M],
  ['mph', HRS_TO_SECS / MILE_TO_M],
]);

/** Speeds, with HA's Beaufort scale (not a ratio: m/s = 0.836 Bft^1.5). */
const speed: UnitConverter = {
  unitClass: 'speed',
  units: new Set([...speedRatios.units, 'Beaufort']),
  convert(value, from, to) {
    if (from === to) return value;
    if (from === 'Beaufort') return speedRatios.convert(0.836 * value ** 1.5, 'm/s', to);
    if (to === 'Beaufort') return Math.round(Math.cbrt((speedRatios.convert(value, from, 'm/s') / 0.836) ** 2));
    return speedRatios.convert(value, from, to);
  },
  ratio: (from, to) => speedRatios.ratio(from === 'Beaufort' ? 'm/s' : from, to === 'Beaufort' ? 'm/s' : to),
};

const CELSIUS = '°C';
const FAHRENHEIT = '°F';
const KELVIN = 'K';

/** Temperatures: 0 °C, 0 °F and 0 K are different points, so not a ratio (HA's TemperatureConverter). */
const temperature: UnitConverter = {
  unitClass: 'temperature',
  units: new Set([CELSIUS, FAHRENHEIT, KELVIN]),
  convert(value, from, to) {
    if (from === to) return value;
    const celsius = from === CELSIUS ? value : from === FAHRENHEIT ? (value - 32) / 1.8 : from === KELVIN ? value - 273.15 : Number.NaN;
    if (Number.isNaN(celsius)) throw new RangeError(`${from} is not a recognized temperature unit`);
    if (to === CELSIUS) return celsius;
    if (to === FAHRENHEIT) return celsius * 1.8 + 32;
    if (to === KELVIN) return celsius + 273.15;
    throw new RangeError(`${to} is not a recognized temperature unit`);
  },
  ratio(from, to) {
    const scale = (u: string): number => (u === FAHRENHEIT ? 1.8 : 1);
    return scale(from) / scale(to);
  },
};

const volume = ratioConverter('volume', [
  ['L', 1 / L_TO_CUBIC_METER],
  ['mL', 1 / ML_TO_CUBIC_METER],
  ['gal', 1 / GALLON_TO_CUBIC_METER],
  ['fl. oz.', 1 / FLUID_OUNCE_TO_CUBIC_METER],
  ['m³', 1],
  ['ft³', 1 / CUBIC_FOOT_TO_CUBIC_METER],
  ['CCF', 1 / CCF_TO_CUBIC_METER],
]);

const dataRate = ratioConverter('data_rate', [
  ['bit/s', 1],
  ['kbit/s', 1 / 1e3],
  ['Mbit/s', 1 / 1e6],
  ['Gbit/s', 1 / 1e9],
  ['B/s', 1 / 8],
  ['kB/s', 1 / 8e3],
  ['MB/s', 1 / 8e6],
  ['GB/s', 1 / 8e9],
  ['KiB/s', 1 / 2 ** 13],
  ['MiB/s', 1 / 2 ** 23],
  ['GiB/s', 1 / 2 ** 33],
]);

const information = ratioConverter('information', [
  ['bit', 1],
  ['kbit', 1 / 1e3],
  ['Mbit', 1 / 1e6],
  ['Gbit', 1 / 1e9],
  ['B', 1 / 8],
  ['kB', 1 / 8e3],
  ['MB', 1 / 8e6],
  ['GB', 1 / 8e9],
  ['TB', 1 / 8e12],
  ['KiB', 1 / 2 ** 13],
  ['MiB', 1 / 2 ** 23],
  ['GiB', 1 / 2 ** 33],
  ['TiB', 1 / 2 ** 43],
]);

const current = ratioConverter('electric_current', [
  ['A', 1],
  ['mA', 1e3],
]);

const voltage = ratioConverter('voltage', [
  ['V', 1],
  ['mV', 1e3],
]);

const duration = ratioConverter('duration', [
  ['µs', 1e6],
  ['ms', 1e3],
  ['s', 1],
  ['min', 1 / 60],
  ['h', 1 / HRS_TO_SECS],
  ['d', 1 / DAYS_TO_SECS],
  ['w', 1 / (7 * DAYS_TO_SECS)],
]);

/** Sensor device class -> its converter (HA's UNIT_CONVERTERS). */
const BY_DEVICE_CLASS: ReadonlyMap<string, UnitConverter> = new Map([
  ['atmospheric_pressure', pressure],
  ['current', current],
  ['data_rate', dataRate],
  ['data_size', information],
  ['distance', distance],
  ['duration', duration],
  ['energy', energy],
  ['energy_storage', energy],
  ['gas', volume],
  ['power', power],
  ['precipitation', distance],
  ['precipitation_intensity', speed],
  ['pressure', pressure],
  ['speed', speed],
  ['temperature', temperature],
  ['voltage', voltage],
  ['volume', volume],
  ['volume_storage', volume],
  ['water', volume],
  ['weight', mass],
  ['wind_speed', speed],
]);

/** The units a device class may be shown in, when fewer than its converter's (HA's DEVICE_CLASS_UNITS). */
const NARROWER_UNITS: ReadonlyMap<string, readonly string[]> = new Map([
  ['gas', ['m³', 'ft³', 'CCF']],
  ['water', ['L', 'gal', 'm³', 'ft³', 'CCF']],
  ['precipitation', ['cm', 'in', 'mm']],
  ['precipitation_intensity', ['in/d', 'in/h', 'mm/d', 'mm/h']],
  ['wind_speed', ['Beaufort', 'ft/s', 'km/h', 'kn', 'm/s', 'mph']],
  ['volume_storage', ['L', 'mL', 'gal', 'fl. oz.', 'm³', 'ft³', 'CCF']],
]);

/** The converter of a sensor device class, if its values can be shown in other units. */
export function converterFor(deviceClass: unknown): UnitConverter | undefined {
  return typeof deviceClass === 'string' ? BY_DEVICE_CLASS.get(deviceClass) : undefined;
}

/** HA's `sensor/device_class_convertible_units`: the units a device class converts between, sorted case-blind. */
export function convertibleUnits(deviceClass: string): string[] {
  const converter = converterFor(deviceClass);
  if (converter === undefined) return [];
  const units = NARROWER_UNITS.get(deviceClass) ?? [...converter.units];
  return [...units].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0));
}
