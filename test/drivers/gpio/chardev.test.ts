/**
 * The character-device backend end to end: the real driver, the real backend and the real gpio-helper.py,
 * against a simulated kernel that decodes the helper's ioctl structs (see gpio-sim.ts). Also the hub as a
 * process (`hearth serve`): outputs go to their safe level on SIGTERM, and when the hub is killed -9.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { ChardevBackend } from '../../../drivers/gpio/chardev-backend.js';
import { parseGpioSection } from '../../../drivers/gpio/config.js';
import { GpioDriver } from '../../../drivers/gpio/index.js';
import type { ConfigIssue } from '../../../src/config/reader.js';
import type { Core } from '../../../src/core/core.js';
import type { JsonValue } from '../../../src/core/json.js';
import { ServeProcess } from '../../cli/cli-process.js';
import { newCore, recordingLogger, type Teardown, waitForState } from './helpers.js';
import { PI5_NEW_KERNEL, PI5_OLD_KERNEL, type SimChipSpec, SimChips } from './sim.js';

const FAST_BACKOFF = { initialMs: 20, maxMs: 80 };

async function start(t: Teardown, chips: readonly SimChipSpec[], sectionYaml: string) {
  const sim = await SimChips.start(t, chips);
  const log = recordingLogger();
  const core = newCore(log);
  const issues: ConfigIssue[] = [];
  const config = parseGpioSection(parse(sectionYaml) as JsonValue, ['gpio'], issues);
  if (issues.length > 0 || config === undefined) throw new Error(`invalid test configuration: ${JSON.stringify(issues)}`);
  const driver = new GpioDriver({ core, log, owner: 'gpio', dataDir: '' }, config, {
    chardev: { env: sim.env },
    backoff: FAST_BACKOFF,
  });
  await driver.start();
  t.teardown(() => driver.stop());
  return { sim, core, log, driver };
}

const call = (core: Core, domain: string, service: string, entityId: string) =>
  core.services.call(domain, service, { entity_id: entityId });

const BOARD = `
backend: chardev
poll_interval: 0.2
devices:
  - name: Relay board
    invert_logic: true
    switches:
      - {pin: 17, name: Pump}
      - {pin: 27, name: Heater, initial: on, invert_logic: false}
  - name: Button
    binary_sensors:
      - {pin: 24, name: Button, invert_logic: true, bias: pull_up, debounce: 0}
  - name: PIR
    binary_sensors:
      - {pin: 25, name: Motion, device_class: motion, bias: pull_down, debounce: 30}
`;

t.test('Pi 5, older kernel: the header chip is found by label (gpiochip4), lines are held as "hearth"', async (t) => {
  const { sim, core, log } = await start(t, PI5_OLD_KERNEL, BOARD);
  const pump = await sim.waitLine('gpiochip4', 17, (l) => l.requested, 'requested');
  t.match(pump, { consumer: 'hearth', direction: 'out', value: 1 }, 'active-low relay, off: the pin is high from the request on');
  t.match(await sim.waitLine('gpiochip4', 27, (l) => l.requested, 'requested'), { consumer: 'hearth', value: 1 }, 'initial: on');
  t.equal(sim.line('gpiochip0', 17), undefined, 'the SoC bank is not touched');
  t.match(await sim.waitLine('gpiochip4', 24, (l) => l.requested, 'requested'), {
    consumer: 'hearth',
    direction: 'in',
    bias: 'pull_up',
    edges: true,
  });
  t.match(await sim.waitLine('gpiochip4', 25, (l) => l.requested, 'requested'), { bias: 'pull_down', edges: true });
  t.ok(log.lines.some((l) => l.msg.startsWith('GPIO: BCM pins are on pinctrl-rp1 (/dev/gpiochip4)')));

  // The pull-up holds the button's pin high: released, and with invert_logic that is off.
  await waitForState(core, 'binary_sensor.button', (s) => s.state === 'off');
  sim.drive('gpiochip4', 24, 0);
  await waitForState(core, 'binary_sensor.button', (s) => s.state === 'on');
  sim.drive('gpiochip4', 24, 1);
  await waitForState(core, 'binary_sensor.button', (s) => s.state === 'off');
  // A PIR drives its pin high on motion: on, the right way round, once the debounce has passed.
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'off');
  sim.drive('gpiochip4', 25, 1);
  await waitForState(core, 'binary_sensor.motion', (s) => s.state === 'on');

  await call(core, 'switch', 'turn_on', 'switch.pump');
  // The simulated kernel reports on its own socket, so its view is awaited, not read at once.
  await sim.waitLine('gpiochip4', 17, (l) => l.value === 0, 'on is a low pin on an active-low board');
  t.equal(core.states.get('switch.pump')?.state, 'on');
  // A change made outside the hub shows on the next poll (the output is read back through the request).
  await call(core, 'switch', 'turn_off', 'switch.heater');
  await sim.waitLine('gpiochip4', 27, (l) => l.value === 0, 'heater off');
});

t.test('Pi 5, newer kernel: the RP1 is gpiochip0, found by the same label', async (t) => {
  const { sim, log } = await start(
    t,
    PI5_NEW_KERNEL,
    `
backend: chardev
devices:
  - name: Relay
    switches: [{pin: 17, name: Pump}]
`,
  );
  t.match(await sim.waitLine('gpiochip0', 17, (l) => l.requested, 'requested'), { consumer: 'hearth', value: 0 });
  t.ok(log.lines.some((l) => l.msg.startsWith('GPIO: BCM pins are on pinctrl-rp1 (/dev/gpiochip0)')));
});

t.test('stop drives every output to its safe level before releasing it, and a moving cover stops', async (t) => {
  const { sim, core, driver } = await start(
    t,
    PI5_OLD_KERNEL,
    `
backend: chardev
devices:
  - name: Relay board
    invert_logic: true
    switches: [{pin: 17, name: Pump}]
  - name: Vent
    covers: [{name: Roof vent, open_pin: 5, close_pin: 6, travel_time: 60}]
`,
  );
  await waitForState(core, 'cover.roof_vent', (s) => s.state !== 'unavailable');
  await call(core, 'switch', 'turn_on', 'switch.pump');
  await call(core, 'cover', 'open_cover', 'cover.roof_vent');
  await sim.waitLine('gpiochip4', 17, (l) => l.value === 0, 'pump on');
  await sim.waitLine('gpiochip4', 5, (l) => l.value === 1, 'cover motor running');
  await driver.stop();
  t.match(await sim.waitLine('gpiochip4', 17, (l) => !l.requested, 'released'), { value: 1 }, 'pump off (high), then released');
  t.match(await sim.waitLine('gpiochip4', 5, (l) => !l.requested, 'released'), { value: 0 }, 'motor stopped, then released');
  t.match(await sim.waitLine('gpiochip4', 6, (l) => !l.requested, 'released'), { value: 0 });
});

t.test('the helper never outlives the hub with a relay on: stdin closed or SIGTERM, outputs go safe', async (t) => {
  const sim = await SimChips.start(t, PI5_OLD_KERNEL);
  for (const how of ['stdin closed (the hub was killed -9)', 'SIGTERM (KillMode=control-group)'] as const) {
    const backend = new ChardevBackend({ env: sim.env });
    const [chip] = (await backend.listChips()).filter((c) => c.label === 'pinctrl-rp1');
    const relay = await backend.open({ line: 22, sysfsNumber: 22, chipPath: chip?.path, direction: 'out', initial: 1, safe: 0 });
    await sim.waitLine('gpiochip4', 22, (l) => l.requested && l.value === 1, 'held on');
    if (how.startsWith('stdin')) backend.close();
    else relay.safeSync();
    t.match(await sim.waitLine('gpiochip4', 22, (l) => !l.requested, 'released'), { value: 0 }, how);
  }
});

t.test('requests the kernel refuses name the pin, the chip and the cause', async (t) => {
  const sim = await SimChips.start(t, PI5_OLD_KERNEL);
  const backend = new ChardevBackend({ env: sim.env });
  t.teardown(() => backend.close());
  await backend.open({ line: 4, sysfsNumber: 4, chipPath: '/dev/gpiochip4', direction: 'in' });
  // Each helper simulates its own kernel, so the second holder is the same helper here.
  await t.rejects(backend.open({ line: 4, sysfsNumber: 4, chipPath: '/dev/gpiochip4', direction: 'in' }), {
    message: /^cannot request GPIO4 on \/dev\/gpiochip4: EBUSY: .*another program holds the line: see `gpioinfo`/,
  });
  await t.rejects(backend.open({ line: 60, sysfsNumber: 60, chipPath: '/dev/gpiochip4', direction: 'in' }), {
    message: /^cannot request GPIO60 on \/dev\/gpiochip4: EINVAL/,
  });
  const denied = await SimChips.start(t, [{ name: 'gpiochip0', label: 'pinctrl-bcm2711', lines: 58, denied: true }]);
  const outsider = new ChardevBackend({ env: denied.env });
  t.teardown(() => outsider.close());
  await t.rejects(outsider.listChips(), { message: /^cannot open \/dev\/gpiochip0: EACCES: .*needs to be in the gpio group/ });
  const missing = new ChardevBackend({ python: 'python3-that-is-not-there' });
  await t.rejects(missing.listChips(), { message: /python3-that-is-not-there was not found.*apt-get install python3-minimal/ });
});

/** `hearth serve` with a relay that is on from the start, against the simulated kernel. */
async function serveWithRelayOn(t: Teardown): Promise<{ sim: SimChips; p: ServeProcess }> {
  const sim = await SimChips.start(t, PI5_OLD_KERNEL);
  const dir = await mkdtemp(join(tmpdir(), 'hearth-gpio-serve-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const config = join(dir, 'configuration.yaml');
  await writeFile(
    config,
    `hub:
  name: GPIO test
gpio:
  backend: chardev
  devices:
    - name: Relay board
      switches:
        - {pin: 17, name: Heater, initial: on}
`,
  );
  const env: Record<string, string> = {};
  for (const key of ['HEARTH_GPIO_FAKE_KERNEL', 'HEARTH_GPIO_SIM_SOCKET', 'HEARTH_GPIO_SIM_CHIPS']) env[key] = sim.env[key] ?? '';
  const p = new ServeProcess(['--config', config, '--data', join(dir, 'data'), '--host', '127.0.0.1', '--port', '0'], env);
  t.teardown(() => p.kill());
  // A whole hub's start and its GPIO helper's: on a loaded 2-core CI machine that has taken over 5 s.
  await sim.waitLine('gpiochip4', 17, (l) => l.requested && l.value === 1, 'held on by the hub', 20_000);
  return { sim, p };
}

t.test('hearth serve: SIGTERM switches the relay off before the line is released', async (t) => {
  const { sim, p } = await serveWithRelayOn(t);
  p.child.kill('SIGTERM');
  t.match(await sim.waitLine('gpiochip4', 17, (l) => !l.requested, 'released', 10_000), { value: 0 });
  t.equal((await p.exited).code, 0);
});

t.test('hearth serve killed -9: the helper sees its stdin close and switches the relay off', async (t) => {
  const { sim, p } = await serveWithRelayOn(t);
  p.child.kill('SIGKILL');
  t.match(await sim.waitLine('gpiochip4', 17, (l) => !l.requested, 'released', 10_000), { value: 0 });
  t.equal((await p.exited).signal, 'SIGKILL');
});
