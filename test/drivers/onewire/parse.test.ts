import t from 'tap';
import { parse } from 'yaml';
import { parseOnewireSection } from '../../../drivers/onewire/config.js';
import { parseW1Slave, W1ReadError } from '../../../drivers/onewire/w1-slave.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { JsonValue } from '../../../src/core/json.js';

const slave = (crc: string, t: number | string, bytes = '72 01 4b 46 7f ff 0e 10 57') => `${bytes} : crc=${crc}\n${bytes} t=${t}\n`;

t.test('w1_slave: a good read is degrees Celsius', async (t) => {
  t.equal(parseW1Slave(slave('57 YES', 23125)), 23.125);
  t.equal(parseW1Slave(slave('57 YES', -1250)), -1.25);
  t.equal(parseW1Slave(slave('57 YES', 0, '00 00 4b 46 7f ff 0c 10 1c')), 0, 'a real 0 °C (not an all-zero scratchpad)');
  t.equal(parseW1Slave(slave('57 YES', -55000)), -55);
  t.equal(parseW1Slave(slave('57 YES', 125000)), 125);
  t.equal(parseW1Slave(slave('57 YES', 85000), '3b'), 85, 'a MAX31850 thermocouple may really read 85');
});

t.test('w1_slave: failed reads are errors that say why', async (t) => {
  const fails = (text: string, message: RegExp) => t.throws(() => parseW1Slave(text), { name: 'W1ReadError', message });
  fails(slave('57 NO', 23125), /CRC check failed \(crc=57 NO\)/);
  fails(slave('57 YES', 85000), /85 °C, the power-on value/);
  fails(slave('00 YES', 0, '00 00 00 00 00 00 00 00 00'), /all zeros/);
  fails(slave('57 YES', 127937), /outside the sensor's range of -55 to 125/);
  fails('', /no CRC line/);
  fails('72 01 4b 46 7f ff 0e 10 57 : crc=57 YES\n', /no t= value/);
  fails('garbage\n', /no CRC line/);
  t.ok(new W1ReadError('x') instanceof Error);
});

function issuesOf(yaml: string): string[] {
  const issues: ConfigIssue[] = [];
  parseOnewireSection(parse(yaml) as JsonValue, ['onewire'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

t.test('onewire config: defaults, discovery on when nothing is listed', async (t) => {
  const issues: ConfigIssue[] = [];
  t.same(parseOnewireSection(null, ['onewire'], issues), {
    basePath: '/sys/bus/w1/devices',
    pollIntervalS: 30,
    precision: 1,
    discover: true,
    sensors: [],
  });
  const listed = parseOnewireSection(
    parse('precision: 2\nsensors:\n  - id: 28-0316a2791fff\n    name: Greenhouse\n  - id: 10-000802b5c0f3\n') as JsonValue,
    ['onewire'],
    issues,
  );
  t.same(issues, []);
  t.equal(listed?.discover, false, 'listing sensors turns discovery off unless asked');
  t.same(listed?.sensors, [
    {
      id: '28-0316a2791fff',
      entityId: 'sensor.greenhouse',
      name: 'Greenhouse',
      precision: 2,
      pollIntervalS: 30,
      offset: 0,
      area: undefined,
    },
    {
      id: '10-000802b5c0f3',
      entityId: 'sensor.ds18s20_000802b5c0f3',
      name: 'DS18S20 000802b5c0f3',
      precision: 2,
      pollIntervalS: 30,
      offset: 0,
      area: undefined,
    },
  ]);
});

t.test('onewire config: problems with paths and the allowed values', async (t) => {
  t.same(
    issuesOf(`
base: /tmp
precision: 7
sensors:
  - id: 28-0316A2791FFF
  - id: 29-0316a2791fff
  - name: No id
  - id: 28-0316a2791fff
    name: Greenhouse
    offset: 50
    poll_interval: 0
    colour: red
  - id: 28-0316a2791fff
    object_id: Greenhouse
`),
    [
      'onewire.precision: 7 is not allowed: expected an integer from 0 to 4',
      'onewire.sensors.0.id: "28-0316A2791FFF" is not allowed: expected a 1-Wire temperature sensor id as in /sys/bus/w1/devices, like 28-0316a2791fff (family 10, 22, 28, 3b, 42; lower-case hex)',
      'onewire.sensors.1.id: "29-0316a2791fff" is not allowed: expected a 1-Wire temperature sensor id as in /sys/bus/w1/devices, like 28-0316a2791fff (family 10, 22, 28, 3b, 42; lower-case hex)',
      'onewire.sensors.2.id: is required: expected a 1-Wire temperature sensor id as in /sys/bus/w1/devices, like 28-0316a2791fff (family 10, 22, 28, 3b, 42; lower-case hex)',
      'onewire.sensors.3.poll_interval: 0 is not allowed: expected a number from 0.05 to 86400',
      'onewire.sensors.3.offset: 50 is not allowed: expected a number from -20 to 20',
      'onewire.sensors.3.colour: unknown option; allowed: area, id, name, object_id, offset, poll_interval, precision',
      'onewire.sensors.4.id: sensor 28-0316a2791fff is listed twice',
      'onewire.sensors.4.object_id: "Greenhouse" is not a valid object id: use lower-case letters, digits and single underscores',
      'onewire.base: unknown option; allowed: base_path, discover, poll_interval, precision, sensors',
    ],
  );
});
