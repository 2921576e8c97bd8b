import t from 'tap';
import { converterFor, convertibleUnits } from '../../src/util/unit-conversion.js';

/** Home Assistant's tests/util/test_unit_conversion.py values, a few per converter. */
const CASES: ReadonlyArray<readonly [string, number, string, number, string]> = [
  ['temperature', 100, '°C', 212, '°F'],
  ['temperature', 0, '°C', 273.15, 'K'],
  ['temperature', 32, '°F', 273.15, 'K'],
  ['pressure', 1000, 'hPa', 29.52998, 'inHg'],
  ['pressure', 1, 'bar', 14.50377, 'psi'],
  ['speed', 100, 'km/h', 62.13712, 'mph'],
  ['speed', 10, 'm/s', 19.43844, 'kn'],
  ['wind_speed', 5, 'm/s', 3, 'Beaufort'],
  ['wind_speed', 4, 'Beaufort', 6.688, 'm/s'],
  ['distance', 5, 'km', 3.10686, 'mi'],
  ['energy', 1, 'kWh', 3.6, 'MJ'],
  ['energy', 1000, 'Wh', 1, 'kWh'],
  ['power', 1500, 'W', 1.5, 'kW'],
  ['volume', 1, 'gal', 3.78541, 'L'],
  ['weight', 1, 'lb', 453.59237, 'g'],
  ['data_size', 1, 'GiB', 1024, 'MiB'],
  ['duration', 2, 'h', 120, 'min'],
];

t.test("converts as Home Assistant's converters do", async (t) => {
  for (const [deviceClass, value, from, expected, to] of CASES) {
    const converter = converterFor(deviceClass);
    if (converter === undefined) {
      t.fail(`no converter for ${deviceClass}`);
      continue;
    }
    t.ok(
      Math.abs(converter.convert(value, from, to) - expected) < 1e-4 * Math.max(1, Math.abs(expected)),
      `${value} ${from} is ${expected} ${to}`,
    );
  }
  t.throws(() => converterFor('distance')?.convert(1, 'km', 'furlong'), /furlong is not a recognized distance unit/);
  t.equal(converterFor('battery'), undefined, 'a class without units to convert between');
  t.equal(converterFor(undefined), undefined);
});

t.test('sensor/device_class_convertible_units lists', async (t) => {
  t.same(convertibleUnits('temperature'), ['K', '°C', '°F']);
  t.same(convertibleUnits('precipitation'), ['cm', 'in', 'mm']);
  t.same(convertibleUnits('power'), ['kW', 'W']);
  t.same(convertibleUnits('humidity'), []);
  t.same(convertibleUnits('constructor'), []);
});
