import t from 'tap';
import { ManualClock } from '../../src/core/clock.js';
import { Core } from '../../src/core/core.js';
import { silentLogger } from '../../src/core/log.js';
import {
  addClimate,
  type ClimateCapabilities,
  ClimateFeature,
  type ClimateModel,
  type ClimatePlatform,
  type HvacMode,
} from '../../src/domains/climate.js';
import { climateDomain } from '../../src/domains/climate-services.js';

const FULL: ClimateCapabilities = {
  hvacModes: ['off', 'heat', 'cool', 'heat_cool'],
  targetTempStep: 0.5,
  humidity: true,
  minHumidity: 40,
  maxHumidity: 60,
  fanModes: ['auto', 'low', 'high'],
  presetModes: ['home', 'away'],
  swingModes: ['off', 'vertical'],
};

/** A thermostat that records what it is asked and reports it back at once. */
function setup(caps: ClimateCapabilities, options: { withTurnOnOff?: boolean; entityId?: string } = {}) {
  const core = new Core({ log: silentLogger, clock: new ManualClock() });
  climateDomain.registerServices(core);
  const entityId = options.entityId ?? 'climate.hall';
  const calls: [string, unknown][] = [];
  let model: ClimateModel = {
    hvacMode: 'heat',
    hvacAction: 'heating',
    currentTemperature: 19.04,
    targetTemperature: 21,
    currentHumidity: 48,
    targetHumidity: 50,
    fanMode: 'auto',
    presetMode: 'home',
    swingMode: 'off',
  };
  const apply = (name: string, arg: unknown, next: Partial<ClimateModel>) => {
    calls.push([name, arg]);
    model = { ...model, ...next };
    handle.report(model);
  };
  const platform: ClimatePlatform = {
    setHvacMode: (m) => apply('setHvacMode', m, { hvacMode: m }),
    setTemperature: (p) =>
      apply('setTemperature', p, {
        ...(p.temperature !== undefined ? { targetTemperature: p.temperature } : {}),
        ...(p.targetTempLow !== undefined ? { targetTempLow: p.targetTempLow, targetTempHigh: p.targetTempHigh } : {}),
        ...(p.hvacMode !== undefined ? { hvacMode: p.hvacMode } : {}),
      }),
    setHumidity: (h) => apply('setHumidity', h, { targetHumidity: h }),
    setFanMode: (m) => apply('setFanMode', m, { fanMode: m }),
    setPresetMode: (m) => apply('setPresetMode', m, { presetMode: m }),
    setSwingMode: (m) => apply('setSwingMode', m, { swingMode: m }),
  };
  if (options.withTurnOnOff) {
    platform.turnOn = () => apply('turnOn', null, { hvacMode: 'cool' });
    platform.turnOff = () => apply('turnOff', null, { hvacMode: 'off' });
  }
  const handle = addClimate(core, { entityId, name: 'Hall', owner: 'test', capabilities: caps, platform });
  handle.report(model);
  const call = (service: string, data: Record<string, unknown> = {}) =>
    core.services.call('climate', service, { entity_id: entityId, ...data } as never);
  const state = () => core.states.get(entityId);
  return { core, handle, calls, call, state };
}

t.test('renders capability and state attributes as Home Assistant does', async (t) => {
  const { state, handle } = setup(FULL);
  t.equal(state()?.state, 'heat');
  t.same(state()?.attributes, {
    hvac_modes: ['off', 'heat', 'cool', 'heat_cool'],
    min_temp: 7,
    max_temp: 35,
    target_temp_step: 0.5,
    min_humidity: 40,
    max_humidity: 60,
    fan_modes: ['auto', 'low', 'high'],
    preset_modes: ['home', 'away'],
    swing_modes: ['off', 'vertical'],
    supported_features: 1 | 2 | 4 | 8 | 16 | 32 | 128 | 256,
    friendly_name: 'Hall',
    current_temperature: 19,
    temperature: 21,
    target_temp_high: null,
    target_temp_low: null,
    current_humidity: 48,
    humidity: 50,
    fan_mode: 'auto',
    hvac_action: 'heating',
    preset_mode: 'home',
    swing_mode: 'off',
  });
  handle.report(null);
  t.equal(state()?.state, 'unknown');
  t.equal(state()?.attributes.hvac_modes?.toString(), 'off,heat,cool,heat_cool', 'capabilities are kept when unknown');
  t.equal(state()?.attributes.temperature, undefined);
});

t.test('a heat-only thermostat shows only what it supports', async (t) => {
  const { state } = setup({ hvacModes: ['off', 'heat'], minTemp: 5, maxTemp: 30, precision: 0.5 });
  t.same(state()?.attributes, {
    hvac_modes: ['off', 'heat'],
    min_temp: 5,
    max_temp: 30,
    supported_features: ClimateFeature.TARGET_TEMPERATURE | ClimateFeature.TURN_OFF | ClimateFeature.TURN_ON,
    friendly_name: 'Hall',
    current_temperature: 19,
    temperature: 21,
    current_humidity: 48,
    hvac_action: 'heating',
  });
});

