import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import { addFan, type FanCapabilities, FanFeature, type FanModel, fanDomain } from '../../src/domains/fan.js';

const FULL: FanCapabilities = { speedCount: 3, presetModes: ['auto', 'sleep'], oscillate: true, direction: true };

/** A fan that applies what it is asked exactly (no snapping) and records the calls. */
function setup(caps: FanCapabilities = FULL) {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  fanDomain.registerServices(core);
  const calls: string[] = [];
  let model: FanModel = { on: false, percentage: 0, presetMode: null, oscillating: false, direction: 'forward' };
  const apply = (entry: string, next: Partial<FanModel>) => {
    calls.push(entry);
    model = { ...model, ...next };
    fan.report(model);
  };
  const fan = addFan(core, {
    entityId: 'fan.ceiling',
    name: 'Ceiling',
    owner: 'test',
    capabilities: caps,
    platform: {
      turnOn: (p) =>
        apply(`on:${p.percentage ?? ''}:${p.presetMode ?? ''}`, {
          on: true,
          percentage: p.presetMode ? null : (p.percentage ?? 33),
          presetMode: p.presetMode ?? null,
        }),
      turnOff: () => apply('off', { on: false, percentage: 0, presetMode: null }),
      setPercentage: (p) => apply(`pct:${p}`, { on: true, percentage: p, presetMode: null }),
      setPresetMode: (m) => apply(`preset:${m}`, { on: true, presetMode: m, percentage: null }),
      oscillate: (o) => apply(`osc:${o}`, { oscillating: o }),
      setDirection: (d) => apply(`dir:${d}`, { direction: d }),
    },
  });
  fan.report(model);
  const call = (service: string, data: Record<string, unknown> = {}) =>
    core.services.call('fan', service, { entity_id: 'fan.ceiling', ...data } as never);
  const state = () => core.states.get('fan.ceiling');
  return { core, fan, calls, call, state };
}

t.test('attributes follow the features, as FanEntity writes them', async (t) => {
  const { state, fan } = setup();
  t.equal(state()?.state, 'off');
  t.same(state()?.attributes, {
    preset_modes: ['auto', 'sleep'],
    supported_features: 1 | 2 | 4 | 8 | 16 | 32,
    friendly_name: 'Ceiling',
    direction: 'forward',
    oscillating: false,
    percentage: 0,
    percentage_step: 100 / 3,
    preset_mode: null,
  });
  fan.report({ on: null });
  t.equal(state()?.state, 'unknown');

  const plain = setup({});
  t.same(plain.state()?.attributes, { supported_features: FanFeature.TURN_ON | FanFeature.TURN_OFF, friendly_name: 'Ceiling' });
});

t.test('turn_on, turn_off, toggle and set_percentage', async (t) => {
  const { call, calls, state } = setup();
  await call('turn_on', { percentage: '66' });
  t.equal(state()?.state, 'on');
  t.equal(state()?.attributes.percentage, 66);
  await call('turn_on', { preset_mode: 'sleep' });
  t.equal(state()?.attributes.preset_mode, 'sleep');
  await call('toggle');
  t.equal(state()?.state, 'off');
  await call('toggle');
  await call('set_percentage', { percentage: 100 });
  await call('set_percentage', { percentage: 0 });
  t.equal(state()?.state, 'off', 'set_percentage 0 turns the fan off');
  await call('turn_on', { percentage: 0 });
  t.same(calls, ['on:66:', 'on::sleep', 'off', 'on::', 'pct:100', 'off', 'off']);
});

t.test('increase_speed and decrease_speed move one speed, or percentage_step', async (t) => {
  const { call, state } = setup();
  const pct = () => state()?.attributes.percentage;
  await call('increase_speed');
  t.equal(pct(), 33, 'off to the first of three speeds');
  await call('increase_speed');
  t.equal(pct(), 66);
  await call('increase_speed');
  await call('increase_speed');
  t.equal(pct(), 100, 'clamped at 100');
  await call('decrease_speed');
  t.equal(pct(), 66);
  await call('decrease_speed', { percentage_step: 10 });
  t.equal(pct(), 56);
  await call('decrease_speed', { percentage_step: 100 });
  t.equal(state()?.state, 'off', 'down to 0 turns it off');
});

