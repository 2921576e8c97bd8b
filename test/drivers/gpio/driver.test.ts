import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parse } from 'yaml';
import { parseGpioSection } from '../../../drivers/gpio/config.js';
import { FakeGpioBackend } from '../../../drivers/gpio/fake-backend.js';
import { GpioDriver, type GpioDriverOptions } from '../../../drivers/gpio/index.js';
import type { GpioBackend } from '../../../drivers/gpio/line.js';
import { OnoffMissingError } from '../../../drivers/gpio/onoff-backend.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import { type LogLine, newCore, recordingLogger, recordStates, type Teardown, waitForState } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/gpio/', import.meta.url));
const PI4 = join(FIXTURES, 'pi4-6.6');
/** BCM line n is sysfs 512 + n on the Pi 4 fixture (kernel 6.6). */
const sys = (bcm: number) => 512 + bcm;
const FAST_BACKOFF = { initialMs: 20, maxMs: 80 };

interface Started {
  readonly core: Core;
  readonly fake: FakeGpioBackend;
  readonly log: ReturnType<typeof recordingLogger>;
}

async function start(t: Teardown, sectionYaml: string, options: GpioDriverOptions & { fake?: FakeGpioBackend } = {}): Promise<Started> {
  const log = recordingLogger();
  const core = newCore(log);
  const fake = options.fake ?? new FakeGpioBackend();
  const issues: ConfigIssue[] = [];
  const config = parseGpioSection(parse(sectionYaml) as JsonValue, ['gpio'], issues);
  if (issues.length > 0 || config === undefined) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const driver = new GpioDriver({ core, log, owner: 'gpio', dataDir: '' }, config, {
    backend: options.backend ?? (async () => fake),
    backoff: options.backoff ?? FAST_BACKOFF,
  });
  await driver.start();
  t.teardown(() => driver.stop());
  return { core, fake, log };
}

function warnings(lines: readonly LogLine[], text: string): LogLine[] {
  return lines.filter((l) => l.level === 'warn' && JSON.stringify(l).includes(text));
}

const call = (core: Core, domain: string, service: string, entityId: string, data: Record<string, JsonValue> = {}) =>
  core.services.call(domain, service, { entity_id: entityId, ...data });

const RELAYS = `
sysfs_root: ${PI4}
poll_interval: 0.05
devices:
  - name: Relay board
    manufacturer: Waveshare
    model: RPi Relay Board
    invert_logic: true
    switches:
      - {pin: 17, name: Pump, device_class: outlet}
      - {pin: 27, name: Heater, initial: on, invert_logic: false}
    lights:
      - {pin: 22, name: Grow lights}
    fans:
      - {pin: 23, name: Vent fan}
    locks:
      - {pin: 16, name: Door strike}
      - {pin: 12, name: Maglock, locked_when: relay_on, restore: last}
`;

t.test('outputs: one registry device per board, entities belong to it, sysfs numbers carry the chip base', async (t) => {
  const { core, fake } = await start(t, RELAYS);
  await waitForState(core, 'lock.maglock', (s) => s.state === 'locked');
  const devices = [...core.devices.all()];
  t.equal(devices.length, 1);
  const board = devices[0];
  t.match(board, { name: 'Relay board', manufacturer: 'Waveshare', model: 'RPi Relay Board', identifiers: [['gpio', 'relay_board']] });
  for (const id of ['switch.pump', 'switch.heater', 'light.grow_lights', 'fan.vent_fan', 'lock.door_strike', 'lock.maglock']) {
    t.equal(core.entities.get(id)?.deviceId, board?.id, `${id} belongs to the board`);
  }
  t.match(fake.wire(sys(17)).request, { line: 17, sysfsNumber: 529, direction: 'out' });
  // Initial levels are set when the line is configured (no write, no click): active-low off is high.
  t.same([fake.wire(sys(17)).level, fake.wire(sys(17)).writes], [1, []], 'pump: off, active-low');
  t.same([fake.wire(sys(27)).level, core.states.get('switch.heater')?.state], [1, 'on'], 'heater: initial on, active-high');
  t.same(core.states.get('switch.pump')?.attributes, { device_class: 'outlet', friendly_name: 'Pump' });
  t.equal(core.states.get('light.grow_lights')?.attributes.supported_color_modes?.toString(), 'onoff');
  t.equal(core.states.get('lock.door_strike')?.state, 'locked', 'a strike is locked with its relay off');
  t.equal(fake.wire(sys(16)).level, 1, 'relay off on an active-low board');
  t.equal(fake.wire(sys(12)).level, 0, 'a maglock is locked with its relay on');
});

