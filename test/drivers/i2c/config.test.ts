import t from 'tap';
import { i2cIntegration } from '../../../drivers/i2c/index.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import { silentLogger } from '../../../src/core/log.js';
import { i2cIssues } from '../../fakes/i2c-harness.js';
import { integrationContext } from '../../helpers/integration-context.js';

t.test('a valid section has no problems', async (t) => {
  t.same(
    i2cIssues(`
timeout_ms: 500
retries: 1
devices:
  - {chip: bme280, address: 0x76, name: Living Room}
  - {chip: bme280, address: 0x76, bus: 3, name: Attic, area: Attic}
  - {chip: sht31, address: "0x45", name: Greenhouse, poll_interval: 10}
  - {chip: bh1750}
  - chip: pca9685
    address: 0x41
    channels: [{channel: 15, platform: fan, name: Vent}]
`),
    [],
  );
});

t.test('unknown chips and keys name the allowed values', async (t) => {
  t.same(i2cIssues('devices: [{chip: bmp180}, {address: 0x76}, {chip: bh1750, colour: red}]'), [
    'i2c.devices.0.chip: "bmp180" is not allowed: expected one of ads1115, bh1750, bme280, bmp280, pca9685, sht30, sht31, sht35',
    'i2c.devices.1.chip: is required: expected one of ads1115, bh1750, bme280, bmp280, pca9685, sht30, sht31, sht35',
    'i2c.devices.2.colour: unknown option; allowed: address, area, bus, chip, id, name, poll_interval',
  ]);
  t.same(i2cIssues('{}'), ['i2c.devices: is required: expected a list of chips, e.g. [{chip: bme280, address: 0x76}]']);
  t.same(i2cIssues('devices: []\nspeed: 400'), ['i2c.speed: unknown option; allowed: devices, retries, timeout_ms']);
  t.same(i2cIssues('[1, 2]'), ['i2c: expected a mapping (key: value), got a list']);
});

t.test('addresses: 7-bit, one the chip can have, and used once per bus', async (t) => {
  t.same(
    i2cIssues(`
devices:
  - {chip: bme280, address: 0x80}
  - {chip: bme280, address: 0x44}
  - {chip: bme280, address: seventy}
  - {chip: pca9685, address: 0x20, channels: [{channel: 0}]}
  - {chip: sht31, address: 0x44, name: One}
  - {chip: sht31, address: 0x44, name: Two}
`),
    [
      'i2c.devices.0.address: 128 is not allowed: expected a 7-bit I²C address (0x00 to 0x7f), e.g. 0x76',
      'i2c.devices.1.address: 0x44 is not an address a BME280 can have: expected one of 0x76, 0x77',
      'i2c.devices.2.address: "seventy" is not allowed: expected a 7-bit I²C address (0x00 to 0x7f), e.g. 0x76',
      'i2c.devices.3.address: 0x20 is not an address a PCA9685 can have: expected 0x40 to 0x7f',
      'i2c.devices.5.address: 0x44 on bus 1 is already used by i2c.devices[4] (sht31)',
    ],
  );
});

t.test('entity ids may not collide between chips', async (t) => {
  t.same(i2cIssues('devices: [{chip: bme280, name: Room}, {chip: sht31, name: Room}]'), [
    'i2c.devices.1.id: sensor.room_temperature is already an entity of i2c.devices[0]; give this device another id',
    'i2c.devices.1.id: sensor.room_humidity is already an entity of i2c.devices[0]; give this device another id',
  ]);
  t.same(i2cIssues('devices: [{chip: bh1750, id: Bad-Id}]'), [
    'i2c.devices.0.id: "Bad-Id" is not a valid object id: use lower-case letters, digits and single underscores',
  ]);
});

t.test('PCA9685 channels: in range, once each, a known platform', async (t) => {
  t.same(
    i2cIssues(`
devices:
  - chip: pca9685
    frequency: 2000
    channels:
      - {channel: 16}
      - {channel: 2, platform: switch}
      - {channel: 3, name: A}
      - {channel: 3, name: B}
      - {platform: fan}
      - {channel: 5, platform: fan, gamma: 2}
`),
    [
      'i2c.devices.0.frequency: 2000 is not allowed: expected a number from 24 to 1526',
      'i2c.devices.0.channels.0.channel: 16 is not allowed: expected an integer from 0 to 15',
      'i2c.devices.0.channels.1.platform: "switch" is not allowed: expected one of fan, light',
      'i2c.devices.0.channels.3.channel: channel 3 is already used by channels[2]',
      'i2c.devices.0.channels.4.channel: is required: expected an integer from 0 to 15',
      'i2c.devices.0.channels.5.gamma: unknown option; allowed: channel, id, invert, min_duty, name, platform, speed_count',
    ],
  );
});

t.test('poll_interval, timeout and retries are bounded', async (t) => {
  t.same(i2cIssues('timeout_ms: 0\nretries: 9\ndevices: [{chip: bh1750, poll_interval: 0}]'), [
    'i2c.timeout_ms: 0 is not allowed: expected an integer from 10 to 60000',
    'i2c.retries: 9 is not allowed: expected an integer from 0 to 5',
    'i2c.devices.0.poll_interval: 0 is not allowed: expected a number from 0.1 to 86400',
  ]);
});

t.test('the integration reads its section under its path and creates a driver only for devices', async (t) => {
  const issues: ConfigIssue[] = [];
  i2cIntegration.sections.i2c({ devices: [{ chip: 'nope' }] }, ['i2c'], issues);
  t.same(
    issues.map((i) => i.path),
    [['i2c', 'devices', 0, 'chip']],
  );
  const core = new Core({ log: silentLogger });
  const ctx = integrationContext(core, 'i2c');
  const parse = (value: JsonValue) => ({ i2c: i2cIntegration.sections.i2c(value, ['i2c'], []) });
  t.equal(i2cIntegration.create(ctx, parse({ devices: [] })), undefined);
  const driver = i2cIntegration.create(ctx, parse({ devices: [{ chip: 'bh1750', name: 'Probe', bus: 250 }] }));
  t.equal(driver?.name, 'i2c');
});
