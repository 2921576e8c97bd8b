import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parseZigbeeSection } from '../../../drivers/zigbee/config.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import { formatPath } from '../../../src/config/reader.js';
import type { JsonValue } from '../../../src/core/json.js';
import { runCli } from '../../cli/cli-process.js';

// The `zigbee:` section: every problem with its path and the allowed values.

function problems(value: JsonValue): string[] {
  const issues: ConfigIssue[] = [];
  parseZigbeeSection(value, ['zigbee'], issues);
  return issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
}

t.test('an empty section is valid: detect the stick, generate the network, default timeouts', async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseZigbeeSection(null, ['zigbee'], issues);
  t.same(issues, []);
  t.match(config, { adapter: undefined, port: undefined, channel: undefined, mainsTimeoutMs: 600_000, batteryTimeoutMs: 90_000_000 });
});

t.test('a full section', async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseZigbeeSection(
    {
      adapter: 'ember',
      port: '/dev/serial/by-id/usb-ITead_Sonoff_Zigbee_3.0_USB_Dongle_Plus_V2-if00-port0',
      baud_rate: 115200,
      rtscts: false,
      channel: 25,
      pan_id: 6754,
      ext_pan_id: '0xdddddddddddddddd',
      network_key: [1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 13],
      availability: { mains_timeout: 5, battery_timeout: 600 },
      devices: { '0x00158D0001A2B3C4': { friendly_name: 'Balcony', optimistic: true, options: { temperature_precision: 1 } } },
    },
    ['zigbee'],
    issues,
  );
  t.same(issues, []);
  t.match(config, {
    adapter: 'ember',
    baudRate: 115200,
    rtscts: false,
    channel: 25,
    panId: 6754,
    mainsTimeoutMs: 300_000,
    batteryTimeoutMs: 36_000_000,
  });
  t.same(config.extPanId, [0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd, 0xdd]);
  t.same(
    config.devices.get('0x00158d0001a2b3c4'),
    { friendly_name: 'Balcony', optimistic: true, options: { temperature_precision: 1 } },
    'keyed by lower-case IEEE',
  );
});

t.test('every problem with its path and what is allowed', async (t) => {
  t.same(
    problems({
      adapter: 'conbee',
      port: 'COM3',
      baud_rate: 9600,
      channel: 27,
      pan_id: 0xffff,
      ext_pan_id: [1, 2, 3],
      network_key: 'GENERATE',
      availability: { mains_timeout: 0, battery: 5 },
      devices: {
        '0x1234': { friendly_name: 'X' },
        '0x00158d0001a2b3c4': { friendly_name: 'Hall', colour: 'red' },
        '0x00158d0001a2b3c5': { friendly_name: 'hall' },
      },
      led: true,
    }),
    [
      'zigbee.adapter: "conbee" is not allowed: expected one of zstack, ember, deconz, zigate, zboss',
      'zigbee.port: "COM3" is not allowed: expected a device path such as /dev/serial/by-id/usb-... or tcp://host:port',
      'zigbee.baud_rate: 9600 is not allowed: expected one of 38400, 57600, 115200, 230400, 460800, 921600',
      'zigbee.channel: 27 is not allowed: expected an integer from 11 to 26',
      'zigbee.pan_id: 65535 is not allowed: expected an integer from 1 to 65534',
      'zigbee.ext_pan_id: [1,2,3] is not allowed: expected 8 bytes, as a list of 8 integers from 0 to 255 or a hex string of 16 digits',
      'zigbee.network_key: "GENERATE" is not allowed: expected 16 bytes, as a list of 16 integers from 0 to 255 or a hex string of 32 digits',
      'zigbee.availability.mains_timeout: 0 is not allowed: expected a number from 1 to 10080',
      'zigbee.availability.battery: unknown option; allowed: battery_timeout, mains_timeout',
      'zigbee.devices.0x1234: "0x1234" is not an IEEE address: expected 0x and 16 hex digits, e.g. 0x00158d0001a2b3c4',
      'zigbee.devices.0x00158d0001a2b3c4.colour: unknown option; allowed: area, friendly_name, optimistic, options',
      'zigbee.devices.0x00158d0001a2b3c5.friendly_name: "hall" is already the name of zigbee.devices.0x00158d0001a2b3c4',
      'zigbee.led: unknown option; allowed: adapter, availability, baud_rate, channel, devices, ext_pan_id, network_key, ota, pan_id, port, rtscts',
    ],
  );
});

t.test('hearth check-config reports zigbee problems with file positions', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-zigbee-check-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'configuration.yaml');
  await writeFile(file, ['hub:', '  time_zone: Europe/Amsterdam', 'zigbee:', '  adapter: conbee', '  channel: 30', ''].join('\n'));
  const r = await runCli(['check-config', '--config', file]);
  t.equal(r.code, 1);
  t.match(r.stdout, `${file}:4:12: zigbee.adapter: "conbee" is not allowed: expected one of zstack, ember, deconz, zigate, zboss`);
  t.match(r.stdout, `${file}:5:12: zigbee.channel: 30 is not allowed: expected an integer from 11 to 26`);
  await writeFile(file, ['hub:', '  time_zone: Europe/Amsterdam', 'zigbee:', ''].join('\n'));
  const ok = await runCli(['check-config', '--config', file]);
  t.equal(ok.code, 0, ok.stdout + ok.stderr);
});

t.test('start failures become one sentence naming the adapter, port or firmware', async (t) => {
  const { describeStartFailure } = await import('../../../drivers/zigbee/adapter-errors.js');
  t.equal(
    describeStartFailure(
      new Error("USB adapter discovery error (spawn udevadm ENOENT). Specify valid 'adapter' and 'port' in your configuration."),
      undefined,
      undefined,
    ),
    "Zigbee adapter: no stick was detected over USB (USB adapter discovery error (spawn udevadm ENOENT). Specify valid 'adapter' and 'port' in your configuration.); give adapter and port (/dev/serial/by-id/...) in the zigbee: section",
  );
  t.match(
    describeStartFailure(new Error('Error: Resource temporarily unavailable Cannot lock port'), 'zstack', '/dev/ttyACM0'),
    /^Zigbee adapter zstack on \/dev\/ttyACM0: the port is busy/,
  );
  t.match(
    describeStartFailure(new Error('Error: No such file or directory, cannot open /dev/ttyACM0'), 'zstack', '/dev/ttyACM0'),
    /^Zigbee adapter zstack on \/dev\/ttyACM0: the port is missing/,
  );
  t.match(
    describeStartFailure(new Error('NCP has old-style version number. Not supported.'), 'ember', '/dev/ttyUSB0'),
    /^Zigbee adapter ember on \/dev\/ttyUSB0: the firmware is not supported/,
  );
  t.match(
    describeStartFailure('something else', 'deconz', '/dev/ttyACM0'),
    'Zigbee adapter deconz on /dev/ttyACM0 did not start: something else',
  );
});
