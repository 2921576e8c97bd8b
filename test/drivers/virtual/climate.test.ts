import t from 'tap';
import type { JsonValue } from '../../../src/core/json.js';
import { climateDomain } from '../../../src/domains/climate-services.js';
import type { Teardown } from '../../helpers/hub.js';
import { startVirtual, virtualIssues } from '../../helpers/virtual.js';
import { waitForState } from '../../helpers/wait.js';

const issuesOf = virtualIssues;
const start = (t: Teardown, yaml: string) => startVirtual(t, yaml, [climateDomain]);
const waitFor = waitForState;

const FAST = `
- platform: climate
  id: living_room
  name: Living Room
  hvac_modes: [off, heat, cool, heat_cool]
  current_temperature: 19
  temperature: 20
  ambient: 15
  heat_rate: 600
  drift_rate: 60
  tolerance: 0.3
  interval: 0.02
  presets: {none: , comfort: 22, eco: 17}
  preset_mode: none
  fan_modes: [auto, low, high]
  current_humidity: 45
  target_humidity: 50
`;

t.test('a minimal thermostat is heat/off with sensible defaults', async (t) => {
  const core = await start(t, '- {platform: climate, name: Hall}');
  const s = core.states.get('climate.hall');
  t.equal(s?.state, 'heat');
  t.same(s?.attributes.hvac_modes, ['off', 'heat']);
  t.equal(s?.attributes.temperature, 21);
  t.equal(s?.attributes.current_temperature, 19.5);
  t.equal(s?.attributes.hvac_action, 'heating', 'below target by more than the tolerance');
  t.equal(s?.attributes.target_temp_step, 0.5);
  t.equal(s?.attributes.supported_features, 1 | 128 | 256);
});

t.test('a starting preset with a temperature sets the starting target', async (t) => {
  const core = await start(t, '- {platform: climate, name: Hall, presets: {comfort: 22.5, eco: 18}, preset_mode: eco}');
  const a = core.states.get('climate.hall')?.attributes;
  t.same([a?.preset_mode, a?.temperature, a?.preset_modes], ['eco', 18, ['comfort', 'eco']]);
});

t.test('heats to the target, idles, drifts back and heats again', async (t) => {
  const core = await start(t, FAST);
  const id = 'climate.living_room';
  t.equal(core.states.get(id)?.attributes.hvac_action, 'heating');
  await waitFor(core, id, (s) => s.attributes.current_temperature === 20 && s.attributes.hvac_action === 'idle');
  // The room cools toward ambient (15) until it is a tolerance below the target, then heating restarts.
  const restarted = await waitFor(core, id, (s) => s.attributes.hvac_action === 'heating');
  t.ok((restarted.attributes.current_temperature as number) <= 19.7, 'heating restarts below target minus tolerance');
  t.ok((restarted.attributes.current_temperature as number) >= 19, 'and not much later');
});

t.test('services change mode, target, preset and fan; off stops heating', async (t) => {
  const core = await start(t, FAST);
  const id = 'climate.living_room';
  const call = (service: string, data: Record<string, JsonValue> = {}) =>
    core.services.call('climate', service, { entity_id: id, ...data });

  await call('set_preset_mode', { preset_mode: 'comfort' });
  t.equal(core.states.get(id)?.attributes.temperature, 22, 'the comfort preset sets its temperature');
  await waitFor(core, id, (s) => s.attributes.current_temperature === 22);
  await call('set_temperature', { temperature: 18 });
  t.equal(core.states.get(id)?.attributes.preset_mode, 'none', 'a manual setpoint leaves the preset');

  await call('set_hvac_mode', { hvac_mode: 'cool' });
  await waitFor(core, id, (s) => s.attributes.current_temperature === 18 && s.attributes.hvac_action === 'idle');

  await call('set_temperature', { target_temp_low: 20, target_temp_high: 24, hvac_mode: 'heat_cool' });
  const range = await waitFor(core, id, (s) => s.attributes.hvac_action === 'heating');
  t.same(
    [range.state, range.attributes.temperature, range.attributes.target_temp_low, range.attributes.target_temp_high],
    ['heat_cool', null, 20, 24],
  );
  await waitFor(core, id, (s) => s.attributes.current_temperature === 20);

  await call('set_fan_mode', { fan_mode: 'high' });
  await call('set_humidity', { humidity: 40 });
  t.equal(core.states.get(id)?.attributes.fan_mode, 'high');
  t.equal(core.states.get(id)?.attributes.humidity, 40);

  await call('turn_off');
  const off = core.states.get(id);
  t.same([off?.state, off?.attributes.hvac_action, off?.attributes.temperature], ['off', 'off', null]);
  await call('turn_on');
  t.equal(core.states.get(id)?.state, 'heat_cool', 'turn_on resumes the last mode');
  await t.rejects(call('set_temperature', { temperature: 36 }), {
    message: 'Validation error: Provided temperature 36.0 is not valid. Accepted range is 7 to 35',
  });
});

t.test('configuration problems name the option and what is allowed', async (t) => {
  t.same(
    issuesOf(`
- platform: climate
  name: Bad
  hvac_modes: [off, warm]
  hvac_mode: cool
  temperature: 50
  interval: 0
  presets: {eco: hot}
  preset_mode: comfort
  fan_modes: []
  colour: red
`),
    [
      'virtual.0.hvac_modes.1: "warm" is not allowed: expected one of off, heat, cool, heat_cool, auto, dry, fan_only',
      'virtual.0.hvac_mode: "cool" is not allowed: expected one of hvac_modes (off)',
      'virtual.0.presets.eco: "hot" is not allowed: expected a number from 7 to 35',
      'virtual.0.preset_mode: "comfort" is not allowed: expected one of presets (eco)',
      'virtual.0.temperature: 50 is not allowed: expected a number from 7 to 35',
      'virtual.0.interval: 0 is not allowed: expected a number from 0.01 to 3600',
      'virtual.0.fan_modes: must list at least one mode',
      'virtual.0.colour: unknown option; allowed: ambient, current_humidity, current_temperature, drift_rate, fan_modes, heat_rate, hvac_mode, hvac_modes, id, interval, max_humidity, max_temp, min_humidity, min_temp, name, platform, preset_mode, presets, swing_modes, target_humidity, target_temp_high, target_temp_low, target_temp_step, temperature, tolerance',
    ],
  );
});
