import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { backendLoader, hasGpioChips } from '../../../drivers/gpio/backend.js';
import { parseGpioSection } from '../../../drivers/gpio/config.js';
import { loadConfig, parseConfigText } from '../../../src/config/load.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { JsonValue } from '../../../src/core/json.js';
import { BINARY_SENSOR_DEVICE_CLASSES } from '../../../src/domains/binary-sensor.js';
import { SECTION_VALIDATORS } from '../../../src/hub.js';
import { runCli } from '../../cli/cli-process.js';

const EXAMPLE = fileURLToPath(new URL('../../../config/examples/gpio-onewire.yaml', import.meta.url));

function issuesOf(yaml: string): string[] {
  const issues: ConfigIssue[] = [];
  parseGpioSection(parse(yaml) as JsonValue, ['gpio'], issues);
  return issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

/** The problems check-config prints for a whole file: `<file>:<line>:<col>: <path>: <message>`. */
function checkConfig(yaml: string): string[] {
  try {
    parseConfigText(yaml, null, SECTION_VALIDATORS, { displayPath: 'configuration.yaml' });
    return [];
  } catch (err) {
    return (err as Error).message.split('\n');
  }
}

t.test('the bundled example is valid and configures what it says', async (t) => {
  const config = await loadConfig(EXAMPLE, SECTION_VALIDATORS);
  const gpio = parseGpioSection(config.sections.gpio as JsonValue, ['gpio'], []);
  t.ok(gpio);
  t.same(
    gpio?.devices.map((d) => [d.id, d.model, d.relays.length, d.inputs.length, d.covers.length]),
    [
      ['relay_board', '4-channel 5 V relay module', 4, 0, 0],
      ['vent_motor', '2-channel relay module', 0, 0, 1],
      ['hallway_pir', 'HC-SR501', 0, 1, 0],
      ['door', 'Reed switch and strike', 1, 1, 0],
    ],
  );
  const relays = gpio?.devices[0]?.relays ?? [];
  t.same(
    relays.map((r) => [r.entityId, r.pin, r.invert, r.initialOn]),
    [
      ['switch.irrigation_pump', 17, true, false],
      ['switch.heater', 27, true, false],
      ['light.grow_lights', 22, true, false],
      ['fan.circulation_fan', 23, true, false],
    ],
  );
  const lock = gpio?.devices[3]?.relays[0];
  t.same([lock?.domain, lock?.lockedWhenOn, lock?.initialOn], ['lock', false, false], 'a locked strike is a relay that is off');
});

t.test('`hearth check-config` accepts the bundled example', async (t) => {
  const r = await runCli(['check-config', '--config', EXAMPLE]);
  t.equal(r.code, 0, r.stdout + r.stderr);
  t.equal(r.stdout, `Configuration valid: ${EXAMPLE}\n`);
});

t.test('a minimal section: defaults', async (t) => {
  const issues: ConfigIssue[] = [];
  const config = parseGpioSection(
    parse('devices:\n  - name: PIR\n    binary_sensors:\n      - pin: 4\n        name: Motion\n') as JsonValue,
    ['gpio'],
    issues,
  );
  t.same(issues, []);
  t.equal(config?.sysfsRoot, '/sys');
  t.equal(config?.chipLabel, undefined);
  const device = config?.devices[0];
  t.same([device?.id, device?.manufacturer, device?.model, device?.pollIntervalS], ['pir', 'Generic', 'GPIO input', 10]);
  t.same(device?.inputs[0], {
    entityId: 'binary_sensor.motion',
    name: 'Motion',
    pin: 4,
    icon: undefined,
    invert: false,
    debounceMs: 50,
    deviceClass: undefined,
  });
});

t.test('initial accepts on/off (YAML 1.2 strings) and true/false', async (t) => {
  const yaml = (v: string) => `devices:\n  - name: B\n    switches:\n      - pin: 4\n        name: S\n        initial: ${v}\n`;
  for (const [v, on] of [
    ['on', true],
    ['off', false],
    ['true', true],
    ['false', false],
  ] as const) {
    const config = parseGpioSection(parse(yaml(v)) as JsonValue, ['gpio'], []);
    t.equal(config?.devices[0]?.relays[0]?.initialOn, on, v);
  }
  t.same(issuesOf(yaml('maybe')), ['gpio.devices.0.switches.0.initial: "maybe" is not allowed: expected on or off']);
});

t.test('a pin used twice is reported where it is used the second time, naming the first use', async (t) => {
  t.same(
    issuesOf(`
devices:
  - name: Board
    switches:
      - {pin: 17, name: Pump}
    covers:
      - {name: Vent, open_pin: 22, close_pin: 17, travel_time: 10}
  - name: PIR
    binary_sensors:
      - {pin: 22, name: Motion}
`),
    [
      'gpio.devices.0.covers.0.close_pin: pin 17 is already used by gpio.devices[0].switches[0].pin; each pin can be used once',
      'gpio.devices.1.binary_sensors.0.pin: pin 22 is already used by gpio.devices[0].covers[0].open_pin; each pin can be used once',
    ],
  );
});

t.test('out-of-range values and unknown options name the allowed values', async (t) => {
  t.same(
    issuesOf(`
sysfs_roots: /tmp
devices:
  - name: Board
    colour: red
    switches:
      - {pin: 60, name: Pump, device_class: plug}
      - {pin: 3.5, name: Heater}
    lights:
      - {pin: 5, name: Lamp, device_class: outlet}
    binary_sensors:
      - {pin: 6, name: PIR, debounce: 20000, device_class: movement, pull_mode: up}
    covers:
      - {name: Vent, open_pin: 7, close_pin: 8, travel_time: 0}
    locks:
      - {pin: 9, name: Strike, locked_when: maybe}
`),
    [
      'gpio.devices.0.switches.0.pin: 60 is not allowed: expected an integer from 0 to 57',
      'gpio.devices.0.switches.0.device_class: "plug" is not allowed: expected one of outlet, switch',
      'gpio.devices.0.switches.1.pin: 3.5 is not allowed: expected an integer from 0 to 57',
      'gpio.devices.0.lights.0.device_class: unknown option; allowed: icon, id, initial, invert_logic, name, pin, restore',
      'gpio.devices.0.locks.0.locked_when: "maybe" is not allowed: expected one of relay_off, relay_on',
      'gpio.devices.0.binary_sensors.0.debounce: 20000 is not allowed: expected an integer from 0 to 10000',
      `gpio.devices.0.binary_sensors.0.device_class: "movement" is not allowed: expected one of ${BINARY_SENSOR_DEVICE_CLASSES.join(', ')}`,
      'gpio.devices.0.binary_sensors.0.pull_mode: cannot be set through GPIO sysfs: set the pull in /boot/firmware/config.txt instead (for example gpio=4=ip,pu), then remove this option',
      'gpio.devices.0.covers.0.travel_time: 0 is not allowed: expected a number from 0.05 to 600',
      'gpio.devices.0.colour: unknown option; allowed: area, binary_sensors, covers, fans, id, invert_logic, lights, locks, manufacturer, model, name, poll_interval, switches',
      'gpio.sysfs_roots: unknown option; allowed: backend, chip, devices, poll_interval, sysfs_root',
    ],
  );
});

t.test('required fields, empty devices, duplicate ids, no devices', async (t) => {
  t.same(issuesOf('{}'), ['gpio.devices: is required: expected a list of devices (relay boards, sensors, covers)']);
  t.same(
    issuesOf(`
devices:
  - name: Board
  - name: Board
    switches:
      - {name: Pump}
      - {pin: 5, name: pump}
    covers:
      - {name: Vent}
`),
    [
      'gpio.devices.0: has no entities: add one of switches, lights, fans, locks, binary_sensors, covers',
      'gpio.devices.1.name: device id "board" is used twice',
      'gpio.devices.1.switches.0.pin: is required: expected an integer from 0 to 57',
      'gpio.devices.1.switches.1.name: switch.pump is defined twice',
      'gpio.devices.1.covers.0.open_pin: is required: expected an integer from 0 to 57',
      'gpio.devices.1.covers.0.close_pin: is required: expected an integer from 0 to 57',
      'gpio.devices.1.covers.0.travel_time: is required: expected a number from 0.05 to 600',
    ],
  );
});

t.test('check-config prints gpio problems with file:line:column and the path', async (t) => {
  const lines = checkConfig(
    [
      'gpio:', //                       1
      '  devices:', //                  2
      '    - name: Relay board', //     3
      '      switches:', //             4
      '        - pin: 17', //           5
      '          name: Pump', //        6
      '        - pin: 17', //           7
      '          name: Heater', //      8
      '          invert: true', //      9
      '',
    ].join('\n'),
  );
  t.same(lines, [
    'configuration.yaml:7:16: gpio.devices[0].switches[1].pin: pin 17 is already used by gpio.devices[0].switches[0].pin; each pin can be used once',
    'configuration.yaml:9:11: gpio.devices[0].switches[1].invert: unknown option; allowed: device_class, icon, id, initial, invert_logic, name, pin, restore',
  ]);
});

t.test('backend, bias and restore: the allowed values, and a cover that would start by itself', async (t) => {
  t.same(
    issuesOf(`
backend: gpiod
devices:
  - name: Board
    switches: [{pin: 17, name: Pump, restore: maybe}]
    binary_sensors: [{pin: 24, name: Button, bias: up}]
    covers: [{name: Vent, open_pin: 5, close_pin: 6, travel_time: 10, restore: on}]
`),
    [
      'gpio.backend: "gpiod" is not allowed: expected one of auto, chardev, sysfs',
      'gpio.devices.0.switches.0.restore: "maybe" is not allowed: expected last, off, on',
      'gpio.devices.0.binary_sensors.0.bias: "up" is not allowed: expected one of pull_up, pull_down, disabled',
      'gpio.devices.0.covers.0.restore: a cover motor never starts by itself: expected last or off',
    ],
  );
  const config = parseGpioSection(
    parse(`
devices:
  - name: Board
    switches: [{pin: 17, name: Pump}, {pin: 18, name: Heater, restore: false}]
    locks: [{pin: 16, name: Strike}]
    binary_sensors: [{pin: 24, name: Button, bias: pull_up}]
    covers: [{name: Vent, open_pin: 5, close_pin: 6, travel_time: 10}]
`) as JsonValue,
    ['gpio'],
    [],
  );
  const device = config?.devices[0];
  t.equal(config?.backend, 'auto');
  t.same(
    device?.relays.map((r) => [r.entityId, r.restore]),
    [
      ['switch.pump', 'last'],
      ['switch.heater', 'off'],
      ['lock.strike', 'off'],
    ],
    'restore: YAML 1.1 booleans read as on/off',
  );
  t.same([device?.inputs[0]?.bias, device?.covers[0]?.restore], ['pull_up', 'off']);
});

t.test('backend: auto is the character device when the kernel has gpiochip devices, sysfs otherwise', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-dev-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  t.equal(hasGpioChips(dir), false);
  await writeFile(join(dir, 'gpiochip0'), '');
  t.equal(hasGpioChips(dir), true);
  const chardev = await backendLoader('auto', { devDir: dir })();
  t.equal(chardev.name, 'character device (gpio-helper.py)');
  chardev.close?.();
  const forced = await backendLoader('sysfs', { devDir: dir })().catch((err: Error) => err);
  t.equal(forced.name, forced instanceof Error ? 'OnoffMissingError' : 'onoff (sysfs)', 'sysfs when asked for, even with gpiochips');
});