t.test('outputs switch, with invert_logic, and report what they did', async (t) => {
  const { core, fake } = await start(t, RELAYS);
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  const pump = recordStates(t, core, 'switch.pump');

  await call(core, 'switch', 'turn_on', 'switch.pump');
  t.equal(core.states.get('switch.pump')?.state, 'on');
  t.same(fake.wire(sys(17)).writes, [0], 'active-low: on is a low pin');
  await call(core, 'switch', 'toggle', 'switch.pump');
  t.same(fake.wire(sys(17)).writes, [0, 1]);
  t.same(pump, ['on', 'off']);

  await call(core, 'switch', 'turn_off', 'switch.heater');
  t.same(fake.wire(sys(27)).writes, [0], 'invert_logic: false on this one: off is low');
  await call(core, 'light', 'turn_on', 'light.grow_lights');
  t.equal(core.states.get('light.grow_lights')?.state, 'on');
  t.equal(core.states.get('light.grow_lights')?.attributes.color_mode, 'onoff');
  await call(core, 'fan', 'turn_on', 'fan.vent_fan');
  t.same([core.states.get('fan.vent_fan')?.state, fake.wire(sys(23)).level], ['on', 0]);
  await call(core, 'lock', 'unlock', 'lock.door_strike');
  t.same([core.states.get('lock.door_strike')?.state, fake.wire(sys(16)).level], ['unlocked', 0], 'strike energised to unlock');
  await call(core, 'lock', 'unlock', 'lock.maglock');
  t.same([core.states.get('lock.maglock')?.state, fake.wire(sys(12)).level], ['unlocked', 1], 'maglock released to unlock');
});

t.test('polls read the pins back: a change made elsewhere shows, an unchanged pin fires nothing', async (t) => {
  const { core, fake } = await start(t, RELAYS);
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  const pump = recordStates(t, core, 'switch.pump');
  const wire = fake.wire(sys(17));
  await wire.waitForReads(wire.reads + 3);
  t.same(pump, [], 'no state_changed while the pin stays the same');
  wire.level = 0; // someone ran `pinctrl set 17 dl`
  await waitForState(core, 'switch.pump', (s) => s.state === 'on');
  t.same(pump, ['on']);
});

t.test('a failed write leaves the state; a dead board goes unavailable, is logged once, and recovers', async (t) => {
  const { core, fake, log } = await start(t, RELAYS);
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  const wire = fake.wire(sys(17));
  wire.failure = Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
  await t.rejects(call(core, 'switch', 'turn_on', 'switch.pump'), {
    name: 'HubError',
    message: 'switch.pump: writing GPIO17 failed (EIO: EIO: i/o error, write); the state is unchanged',
  });
  t.equal(core.states.get('switch.pump')?.state, 'off', 'the state stays what the relay is');

  // The next poll fails too: every entity of the board is unavailable.
  await waitForState(core, 'light.grow_lights', (s) => s.state === 'unavailable');
  t.equal(core.states.get('switch.pump')?.state, 'unavailable');
  t.same(core.states.get('switch.pump')?.attributes, { device_class: 'outlet', friendly_name: 'Pump' }, 'fixed attributes stay');
  // As in Home Assistant, a service call skips an unavailable entity.
  await call(core, 'switch', 'turn_off', 'switch.heater');
  t.equal(core.states.get('switch.heater')?.state, 'unavailable');
  // Retries keep failing (the board is exported again and again) ...
  await wire.waitForOpens(wire.opens + 3);
  t.equal(warnings(log.lines, 'not answering').length, 1, 'the failure is logged once, not on every retry');
  t.match(warnings(log.lines, 'not answering')[0]?.obj, { device: 'Relay board (GPIO)', err: /EIO/ });

  wire.failure = undefined;
  // The last entity of the board is reported last.
  await waitForState(core, 'lock.maglock', (s) => s.state === 'locked');
  t.same(
    ['switch.pump', 'switch.heater', 'light.grow_lights'].map((id) => core.states.get(id)?.state),
    ['off', 'on', 'off'],
  );
  await fake.wire(sys(17)).waitForReads(fake.wire(sys(17)).reads + 1);
  t.ok(log.lines.some((l) => l.level === 'info' && l.msg.includes('answers again')));
  t.equal(fake.wire(sys(27)).level, 1, 're-exported with the last state, not the initial one');
  await call(core, 'switch', 'turn_on', 'switch.pump');
  t.equal(core.states.get('switch.pump')?.state, 'on');
});

