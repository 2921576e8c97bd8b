import t from 'tap';
import { brightnessToDuty, decodeDuty, encodeDuty, pca9685Prescale } from '../../../drivers/i2c/pca9685.js';
import { isHubError } from '../../../src/core/errors.js';
import type { JsonValue } from '../../../src/core/json.js';
import { FakeI2cBus } from '../../fakes/fake-i2c-bus.js';
import { SimPca9685 } from '../../fakes/i2c-chips.js';
import { startI2c } from '../../fakes/i2c-harness.js';
import { recordStates, waitForState } from '../../fakes/wait-state.js';

t.test('prescale and duty registers (datasheet 7.3.5, 7.3.3)', async (t) => {
  // The datasheet's example: 200 Hz -> round(25 MHz / (4096 * 200)) - 1 = 30 (0x1E, the reset value).
  t.equal(pca9685Prescale(200), 0x1e);
  t.equal(pca9685Prescale(1526), 0x03, 'the fastest');
  t.equal(pca9685Prescale(24), 253);
  t.equal(pca9685Prescale(10), 0xff, 'clamped to the slowest');
  t.equal(pca9685Prescale(1000), 5);
  t.same([...encodeDuty(0)], [0, 0, 0, 0x10], 'fully off: bit 4 of OFF_H');
  t.same([...encodeDuty(4096)], [0, 0x10, 0, 0], 'fully on: bit 4 of ON_H');
  t.same([...encodeDuty(2048)], [0, 0, 0x00, 0x08]);
  t.equal(decodeDuty(Buffer.from([100, 0, 0x64, 0x04])), 1024, 'a phase offset another controller wrote');
  t.equal(decodeDuty(Buffer.from([0, 0x10, 0, 0x10])), 0, 'full off wins over full on');
});

const CONFIG = `
devices:
  - chip: pca9685
    address: 0x40
    name: PWM Board
    frequency: 1000
    poll_interval: 0.1
    channels:
      - {channel: 0, platform: light, name: Bench Light}
      - {channel: 1, platform: light, name: Strip, gamma: 2.2}
      - {channel: 3, platform: fan, name: Greenhouse Fan, min_duty: 20, speed_count: 4}
      - {channel: 4, platform: light, name: Relay Board, invert: true}
`;

async function setup(t: { teardown(fn: () => unknown): void }, chip = new SimPca9685()) {
  const bus = new FakeI2cBus(1).attach(0x40, chip);
  const h = await startI2c(t, CONFIG, bus);
  await waitForState(h.core, 'fan.greenhouse_fan', (s) => s.state !== 'unknown');
  const call = (domain: string, service: string, data: Record<string, JsonValue>) => h.core.services.call(domain, service, data);
  return { ...h, bus, chip, call };
}
t.test('setup: prescale set asleep, then awake with auto-increment; outputs read back', async (t) => {
  const { core, chip, bus } = await setup(t);
  t.equal(chip.prescale, 5, '1000 Hz');
  t.notOk(chip.asleep);
  t.equal((chip.regs[0] ?? 0) & 0x21, 0x20, 'auto-increment on, All Call off');
  t.equal(core.states.get('light.bench_light')?.state, 'off', 'reset value: fully off');
  t.same(core.states.get('fan.greenhouse_fan')?.attributes, {
    preset_modes: null,
    supported_features: 1 | 16 | 32,
    friendly_name: 'Greenhouse Fan',
    percentage: 0,
    percentage_step: 25,
    preset_mode: null,
  });
  t.equal(core.states.get('fan.greenhouse_fan')?.state, 'off');
  const relay = core.states.get('light.relay_board');
  t.same([relay?.state, relay?.attributes.brightness], ['on', 255], 'inverted: an output fully off drives the load fully on');
  const device = core.devices.get(core.entities.get('light.bench_light')?.deviceId ?? '');
  t.same([device?.manufacturer, device?.model], ['NXP Semiconductors', 'PCA9685']);
  t.equal(core.entities.get('fan.greenhouse_fan')?.deviceId, device?.id);
  const seen = recordStates(core, 'light.bench_light', t);
  await bus.afterTransfers(0x40, 15); // three more polls: MODE1 and four outputs each
  t.same(seen, [], 'reading back the same outputs fires nothing');
});