t.test('set_temperature passes a target, a range and a mode through', async (t) => {
  const { call, calls, state } = setup(FULL);
  await call('set_temperature', { temperature: '22.5' });
  t.equal(state()?.attributes.temperature, 22.5);
  await call('set_temperature', { target_temp_low: 18, target_temp_high: 23, hvac_mode: 'heat_cool' });
  t.equal(state()?.state, 'heat_cool');
  t.equal(state()?.attributes.target_temp_low, 18);
  t.equal(state()?.attributes.target_temp_high, 23);
  t.same(calls, [
    ['setTemperature', { temperature: 22.5 }],
    ['setTemperature', { targetTempLow: 18, targetTempHigh: 23, hvacMode: 'heat_cool' }],
  ]);
});

t.test('set_temperature validation', async (t) => {
  const { call, calls } = setup(FULL);
  const sv = 'service_validation';
  await t.rejects(call('set_temperature', { temperature: 40 }), {
    kind: sv,
    message: 'Validation error: Provided temperature 40.0 is not valid. Accepted range is 7 to 35',
  });
  await t.rejects(call('set_temperature', { target_temp_low: 0, target_temp_high: 25 }), {
    message: 'Validation error: Provided temperature 0.0 is not valid. Accepted range is 7 to 35',
  });
  await t.rejects(call('set_temperature', { target_temp_low: 20.5, target_temp_high: 15 }), {
    kind: sv,
    message: "Validation error: 'Lower target temperature' cannot be higher than 'Upper target temperature'",
  });
  await t.rejects(call('set_temperature', { temperature: 20, hvac_mode: 'auto' }), {
    kind: sv,
    message: 'Validation error: HVAC mode auto is not valid. Valid HVAC modes are: off, heat, cool, heat_cool',
  });
  await t.rejects(call('set_temperature', { temperature: 'warm' }), {
    kind: 'invalid_service_data',
    message: /expected float.*'temperature'/,
  });
  await t.rejects(call('set_temperature', {}), { message: /must contain at least one of temperature, target_temp_low, target_temp_high/ });
  await t.rejects(call('set_temperature', { target_temp_low: 18 }), {
    message: /inclusion.*give all of target_temp_low, target_temp_high/,
  });
  await t.rejects(call('set_temperature', { temperature: 20, target_temp_low: 18, target_temp_high: 22 }), { message: /exclusion/ });
  await t.rejects(call('set_temperature', { temperature: 20, hvac_mode: 'warm' }), {
    message: /value must be one of off, heat, cool, heat_cool, auto, dry, fan_only .*'hvac_mode'/,
  });
  await t.rejects(call('set_temperature', { temperature: 20, humidity: 3 }), { message: /extra keys not allowed @ data\['humidity'\]/ });
  t.same(calls, [], 'nothing reached the device');
});

t.test('set_temperature needs the matching target feature', async (t) => {
  const rangeOnly = setup({ hvacModes: ['off', 'heat_cool'] });
  await t.rejects(rangeOnly.call('set_temperature', { temperature: 20 }), {
    message: 'Validation error: Set temperature action was used with the target temperature parameter but the entity does not support it',
  });
  const single = setup({ hvacModes: ['off', 'heat'] });
  await t.rejects(single.call('set_temperature', { target_temp_low: 18, target_temp_high: 22 }), {
    message:
      'Validation error: Set temperature action was used with the target temperature low/high parameter but the entity does not support it',
  });
  const fanOnly = setup({ hvacModes: ['off', 'fan_only'] });
  await t.rejects(fanOnly.call('set_temperature', { temperature: 20 }), {
    kind: 'service_validation',
    message: 'Entity climate.hall does not support action climate.set_temperature.',
  });
  await fanOnly.call('set_temperature', { temperature: 20, entity_id: 'all' });
  t.same(fanOnly.calls, [], 'entities reached through "all" are skipped, not refused');
});