t.test('re-export after a failure keeps what the relay was doing', async (t) => {
  const { core, fake } = await start(t, RELAYS);
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  await call(core, 'switch', 'turn_on', 'switch.pump');
  fake.wire(sys(22)).failure = new Error('gone');
  await waitForState(core, 'switch.pump', (s) => s.state === 'unavailable');
  fake.wire(sys(22)).failure = undefined;
  await waitForState(core, 'switch.pump', (s) => s.state === 'on');
  t.equal(fake.wire(sys(17)).level, 0, 'the pump was on and is on again (active-low)');
});

const INPUTS = `
sysfs_root: ${PI4}
poll_interval: 5
devices:
  - name: Hallway PIR
    binary_sensors:
      - {pin: 24, name: Motion, device_class: motion, debounce: 30}
  - name: Door
    binary_sensors:
      - {pin: 25, name: Door, device_class: door, debounce: 0}
      - {pin: 26, name: Button, debounce: 0, invert_logic: true}
`;

t.test('inputs: a bouncing edge becomes one change after the debounce; without debounce every edge counts', async (t) => {
  const { core, fake } = await start(t, INPUTS);
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'off');
  await waitForState(core, 'binary_sensor.button', (s) => s.state === 'on');
  t.same(core.states.get('binary_sensor.motion')?.attributes, { device_class: 'motion', friendly_name: 'Motion' });
  t.match(fake.wire(sys(24)).request, { direction: 'in', edges: true, sysfsNumber: 536 });
  t.equal(core.devices.get(core.entities.get('binary_sensor.motion')?.deviceId ?? '')?.model, 'GPIO input');

  const motion = recordStates(t, core, 'binary_sensor.motion');
  const pir = fake.wire(sys(24));
  for (const level of [1, 0, 1, 0, 1] as const) pir.set(level);
  t.same(motion, [], 'nothing while it bounces');
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'on');
  pir.set(0);
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'off');
  t.same(motion, ['on', 'off'], 'one change per settled level');

  // A glitch shorter than the debounce that ends where it started reports nothing.
  pir.set(1);
  pir.set(0);
  pir.set(1);
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'on');
  t.same(motion, ['on', 'off', 'on']);

  const door = recordStates(t, core, 'binary_sensor.door');
  const contact = fake.wire(sys(25));
  contact.set(1);
  contact.set(0);
  contact.set(1);
  t.same(door, ['on', 'off', 'on'], 'debounce 0: every edge, at once');

  const button = fake.wire(sys(26));
  button.set(1);
  t.equal(core.states.get('binary_sensor.button')?.state, 'off', 'invert_logic: high is off');
});