t.test('lights dim through the 12-bit duty cycle', async (t) => {
  const { core, chip, call } = await setup(t);
  await call('light', 'turn_on', { entity_id: 'light.bench_light', brightness: 128 });
  t.equal(chip.duty(0), Math.round((4096 * 128) / 255));
  const on = core.states.get('light.bench_light');
  t.same([on?.state, on?.attributes.brightness, on?.attributes.color_mode], ['on', 128, 'brightness']);
  t.same(on?.attributes.supported_color_modes, ['brightness']);
  await call('light', 'turn_off', { entity_id: 'light.bench_light' });
  t.equal(chip.duty(0), 0);
  t.equal(core.states.get('light.bench_light')?.state, 'off');
  await call('light', 'turn_on', { entity_id: 'light.bench_light' });
  t.equal(core.states.get('light.bench_light')?.attributes.brightness, 128, 'turn_on brings back the last brightness');
  await call('light', 'turn_on', { entity_id: 'light.bench_light', brightness: 255 });
  t.equal(chip.duty(0), 4096, 'fully on');

  await call('light', 'turn_on', { entity_id: 'light.strip', brightness: 128 });
  t.equal(chip.duty(1), brightnessToDuty(128, 2.2));
  t.ok(chip.duty(1) < 1024, 'gamma 2.2 dims the low half');
  await waitForState(core, 'light.strip', (s) => s.attributes.brightness === 128);

  await call('light', 'turn_off', { entity_id: 'light.relay_board' });
  t.equal(chip.duty(4), 4096, 'inverted output');
  t.equal(core.states.get('light.relay_board')?.state, 'off');
});

t.test('a fan runs at a percentage above its minimum duty', async (t) => {
  const { core, chip, call } = await setup(t);
  await call('fan', 'set_percentage', { entity_id: 'fan.greenhouse_fan', percentage: 50 });
  t.equal(chip.duty(3), Math.round(4096 * 0.6), '20 % + half of the remaining 80 %');
  t.same([core.states.get('fan.greenhouse_fan')?.state, core.states.get('fan.greenhouse_fan')?.attributes.percentage], ['on', 50]);
  await call('fan', 'turn_off', { entity_id: 'fan.greenhouse_fan' });
  t.equal(chip.duty(3), 0);
  t.same([core.states.get('fan.greenhouse_fan')?.state, core.states.get('fan.greenhouse_fan')?.attributes.percentage], ['off', 0]);
  await call('fan', 'turn_on', { entity_id: 'fan.greenhouse_fan' });
  t.equal(core.states.get('fan.greenhouse_fan')?.attributes.percentage, 50, 'resumes its speed');
  await call('fan', 'increase_speed', { entity_id: 'fan.greenhouse_fan' });
  t.equal(core.states.get('fan.greenhouse_fan')?.attributes.percentage, 75);
  await call('fan', 'set_percentage', { entity_id: 'fan.greenhouse_fan', percentage: 100 });
  t.equal(chip.duty(3), 4096);
});

t.test('outputs another run left on are read back, and the frequency is kept', async (t) => {
  const chip = new SimPca9685();
  chip.regs[0] = 0x20; // awake, auto-increment
  chip.regs[0xfe] = 5; // 1000 Hz already
  chip.setOutput(0, 100, 100 + 1024);
  chip.setOutput(3, 0, 0x1000 | 0); // fully off
  const { core } = await setup(t, chip);
  const bench = await waitForState(core, 'light.bench_light', (s) => s.state === 'on');
  t.equal(bench.attributes.brightness, 64, 'a quarter duty is brightness 64');
  t.equal(chip.duty(0), 1024, 'output untouched');
  t.notOk(
    chip.writes.some(([reg]) => reg === 0xfe),
    'no prescale write',
  );
});

t.test('a write the chip NACKs fails the call, marks the chip unavailable (logged once), and it recovers', async (t) => {
  const { core, chip, bus, call, log } = await setup(t);
  bus.nack(0x40);
  const err = await call('light', 'turn_on', { entity_id: 'light.bench_light', brightness: 10 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  t.ok(isHubError(err), 'a client error, not a crash');
  t.match((err as Error).message, /PCA9685 at i2c-1 0x40 did not take the new output: EREMOTEIO/);
  await waitForState(core, 'light.bench_light', (s) => s.state === 'unavailable');
  t.equal(core.states.get('fan.greenhouse_fan')?.state, 'unavailable');
  await bus.afterTransfers(0x40, 6);
  t.equal(log.matching('warn', 'PCA9685 at i2c-1 0x40').length, 1);
  bus.heal(0x40);
  const back = await waitForState(core, 'light.bench_light', (s) => s.state !== 'unavailable');
  t.equal(back.state, 'off', 'what the chip really does: the write never happened');
  t.equal(chip.duty(0), 0);
});

t.test('a chip that was reset (power loss) is set up again and its outputs read back as off', async (t) => {
  const { core, chip, call } = await setup(t);
  await call('fan', 'set_percentage', { entity_id: 'fan.greenhouse_fan', percentage: 100 });
  chip.powerCycle();
  await waitForState(core, 'fan.greenhouse_fan', (s) => s.state === 'off');
  t.notOk(chip.asleep, 'woken up again');
  t.equal(chip.prescale, 5);
});
