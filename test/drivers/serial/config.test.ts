import t from 'tap';
import { serialIntegration } from '../../../drivers/serial/index.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import { silentLogger } from '../../../src/core/log.js';
import { serialIssues } from '../../fakes/serial-harness.js';
import { integrationContext } from '../../helpers/integration-context.js';

t.test('a valid section has no problems', async (t) => {
  t.same(
    serialIssues(`
devices:
  - {type: pms5003, port: /dev/serial/by-id/usb-a, name: Living Room Air, timeout: 30, area: Living Room}
  - {type: sds011, port: /dev/ttyUSB0, baud_rate: 9600}
  - type: line
    port: /dev/ttyACM0
    format: json
    sensors: [{key: t, unit: °C}, {key: h, unit: '%', state_class: none}]
`),
    [],
  );
});

t.test('missing and unknown values name what is allowed', async (t) => {
  t.same(serialIssues('{}'), [
    'serial.devices: is required: expected a list of serial devices, e.g. [{type: pms5003, port: /dev/serial/by-id/...}]',
  ]);
  t.same(
    serialIssues(`
devices:
  - {type: pms7003, port: /dev/ttyUSB0}
  - {port: /dev/ttyUSB1}
  - {type: pms5003, name: A}
  - {type: pms5003, name: B, port: /dev/ttyUSB2, baud_rate: 9601, timeout: 0, colour: red}
`),
    [
      'serial.devices.0.type: "pms7003" is not allowed: expected one of line, pms5003, sds011',
      'serial.devices.1.type: is required: expected one of line, pms5003, sds011',
      'serial.devices.2.port: is required: expected the device path, preferably /dev/serial/by-id/... (ls -l /dev/serial/by-id/)',
      'serial.devices.3.baud_rate: 9601 is not allowed: expected one of 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600',
      'serial.devices.3.timeout: 0 is not allowed: expected a number from 1 to 86400',
      'serial.devices.3.colour: unknown option; allowed: area, baud_rate, id, name, port, timeout, type',
    ],
  );
});

t.test('a port and entity ids are used once', async (t) => {
  t.same(
    serialIssues(`
devices:
  - {type: pms5003, port: /dev/serial/by-id/usb-a, name: Air}
  - {type: sds011, port: /dev/serial/by-id/usb-a, name: Air}
`),
    [
      'serial.devices.1.port: /dev/serial/by-id/usb-a is already used by serial.devices[0]',
      'serial.devices.1.id: sensor.air_pm25 is already an entity of serial.devices[0]; give this device another id',
      'serial.devices.1.id: sensor.air_pm10 is already an entity of serial.devices[0]; give this device another id',
    ],
  );
});

t.test('line sensors: sensors required, keys only with JSON, several values only with JSON', async (t) => {
  const issues = serialIssues(`
devices:
  - {type: line, port: /dev/a}
  - {type: line, port: /dev/b, id: b, sensors: [{key: t}]}
  - {type: line, port: /dev/c, id: c, sensors: [{name: C1}, {name: C2}]}
  - {type: line, port: /dev/d, id: d, format: json, sensors: [{name: T}, {key: "a..b"}, {key: x, device_class: heat}]}
  - {type: line, port: /dev/e, id: e, format: csv, sensors: [{unit: V}]}
`);
  t.same(issues.slice(0, 5), [
    'serial.devices.0.sensors: is required: list what the lines hold, e.g. [{name: Soil Moisture, unit: "%"}] or with format: json [{key: temp, ...}]',
    'serial.devices.1.sensors.0.key: is only used with format: json; a value line holds a single value',
    'serial.devices.2.sensors: 2 sensors, but a value line holds one value; use format: json for several',
    'serial.devices.3.sensors.0.key: is required: expected a string',
    'serial.devices.3.sensors.1.key: "a..b" is not a key: expected a name like temp, or a path like bme.temp',
  ]);
  t.match(issues[5], /^serial\.devices\.3\.sensors\.2\.device_class: "heat" is not allowed: expected one of apparent_power, aqi, /);
  t.equal(issues[6], 'serial.devices.4.format: "csv" is not allowed: expected one of value, json');
  t.equal(issues.length, 7);
});

t.test('the integration reads its section under its path and creates a driver only for devices', async (t) => {
  const issues: ConfigIssue[] = [];
  serialIntegration.sections.serial({ devices: [{ type: 'pms5003' }] }, ['serial'], issues);
  t.same(
    issues.map((i) => i.path),
    [['serial', 'devices', 0, 'port']],
  );
  const core = new Core({ log: silentLogger });
  const ctx = integrationContext(core, 'serial');
  const parse = (value: JsonValue) => ({ serial: serialIntegration.sections.serial(value, ['serial'], []) });
  t.equal(serialIntegration.create(ctx, parse({ devices: [] })), undefined);
  t.equal(serialIntegration.create(ctx, parse({ devices: [{ type: 'sds011', port: '/dev/null' }] }))?.name, 'serial');
});
