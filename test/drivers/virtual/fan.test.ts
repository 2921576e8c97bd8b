import t from 'tap';
import type { JsonValue } from '../../../src/core/json.js';
import { fanDomain } from '../../../src/domains/fan.js';
import type { Teardown } from '../../helpers/hub.js';
import { startVirtual, virtualIssues } from '../../helpers/virtual.js';

const issuesOf = virtualIssues;
const start = (t: Teardown, yaml: string) => startVirtual(t, yaml, [fanDomain]);

const CONFIG = `
- platform: fan
  id: ceiling
  name: Ceiling Fan
  speed_count: 3
  presets: [breeze, sleep]
  oscillate: true
  direction: true
- platform: fan
  name: Desk Fan
`;

t.test('fans start off with the features configured', async (t) => {
  const core = await start(t, CONFIG);
  t.same(core.states.get('fan.ceiling')?.attributes, {
    preset_modes: ['breeze', 'sleep'],
    supported_features: 63,
    friendly_name: 'Ceiling Fan',
    direction: 'forward',
    oscillating: false,
    percentage: 0,
    percentage_step: 100 / 3,
    preset_mode: null,
  });
  const desk = core.states.get('fan.desk_fan');
  t.equal(desk?.state, 'off');
  t.same(desk?.attributes, {
    preset_modes: null,
    supported_features: 1 | 16 | 32,
    friendly_name: 'Desk Fan',
    percentage: 0,
    percentage_step: 25,
    preset_mode: null,
  });
});

t.test('percentages snap to the fan’s speeds; turn_on resumes the last speed', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'fan.ceiling';
  const call = (service: string, data: Record<string, JsonValue> = {}) => core.services.call('fan', service, { entity_id: id, ...data });
  const now = () => core.states.get(id);
  await call('turn_on');
  t.same([now()?.state, now()?.attributes.percentage], ['on', 66], 'the default 50% is speed 2 of 3');
  await call('set_percentage', { percentage: 10 });
  t.equal(now()?.attributes.percentage, 33);
  await call('increase_speed');
  await call('increase_speed');
  t.equal(now()?.attributes.percentage, 100);
  await call('turn_off');
  t.same([now()?.state, now()?.attributes.percentage], ['off', 0]);
  await call('turn_on');
  t.equal(now()?.attributes.percentage, 100);
  await call('decrease_speed', { percentage_step: 100 });
  t.equal(now()?.state, 'off');
});

t.test('presets replace the speed until one is set; oscillation and direction stick', async (t) => {
  const core = await start(t, CONFIG);
  const id = 'fan.ceiling';
  const call = (service: string, data: Record<string, JsonValue> = {}) => core.services.call('fan', service, { entity_id: id, ...data });
  const now = () => core.states.get(id)?.attributes;
  await call('turn_on', { preset_mode: 'breeze' });
  t.same([now()?.preset_mode, now()?.percentage], ['breeze', null]);
  await call('oscillate', { oscillating: true });
  await call('set_direction', { direction: 'reverse' });
  await call('set_percentage', { percentage: 70 });
  t.same([now()?.preset_mode, now()?.percentage, now()?.oscillating, now()?.direction], [null, 100, true, 'reverse']);
  await t.rejects(call('set_preset_mode', { preset_mode: 'turbo' }), {
    message: 'Validation error: Preset mode turbo is not valid, valid preset modes are: breeze, sleep',
  });
  await t.rejects(core.services.call('fan', 'oscillate', { entity_id: 'fan.desk_fan', oscillating: true }), {
    message: 'Entity fan.desk_fan does not support action fan.oscillate.',
  });
});

t.test('configuration problems name the option and what is allowed', async (t) => {
  t.same(
    issuesOf(`
- platform: fan
  name: Bad
  speed_count: 0
  presets: []
  percentage: 120
  oscillate: sideways
`),
    [
      'virtual.0.presets: must list at least one preset',
      'virtual.0.speed_count: 0 is not allowed: expected an integer from 1 to 100',
      'virtual.0.oscillate: "sideways" is not allowed: expected true or false',
      'virtual.0.percentage: 120 is not allowed: expected an integer from 1 to 100',
    ],
  );
});