t.test('an input that fails goes unavailable and comes back with the real level', async (t) => {
  const { core, fake } = await start(t, INPUTS.replace('poll_interval: 5', 'poll_interval: 0.05'));
  await waitForState(core, 'binary_sensor.door', (s) => s.state === 'off');
  const contact = fake.wire(sys(25));
  contact.failure = Object.assign(new Error('ENODEV: no such device, read'), { code: 'ENODEV' });
  await waitForState(core, 'binary_sensor.door', (s) => s.state === 'unavailable');
  t.equal(core.states.get('binary_sensor.button')?.state, 'unavailable', 'the whole device');
  t.equal(core.states.get('binary_sensor.motion')?.state, 'off', 'another device is not affected');
  contact.level = 1;
  contact.failure = undefined;
  await waitForState(core, 'binary_sensor.door', (s) => s.state === 'on');
  contact.set(0);
  t.equal(core.states.get('binary_sensor.door')?.state, 'off', 'edges are watched again after re-export');
});

const COVER = `
sysfs_root: ${PI4}
poll_interval: 5
devices:
  - name: Vent motor
    invert_logic: true
    covers:
      - {name: Roof vent, open_pin: 5, close_pin: 6, travel_time: 0.5, device_class: window, initial_position: 0}
      - {name: Awning, open_pin: 13, close_pin: 19, travel_time: 0.2}
`;

t.test('two-relay cover: opens over travel_time, reports its estimated position, stops, closes', async (t) => {
  const { core, fake } = await start(t, COVER);
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'closed');
  t.same(core.states.get('cover.roof_vent')?.attributes, {
    device_class: 'window',
    supported_features: 15,
    friendly_name: 'Roof vent',
    current_position: 0,
  });
  const open = fake.wire(sys(5));
  const close = fake.wire(sys(6));
  t.same([open.level, close.level], [1, 1], 'both relays off (active-low)');
  const seen = recordStates(t, core, 'cover.roof_vent', (s) => `${s.state}@${s.attributes.current_position}`);

  await call(core, 'cover', 'open_cover', 'cover.roof_vent');
  t.same([open.level, close.level], [0, 1], 'open relay on');
  t.equal(core.states.get('cover.roof_vent')?.state, 'opening');
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'open');
  t.same([open.level, close.level], [1, 1], 'relay off at the end of the travel');
  t.equal(core.states.get('cover.roof_vent')?.attributes.current_position, 100);
  t.equal(seen[0], 'opening@0');
  t.equal(seen.at(-1), 'open@100');
  const positions = seen.slice(1, -1).map((s) => Number(s.split('@')[1]));
  t.ok(positions.length >= 3, `position reported while moving (${seen.join(' ')})`);
  t.same(
    positions,
    [...positions].sort((a, b) => a - b),
    'position only grows while opening',
  );

  // Close, and stop part-way.
  await call(core, 'cover', 'close_cover', 'cover.roof_vent');
  t.same([open.level, close.level], [1, 0], 'close relay on');
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'closing' && (s.attributes.current_position as number) < 80);
  await call(core, 'cover', 'stop_cover', 'cover.roof_vent');
  t.same([open.level, close.level], [1, 1], 'stopped: both off');
  const stopped = core.states.get('cover.roof_vent');
  t.equal(stopped?.state, 'open');
  t.ok((stopped?.attributes.current_position as number) > 0 && (stopped?.attributes.current_position as number) < 80);

  // To a position, then reversing mid-travel never has both relays on.
  const both: string[] = [];
  const check = () => {
    if (open.level === 0 && close.level === 0) both.push('both on');
  };
  const off = core.bus.on('test', 'state_changed', check);
  t.teardown(off);
  await call(core, 'cover', 'set_cover_position', 'cover.roof_vent', { position: 90 });
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'opening');
  await call(core, 'cover', 'close_cover', 'cover.roof_vent');
  check();
  t.same([open.level, close.level], [1, 0], 'reversed: open relay off, then close relay on');
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'closed', 2000);
  t.same([open.level, close.level], [1, 1]);
  t.same(both, [], 'the two relays were never on together');
  const lastOpen = open.writes.lastIndexOf(0);
  t.ok(lastOpen >= 0);
});