t.test('modes, presets, fan, swing and humidity are checked against the entity', async (t) => {
  const { call, calls, state } = setup(FULL);
  await call('set_hvac_mode', { hvac_mode: 'cool' });
  await call('set_preset_mode', { preset_mode: 'away' });
  await call('set_fan_mode', { fan_mode: 'high' });
  await call('set_swing_mode', { swing_mode: 'vertical' });
  await call('set_humidity', { humidity: '55' });
  const a = state()?.attributes;
  t.equal(state()?.state, 'cool');
  t.same([a?.preset_mode, a?.fan_mode, a?.swing_mode, a?.humidity], ['away', 'high', 'vertical', 55]);
  t.equal(calls.length, 5);

  const sv = { kind: 'service_validation' };
  await t.rejects(call('set_hvac_mode', { hvac_mode: 'dry' }), {
    ...sv,
    message: 'Validation error: HVAC mode dry is not valid. Valid HVAC modes are: off, heat, cool, heat_cool',
  });
  await t.rejects(call('set_hvac_mode', { hvac_mode: 'blast' }), {
    kind: 'invalid_service_data',
    message: "value must be one of off, heat, cool, heat_cool, auto, dry, fan_only for dictionary value @ data['hvac_mode']. Got 'blast'",
  });
  await t.rejects(call('set_hvac_mode', {}), { message: "required key not provided @ data['hvac_mode']. Got None" });
  await t.rejects(call('set_preset_mode', { preset_mode: 'invalid' }), {
    ...sv,
    message: 'Validation error: Preset mode invalid is not valid. Valid preset modes are: home, away',
  });
  await t.rejects(call('set_fan_mode', { fan_mode: 'turbo' }), {
    ...sv,
    message: 'Validation error: Fan mode turbo is not valid. Valid fan modes are: auto, low, high',
  });
  await t.rejects(call('set_swing_mode', { swing_mode: 'both' }), {
    ...sv,
    message: 'Validation error: Swing mode both is not valid. Valid swing modes are: off, vertical',
  });
  await t.rejects(call('set_humidity', { humidity: 70 }), {
    ...sv,
    message: 'Validation error: Provided humidity 70 is not valid. Accepted range is 40 to 60',
  });
  await t.rejects(call('set_humidity', { humidity: 'damp' }), {
    message: "expected int for dictionary value @ data['humidity']. Got 'damp'",
  });
  t.equal(calls.length, 5, 'no refused call reached the device');
});

t.test('services for missing features are refused for named entities', async (t) => {
  const { call } = setup({ hvacModes: ['heat'] });
  for (const [service, data] of [
    ['set_preset_mode', { preset_mode: 'home' }],
    ['set_fan_mode', { fan_mode: 'auto' }],
    ['set_swing_mode', { swing_mode: 'off' }],
    ['set_humidity', { humidity: 50 }],
    ['turn_off', {}],
  ] as const) {
    await t.rejects(call(service, data), {
      kind: 'service_validation',
      message: `Entity climate.hall does not support action climate.${service}.`,
    });
  }
  // toggle needs either TURN_ON or TURN_OFF; this one can turn on, but from heat it would have to turn off.
  await t.rejects(call('toggle'), { kind: 'not_supported', message: 'climate.hall cannot be turned off: it has no off mode' });
});

t.test('turn_on, turn_off and toggle pick modes as ClimateEntity does', async (t) => {
  const two = setup({ hvacModes: ['off', 'cool'] });
  await two.call('turn_off');
  t.equal(two.state()?.state, 'off');
  await two.call('toggle');
  t.equal(two.state()?.state, 'cool', 'the only other mode');
  await two.call('toggle');
  t.equal(two.state()?.state, 'off');

  const many = setup({ hvacModes: ['off', 'cool', 'heat', 'heat_cool'] });
  await many.call('turn_on');
  t.equal(many.state()?.state, 'heat_cool', 'heat_cool first, then heat, then cool');

  const own = setup(FULL, { withTurnOnOff: true });
  await own.call('turn_off');
  await own.call('turn_on');
  t.same(
    own.calls.map((c) => c[0]),
    ['turnOff', 'turnOn'],
    'a platform with its own turn_on/turn_off is used',
  );
  t.equal(own.state()?.state, 'cool');
});

t.test('an unavailable thermostat keeps its capabilities and is skipped by services', async (t) => {
  const { handle, call, calls, state } = setup(FULL);
  handle.entity.markUnavailable();
  t.equal(state()?.state, 'unavailable');
  t.equal(state()?.attributes.current_temperature, undefined);
  t.same(state()?.attributes.preset_modes, ['home', 'away']);
  await call('set_temperature', { temperature: 22 });
  await call('turn_off');
  t.same(calls, []);
});

t.test('scenes reproduce mode, preset, temperatures, humidity, fan and swing', async (t) => {
  const { core, calls, state } = setup(FULL);
  const reproduce = (s: HvacMode, attributes: Record<string, unknown>) =>
    climateDomain.reproduceState?.(core, 'climate.hall', { state: s, attributes: attributes as never }, core.newContext());
  await reproduce('cool', {
    preset_mode: 'away',
    temperature: 24,
    target_temp_low: null,
    target_temp_high: null,
    humidity: 45,
    fan_mode: 'low',
    swing_mode: 'vertical',
  });
  t.same(calls, [
    ['setHvacMode', 'cool'],
    ['setPresetMode', 'away'],
    ['setTemperature', { temperature: 24 }],
    ['setHumidity', 45],
    ['setFanMode', 'low'],
    ['setSwingMode', 'vertical'],
  ]);
  calls.length = 0;
  await reproduce('heat_cool', { temperature: 21, target_temp_low: 19, target_temp_high: 23 });
  t.same(calls, [
    ['setHvacMode', 'heat_cool'],
    ['setTemperature', { targetTempLow: 19, targetTempHigh: 23 }],
  ]);
  t.equal(state()?.attributes.target_temp_low, 19);
});