t.test('presets, oscillation and direction', async (t) => {
  const { call, state } = setup();
  await call('set_preset_mode', { preset_mode: 'auto' });
  await call('oscillate', { oscillating: 'on' });
  await call('set_direction', { direction: 'reverse' });
  const a = state()?.attributes;
  t.same([state()?.state, a?.preset_mode, a?.percentage, a?.oscillating, a?.direction], ['on', 'auto', null, true, 'reverse']);
});

t.test('bad fields and presets are refused with the field and the allowed values named', async (t) => {
  const { call, calls } = setup();
  await t.rejects(call('set_percentage', { percentage: 101 }), {
    kind: 'invalid_service_data',
    message: "value must be between 0 and 100 for dictionary value @ data['percentage']. Got 101",
  });
  await t.rejects(call('turn_on', { percentage: 'fast' }), {
    message: "expected int for dictionary value @ data['percentage']. Got 'fast'",
  });
  await t.rejects(call('set_percentage', {}), { message: "required key not provided @ data['percentage']. Got None" });
  await t.rejects(call('increase_speed', { percentage_step: 150 }), { message: /between 0 and 100.*'percentage_step'/ });
  await t.rejects(call('oscillate', { oscillating: 'sometimes' }), {
    message: /invalid boolean value 'sometimes'.*'oscillating'.*true or false/,
  });
  await t.rejects(call('set_direction', { direction: 'up' }), { message: /value must be one of forward, reverse .*'direction'/ });
  await t.rejects(call('set_preset_mode', { preset_mode: 'turbo' }), {
    kind: 'service_validation',
    message: 'Validation error: Preset mode turbo is not valid, valid preset modes are: auto, sleep',
  });
  await t.rejects(call('turn_on', { preset_mode: 'turbo' }), { kind: 'service_validation', message: /Preset mode turbo is not valid/ });
  t.same(calls, []);
});

t.test('services for missing features are refused when named, skipped through all', async (t) => {
  const { call, calls } = setup({});
  for (const [service, data] of [
    ['set_percentage', { percentage: 10 }],
    ['increase_speed', {}],
    ['decrease_speed', {}],
    ['set_preset_mode', { preset_mode: 'auto' }],
    ['oscillate', { oscillating: true }],
    ['set_direction', { direction: 'forward' }],
  ] as const) {
    await t.rejects(call(service, data), {
      kind: 'service_validation',
      message: `Entity fan.ceiling does not support action fan.${service}.`,
    });
  }
  await call('oscillate', { oscillating: true, entity_id: 'all' });
  await call('turn_on', { percentage: 40 });
  t.same(calls, ['on::'], 'a percentage is dropped for a fan without speeds');
});

t.test('an unavailable fan keeps preset_modes and is skipped', async (t) => {
  const { fan, call, calls, state } = setup();
  fan.entity.markUnavailable();
  t.same(state()?.attributes, { preset_modes: ['auto', 'sleep'], supported_features: 63, friendly_name: 'Ceiling' });
  await call('turn_on');
  t.same(calls, []);
});

t.test('scenes turn on with a preset or speed, then set oscillation and direction', async (t) => {
  const { core, calls } = setup();
  const reproduce = (state: string, attributes: Record<string, unknown>) =>
    fanDomain.reproduceState?.(core, 'fan.ceiling', { state, attributes: attributes as never }, core.newContext());
  await reproduce('on', { percentage: 66, preset_mode: null, oscillating: true, direction: 'reverse' });
  t.same(calls, ['on:66:', 'osc:true', 'dir:reverse']);
  calls.length = 0;
  await reproduce('on', { percentage: 66, oscillating: true, direction: 'reverse' });
  t.same(calls, [], 'nothing differs');
  await reproduce('on', { preset_mode: 'sleep' });
  await reproduce('off', {});
  t.same(calls, ['on::sleep', 'off']);
});