t.test('cover from an unknown position: state unknown, set_position refused, a full travel makes it known', async (t) => {
  const { core, fake } = await start(t, COVER);
  await waitForState(core, 'cover.awning', (s) => s.state === 'unknown');
  t.same(core.states.get('cover.awning')?.attributes, { supported_features: 15, friendly_name: 'Awning' }, 'no position while unknown');
  await t.rejects(call(core, 'cover', 'set_cover_position', 'cover.awning', { position: 50 }), {
    message: /cover\.awning does not know its position yet: open or close it fully first/,
  });
  await call(core, 'cover', 'close_cover', 'cover.awning');
  t.equal(fake.wire(sys(19)).level, 0, 'close relay on');
  await waitForState(core, 'cover.awning', (s) => s.state === 'closed');
  t.equal(core.states.get('cover.awning')?.attributes.current_position, 0);
  await call(core, 'cover', 'set_cover_position', 'cover.awning', { position: 50 });
  await waitForState(core, 'cover.awning', (s) => s.state === 'open');
  t.equal(core.states.get('cover.awning')?.attributes.current_position, 50);
  t.same([fake.wire(sys(13)).level, fake.wire(sys(19)).level], [1, 1]);
});

t.test('cover: a board failure mid-travel makes it unavailable; recovery has an unknown position', async (t) => {
  const { core, fake } = await start(t, COVER.replace('poll_interval: 5', 'poll_interval: 0.05'));
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'closed');
  await call(core, 'cover', 'open_cover', 'cover.roof_vent');
  fake.wire(sys(6)).failure = new Error('unplugged');
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'unavailable');
  fake.wire(sys(6)).failure = undefined;
  await waitForState(core, 'cover.roof_vent', (s) => s.state === 'unknown');
  t.same([fake.wire(sys(5)).level, fake.wire(sys(6)).level], [1, 1], 're-exported with both relays off');
});

t.test('GPIO sysfs absent: entities unavailable, logged once with the cause, recovered when it appears', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'hearth-gpio-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const { core, fake, log } = await start(t, RELAYS.replace(PI4, root));
  await waitForState(core, 'switch.pump', (s) => s.state === 'unavailable');
  t.equal(core.states.get('lock.door_strike')?.state, 'unavailable');
  const warned = warnings(log.lines, 'GPIO sysfs is absent');
  t.equal(warned.length, 1);
  t.match(warned[0]?.obj.err, `GPIO sysfs is absent: ${join(root, 'class', 'gpio')} does not exist`);
  t.equal(fake.wire(sys(17)).exported, false, 'nothing exported without a chip');

  await cp(PI4, root, { recursive: true });
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  t.equal(fake.wire(sys(17)).exported, true);
  t.equal(warnings(log.lines, 'not answering').length, 1, 'still one warning in all');
  t.ok(log.lines.some((l) => l.level === 'info' && l.msg.includes('BCM pins are on pinctrl-bcm2711, sysfs base 512')));
});

t.test('onoff missing: a clear message once, entities unavailable; they recover once it loads', async (t) => {
  const fake = new FakeGpioBackend();
  let installed = false;
  const backend = async (): Promise<GpioBackend> => {
    if (!installed) throw new OnoffMissingError('the onoff package is not installed (Cannot find package onoff)');
    return fake;
  };
  const { core, log } = await start(t, RELAYS, { backend, fake });
  await waitForState(core, 'switch.pump', (s) => s.state === 'unavailable');
  t.equal(warnings(log.lines, 'onoff package is not installed').length, 1);
  installed = true;
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
});

t.test('stop unexports every line', async (t) => {
  const log = recordingLogger();
  const core = newCore(log);
  const fake = new FakeGpioBackend();
  const config = parseGpioSection(parse(RELAYS) as JsonValue, ['gpio'], []);
  if (config === undefined) throw new Error('no config');
  const driver = new GpioDriver({ core, log, owner: 'gpio', dataDir: '' }, config, { backend: async () => fake });
  await driver.start();
  await waitForState(core, 'switch.pump', (s) => s.state === 'off');
  t.equal(fake.wire(sys(17)).exported, true);
  await driver.stop();
  for (const pin of [17, 27, 22, 23, 16, 12]) t.equal(fake.wire(sys(pin)).exported, false, `GPIO${pin} unexported`);
});
